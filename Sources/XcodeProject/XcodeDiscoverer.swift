public import EntitlintCore
public import EntitlintWorkspace
import PropertyList
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the Xcode projects (`*.xcodeproj`), workspaces (`*.xcworkspace`) and XcodeGen specs
/// (`project.yml`) of a run and forms the units of every target and configuration:
///
/// - a folder is searched for them (skipping the folders the core skips, and what `.gitignore`
///   ignores), and all their units are linted;
/// - a project named directly (`App.xcodeproj`, its `project.pbxproj`, a workspace, a `project.yml`)
///   is linted whole;
/// - a file inside a project (an `.entitlements`, an `.xcconfig`) lints the units that use it; the
///   project is found in the file's folder or above (up to the git work tree's root, else the current
///   folder when the file is below it, else the file's own folder);
/// - the other units of a project found that way are context for the project rules only.
///
/// A folder holding both a `project.yml` and the project it generates (`<name>.xcodeproj`) is read
/// from the spec: XcodeGen rewrites the project from it.
public struct XcodeDiscoverer: UnitDiscoverer {
    public init() {}

    public func discover(_ options: LintOptions, files: [String], cwd: String) -> Discovery {
        var session = DiscoverySession(options: options, cwd: cwd)
        session.run(looseFiles: files)
        return session.result()
    }
}

/// Which units of a project a run concerns.
enum Scope: Hashable {
    case all
    /// Units using one of these files (absolute).
    case using(Set<String>)
    /// Units whose entitlements file is below one of these folders (absolute).
    case below(Set<String>)

    func union(_ other: Scope) -> Scope {
        switch (self, other) {
        case (.all, _), (_, .all): return .all
        case (.using(let a), .using(let b)): return .using(a.union(b))
        case (.below(let a), .below(let b)): return .below(a.union(b))
        default: return .all   // mixed scopes are rare; be generous
        }
    }
}

struct DiscoverySession {
    let options: LintOptions
    let cwd: String
    let files: ProjectFiles
    let xcconfigs: XCConfigLoader
    let entitlements: EntitlementsCache
    let catalog: SourceCatalog
    /// Absolute project paths (`.xcodeproj` folder, or `project.yml`) -> scope; in order of discovery.
    var projects: [(path: String, scope: Scope)] = []
    var workspaces: [(path: String, scope: Scope)] = []
    var problems: [ProjectProblem] = []
    var units: [ProjectUnit] = []
    /// Project files read, as shown, per project (counted only when the project has units in scope).
    var readFiles: [String: [String]] = [:]
    var ancestorCache: [String: [String]] = [:]
    /// Projects that workspaces name and a fresh clone is expected to lack.
    var expectedMissing: [ExpectedMissing] = []
    /// Absolute paths of entitlements files that some build setting of a project names.
    var mentioned = Set<String>()
    var boundaryCache: [String: String] = [:]
    /// Absolute project path -> the workspace (absolute) that names it: their units form one family.
    var workspaceOf: [String: String] = [:]
    /// Workspace (absolute) -> the folders it names that are not projects (`Workspace.folders`).
    var workspaceFolders: [String: [String]] = [:]
    /// Absolute project or spec path -> the family of its units.
    var familyOf: [String: String] = [:]
    /// Projects and workspaces (absolute) that yielded no unit.
    var unitless = Set<String>()

    init(options: LintOptions, cwd: String) {
        self.options = options
        self.cwd = cwd
        files = ProjectFiles(options: options, cwd: cwd)
        xcconfigs = XCConfigLoader(files: files)
        entitlements = EntitlementsCache(files: files, limits: options.limits)
        catalog = SourceCatalog(files: files)
    }

    mutating func add(project path: String, scope: Scope) {
        let abs = Paths.absolute(path, cwd: cwd)
        if let i = projects.firstIndex(where: { $0.path == abs }) {
            projects[i].scope = projects[i].scope.union(scope)
        } else {
            projects.append((abs, scope))
        }
    }

    mutating func add(workspace path: String, scope: Scope) {
        let abs = Paths.absolute(path, cwd: cwd)
        if let i = workspaces.firstIndex(where: { $0.path == abs }) {
            workspaces[i].scope = workspaces[i].scope.union(scope)
        } else {
            workspaces.append((abs, scope))
        }
    }

    func excluded(_ path: String) -> Bool { options.configuration?.excludes(path, cwd: cwd) ?? false }

    mutating func run(looseFiles: [String]) {
        for path in options.paths where path != "-" {
            let base = Paths.baseName(path)
            switch files.kind(path) {
            case .directory:
                if base.hasSuffix(".xcodeproj") { add(project: path, scope: .all); continue }
                if base.hasSuffix(".xcworkspace") { add(workspace: path, scope: .all); continue }
                walk(path, walked: looseFiles)
                // A folder inside a project: the units whose entitlements are below it.
                for found in ancestors(of: Paths.absolute(path, cwd: cwd), includingSelf: false) {
                    addFound(found, scope: .below([Paths.absolute(path, cwd: cwd)]))
                }
            case .file, .other:
                if base == "project.pbxproj" { add(project: Paths.directoryName(path), scope: .all); continue }
                if base == "contents.xcworkspacedata" { add(workspace: Paths.directoryName(path), scope: .all); continue }
                if base == "project.yml" { add(project: path, scope: .all); continue }
                if Linter.isProfilePath(path) { continue }
                let abs = Paths.absolute(path, cwd: cwd)
                for found in ancestors(of: Paths.directoryName(abs), includingSelf: true) {
                    addFound(found, scope: .using([abs]))
                }
            case .missing:
                continue
            }
        }
        readWorkspaces()
        readProjects()
    }

    mutating func addFound(_ path: String, scope: Scope) {
        if path.hasSuffix(".xcworkspace") { add(workspace: path, scope: scope) } else { add(project: path, scope: scope) }
    }

    /// Projects, workspaces and specs below a folder: the project files the run's walk of it
    /// collected (`Linter.isProjectMarker`; excludes and .gitignore already applied).
    mutating func walk(_ root: String, walked: [String]) {
        let absRoot = Paths.absolute(root, cwd: cwd)
        let prefix = absRoot == "/" ? "/" : absRoot + "/"
        let found = walked.filter { Linter.isProjectMarker($0) && Paths.absolute($0, cwd: cwd).hasPrefix(prefix) }
        for p in found {
            let name = Paths.baseName(p)
            let folder = Paths.directoryName(p)
            if name == "project.pbxproj", folder.hasSuffix(".xcodeproj") {
                add(project: folder, scope: .all)
            } else if name == "contents.xcworkspacedata", folder.hasSuffix(".xcworkspace"),
                      !Paths.directoryName(folder).hasSuffix(".xcodeproj") {
                add(workspace: folder, scope: .all)
            } else if name == "project.yml" {
                add(project: p, scope: .all)
            }
        }
    }

    /// The folder where the search for a file's project stops: the git work tree's root, else the
    /// current folder when the file is below it, else the file's own folder.
    mutating func boundary(for folder: String) -> String {
        if let known = boundaryCache[folder] { return known }
        let b = findBoundary(folder)
        boundaryCache[folder] = b
        return b
    }

    func findBoundary(_ folder: String) -> String {
        var dir = folder
        var levels = 0
        while levels < 64 {
            if Paths.kind(dir == "/" ? "/.git" : dir + "/.git") != .missing { return dir }
            if dir == "/" { break }
            dir = Paths.directoryName(dir)
            levels += 1
        }
        let base = cwd.hasSuffix("/") ? cwd : cwd + "/"
        if folder == cwd || folder.hasPrefix(base) { return cwd }
        return folder
    }

    /// Projects, workspaces and specs in `folder` (absolute) and its parents up to the boundary.
    mutating func ancestors(of folder: String, includingSelf: Bool) -> [String] {
        let stop = boundary(for: folder)
        guard folder == stop || folder.hasPrefix(stop == "/" ? "/" : stop + "/") else { return [] }
        var dir = includingSelf ? folder : Paths.directoryName(folder)
        if !includingSelf && folder == stop { return [] }
        var out: [String] = []
        while true {
            out += projectsIn(dir)
            if dir == stop || dir == "/" { break }
            dir = Paths.directoryName(dir)
        }
        return out
    }

    /// The `*.xcodeproj`, `*.xcworkspace` and `project.yml` directly in `dir`.
    mutating func projectsIn(_ dir: String) -> [String] {
        if let cached = ancestorCache[dir] { return cached }
        var out: [String] = []
        if let d = opendir(dir) {
            var names: [String] = []
            while let e = readdir(d) {
                // Test the name's bytes first: folders can hold thousands of entries, and only a
                // few names can be projects (a pre-commit run pays for this on every file).
                let candidate = withUnsafePointer(to: e.pointee.d_name) {
                    $0.withMemoryRebound(to: UInt8.self, capacity: 256) { b -> Bool in
                        var n = 0
                        while n < 256 && b[n] != 0 { n += 1 }
                        func ends(_ suffix: StaticString) -> Bool {
                            let k = suffix.utf8CodeUnitCount
                            guard n >= k else { return false }
                            return memcmp(b + (n - k), suffix.utf8Start, k) == 0
                        }
                        return ends(".xcodeproj") || ends(".xcworkspace") || (n == 11 && ends("project.yml"))
                    }
                }
                guard candidate else { continue }
                let name = withUnsafePointer(to: e.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                names.append(name)
            }
            closedir(d)
            for name in names.sorted() {
                let p = dir == "/" ? "/" + name : dir + "/" + name
                if name.hasSuffix(".xcodeproj"), files.kind(p + "/project.pbxproj") != .file { continue }
                if name.hasSuffix(".xcworkspace"), files.kind(p + "/contents.xcworkspacedata") != .file { continue }
                if excluded(p) { continue }
                out.append(p)
            }
        }
        ancestorCache[dir] = out
        return out
    }

    mutating func readWorkspaces() {
        for (path, scope) in workspaces {
            let (workspace, found) = Workspace.read(bundlePath: path, files: files)
            problems += found
            guard let workspace else { unitless.insert(path); continue }
            readFiles[path, default: []].append(workspace.file)
            workspaceFolders[path] = workspace.folders
            for ref in workspace.projects {
                if files.isOutside(ref.path) {
                    problems.append(ProjectProblem(file: workspace.file, location: ref.location,
                                                   message: "the workspace names \(OutputText.reference(ref.written)), outside the project root (symbolic links resolved): not read"))
                    continue
                }
                if files.kind(ProjectFiles.join(ref.path, "project.pbxproj")) != .file {
                    if files.kind(ref.path) == .missing, let reason = MissingFileReason.explain(ref.path, files: files) {
                        expectedMissing.append(ExpectedMissing(shown: files.shown(ref.path), referrer: workspace.file, location: ref.location,
                                                               reason: reason, settings: false))
                    } else {
                        problems.append(ProjectProblem(file: workspace.file, location: ref.location,
                                                       message: "the workspace names \(files.shown(ref.path)), which is not an Xcode project here (no project.pbxproj)"))
                    }
                    continue
                }
                let abs = Paths.absolute(ref.path, cwd: cwd)
                if workspaceOf[abs] == nil { workspaceOf[abs] = path }
                add(project: ref.path, scope: scope)
            }
        }
    }

    mutating func readProjects() {
        // A generated project beside its XcodeGen spec is read from the spec.
        var specs: [String: String] = [:]   // generated .xcodeproj (absolute) -> spec
        for (path, _) in projects where path.hasSuffix("project.yml") {
            if let name = XcodeGenSpec.projectName(path, files: files) {
                specs[Paths.directoryName(path) + "/" + name + ".xcodeproj"] = path
            }
        }
        for (path, scope) in projects {
            if let spec = specs[path] {
                if let i = projects.firstIndex(where: { $0.path == spec }), scope != projects[i].scope {
                    // Merge the scope into the spec's (already iterated or not, the union is what counts).
                    mergeScope(spec, scope)
                }
                continue
            }
            var found: [ProjectUnit] = []
            let generated = specs.first { $0.value == path }?.key
            let family = workspaceOf[path] ?? generated.flatMap { workspaceOf[$0] } ?? path
            familyOf[path] = family
            if path.hasSuffix("project.yml") {
                let (units, issues, read) = XcodeGenSpec.units(specPath: path, files: files, xcconfigs: xcconfigs, entitlements: entitlements,
                                                             variables: options.configuration?.variables ?? [:], limits: options.limits,
                                                             catalog: catalog)
                found = units
                problems += issues
                readFiles[path, default: []] += read
            } else {
                let (read, issues) = PBXProject.read(bundlePath: path, files: files, limits: options.limits)
                problems += issues
                guard var project = read else { unitless.insert(path); continue }
                // A product whose package the project does not name may be a package of its workspace.
                project.packageFolders += workspaceOf[path].flatMap { workspaceFolders[$0] } ?? []
                readFiles[path, default: []].append(project.file)
                xcconfigs.projectFolder = project.directory
                var builder = ProjectUnitBuilder(project: project, files: files, xcconfigs: xcconfigs, entitlements: entitlements,
                                                 variables: options.configuration?.variables ?? [:], catalog: catalog)
                found = builder.build()
                problems += builder.problems
                // Entitlements files a setting names without any target choosing them in the
                // configurations read (`MAC_ENTITLEMENTS_YES = App/App.entitlements`, picked by a
                // per-developer setting): variants of a target, not unused files.
                for a in project.allSettings + xcconfigs.allAssignments where a.value.hasSuffix(".entitlements") && !a.value.contains("$") {
                    mentioned.insert(files.absolute(ProjectFiles.normalize(ProjectFiles.join(project.directory, a.value.trimmed("\"")))))
                }
            }
            if found.isEmpty { unitless.insert(path) }
            for var u in found {
                u.unit.inScope = Self.inScope(u, scope: effectiveScope(path, scope))
                u.unit.family = family
                units.append(u)
            }
        }
    }

    var mergedScopes: [String: Scope] = [:]
    mutating func mergeScope(_ spec: String, _ scope: Scope) { mergedScopes[spec] = (mergedScopes[spec] ?? scope).union(scope) }
    func effectiveScope(_ path: String, _ scope: Scope) -> Scope { mergedScopes[path].map { $0.union(scope) } ?? scope }

    static func inScope(_ u: ProjectUnit, scope: Scope) -> Bool {
        switch scope {
        case .all: return true
        case .using(let used):
            // A changed source file concerns the targets that compile it (their code is checked).
            return !used.isDisjoint(with: u.uses) || u.unit.origin.sources?.files.contains(where: used.contains) == true
        case .below(let folders):
            guard let e = u.entitlements else { return false }
            return folders.contains { e.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
    }

    /// Which problems a run that concerns only some units of its projects reports (a hook naming
    /// one entitlements file): those of the targets in scope, and those in the files their units
    /// read; nil when every project and workspace is wholly in scope (everything is reported).
    struct Relevance {
        var files: Set<String>
        var targets: Set<String>

        func keeps(_ p: ProjectProblem, files projectFiles: ProjectFiles) -> Bool {
            if let t = p.target { return targets.contains(t) }
            return files.contains(projectFiles.absolute(p.file))
        }
    }

    func relevance() -> Relevance? {
        guard (projects + workspaces).contains(where: { $0.scope != .all }) else { return nil }
        var r = Relevance(files: [], targets: [])
        for u in units where u.unit.inScope {
            r.files.formUnion(u.uses)
            r.targets.insert(ProjectProblem.targetKey(projectFile: u.unit.origin.projectFile, target: u.unit.origin.target))
        }
        // A project or workspace that yielded no unit (unreadable): its problems are why the named
        // file's facts are unknown. A workspace with units in scope: its own problems concern them.
        for (path, _) in projects + workspaces
        where unitless.contains(path) || units.contains(where: { $0.unit.inScope && $0.unit.family == path }) {
            for f in readFiles[path] ?? [] { r.files.insert(files.absolute(f)) }
            r.files.insert(files.absolute(path.hasSuffix(".xcodeproj") ? path + "/project.pbxproj"
                                           : path.hasSuffix(".xcworkspace") ? path + "/contents.xcworkspacedata" : path))
        }
        return r
    }

    func result() -> Discovery {
        var d = Discovery()
        // Unique names: targets of the same name in two projects are named with their project.
        var counts: [String: Set<String>] = [:]
        for u in units { counts[u.unit.name, default: []].insert(u.unit.origin.projectFile) }
        var seenProblems = Set<ProjectProblem>()
        let relevant = relevance()
        let missing = (expectedMissing + xcconfigs.expectedMissing).filter { relevant?.files.contains(files.absolute($0.referrer)) ?? true }
        let allProblems = (problems + xcconfigs.problems).filter { relevant?.keeps($0, files: files) ?? true } + ExpectedMissing.notes(missing)
        for var p in allProblems {
            p.target = nil
            guard seenProblems.insert(p).inserted else { continue }
            d.findings.append(Finding(rule: p.rule, severity: p.severity ?? (p.rule == "parse-error" ? .error : .warning), message: p.message,
                                      path: p.file, line: p.location.line, column: p.location.column))
        }
        d.mentioned = mentioned
        for (path, _) in projects + workspaces where readFiles[path] != nil {
            let folder = Paths.directoryName(path)
            if !d.projectFolders.contains(folder) { d.projectFolders.append(folder) }
            d.familyFolders.append((folder, familyOf[path] ?? path))
        }
        var shownFiles: [String] = []
        var projectsInScope = Set<String>()
        // Names are unique in a run (the lock file and the report key units by name): a target
        // name that several projects share is qualified by its project's name, and where two
        // projects share that too (a Flutter app's ios/Runner and macos/Runner), by the folder
        // holding the project as well.
        let qualified = units.map { counts[$0.unit.name]!.count > 1 ? "\($0.unit.origin.projectName)/\($0.unit.name)" : $0.unit.name }
        var qualifiedCounts: [String: Int] = [:]
        for q in qualified { qualifiedCounts[q, default: 0] += 1 }
        for (i, u) in units.enumerated() {
            var unit = u.unit
            unit.name = qualified[i]
            if qualifiedCounts[qualified[i]]! > 1 {
                let file = unit.origin.projectFile
                let project = file.hasSuffix(".pbxproj") ? Paths.directoryName(file) : file
                let folder = Paths.directoryName(project)
                if !folder.isEmpty && folder != "." { unit.name = "\(folder)/\(qualified[i])" }
            }
            d.units.append(unit)
            guard unit.inScope else { continue }
            projectsInScope.insert(unit.origin.projectFile)
            if let e = u.entitlements {
                d.claimed.insert(e)
                shownFiles.append(files.shown(e))
            }
        }
        for (path, _) in projects {
            let read = readFiles[path] ?? []
            guard let projectFile = read.first, projectsInScope.contains(projectFile) else { continue }
            shownFiles += read
        }
        for (path, _) in workspaces {
            if let read = readFiles[path] { shownFiles += read }
        }
        shownFiles += xcconfigs.read
        var seen = Set<String>()
        d.files = shownFiles.filter { seen.insert($0).inserted }
        return d
    }
}
