import EntitlintCore
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
/// from the spec: XcodeGen rewrites the project from it. Both are this source's, so it settles
/// that itself (the spec takes the project's workspace family and scope); a project another
/// source stands for (`DiscoveryRequest.superseded`) is not read.
public struct XcodeDiscoverer: DiscoverySource {
    public init() {}

    public var name: String { "Xcode projects" }

    /// Projects (`project.pbxproj`), workspaces, YAML files (an XcodeGen spec is `project.yml`, or
    /// found by its content: `XcodeGenSpec.rootSpecs`), and the build files of the kinds only read
    /// for the entitlements and profiles they name (`ForeignBuildFiles`: CMake, Bazel, Tuist's
    /// `Project.swift`, MSBuild).
    public var walkedFiles: FileRecognition { Self.walked }

    /// What a project is read from: projects, workspaces, XcodeGen specs and xcconfigs.
    public var projectFiles: FileRecognition { Self.project }

    // Built once: a walk asks for every file it meets.
    static let walked = FileRecognition(names: ["project.pbxproj", "contents.xcworkspacedata", "CMakeLists.txt", "BUILD", "BUILD.bazel",
                                                "Project.swift"],
                                        extensions: ["yml", "yaml", "cmake", "csproj"])
    static let project = FileRecognition(names: ["project.pbxproj", "project.yml", "contents.xcworkspacedata"], extensions: ["xcconfig"])

    /// The folders that are projects and workspaces, and the spec's name, that the search above a
    /// file inside a project looks for (`DiscoverySession.projectsIn`).
    static let bundleSuffixes: [StaticString] = [".xcodeproj", ".xcworkspace"]
    static let specName: StaticString = "project.yml"

    public func discover(_ request: DiscoveryRequest) -> Discovery {
        var session = DiscoverySession(request)
        session.run(looseFiles: request.files)
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
    let request: DiscoveryRequest
    var cwd: String { request.cwd }
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
    /// Absolute glob patterns (`globMatches`) of entitlements files a setting names through a
    /// variable (`App$(SUFFIX).entitlements`): every file matching is a variant, not unused.
    var mentionedPatterns = Set<String>()
    /// Build files of the kinds Entitlint only reads for the entitlements they name (`ForeignBuildFiles`).
    var foreignBuildFilePaths: [String] = []
    /// YAML files a walk met that are not named `project.yml`: XcodeGen specs when their content
    /// says so (`XcodeGenSpec.rootSpecs`).
    var specCandidates: [String] = []
    var foreign = ForeignBuildFiles()
    var boundaryCache: [String: String] = [:]
    /// Absolute project path -> the workspace (absolute) that names it: their units form one family.
    var workspaceOf: [String: String] = [:]
    /// Workspace (absolute) -> the folders it names that are not projects (`Workspace.folders`).
    var workspaceFolders: [String: [String]] = [:]
    /// Absolute project or spec path -> the family of its units.
    var familyOf: [String: String] = [:]
    /// Projects and workspaces (absolute) that yielded no unit.
    var unitless = Set<String>()
    /// Spec path -> the scopes of the projects generated from it, merged into its own.
    var mergedScopes: [String: Scope] = [:]
    /// Absolute paths of generated projects another source reads from their specs.
    var superseded: Set<String> { request.superseded }

    init(_ request: DiscoveryRequest) {
        self.request = request
        files = ProjectFiles(request)
        xcconfigs = XCConfigLoader(files: files)
        entitlements = EntitlementsCache(files: files, limits: request.reading.limits)
        catalog = SourceCatalog(files: files)
    }

    mutating func add(project path: String, scope: Scope) {
        Self.add(Paths.absolute(path, cwd: cwd), scope: scope, to: &projects)
    }

    mutating func add(workspace path: String, scope: Scope) {
        Self.add(Paths.absolute(path, cwd: cwd), scope: scope, to: &workspaces)
    }

    /// Appends `abs` to `list`, in order of discovery; one already listed keeps its place and
    /// gets the union of both scopes.
    static func add(_ abs: String, scope: Scope, to list: inout [(path: String, scope: Scope)]) {
        if let i = list.firstIndex(where: { $0.path == abs }) {
            list[i].scope = list[i].scope.union(scope)
        } else {
            list.append((abs, scope))
        }
    }

    func excluded(_ path: String) -> Bool { request.isExcluded(path) }

    mutating func run(looseFiles: [String]) {
        for path in request.paths where path != "-" {
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
                if InputFiles.isProfilePath(path) { continue }
                let abs = Paths.absolute(path, cwd: cwd)
                for found in ancestors(of: Paths.directoryName(abs), includingSelf: true) {
                    addFound(found, scope: .using([abs]))
                }
            case .missing:
                continue
            }
        }
        for spec in XcodeGenSpec.rootSpecs(specCandidates, named: projects.map(\.path).filter { $0.hasSuffix(".yml") }, files: files) {
            add(project: spec, scope: .all)
        }
        readWorkspaces()
        readProjects()
        foreign.read(foreignBuildFilePaths, files: files)
    }

    mutating func addFound(_ path: String, scope: Scope) {
        if path.hasSuffix(".xcworkspace") { add(workspace: path, scope: scope) } else { add(project: path, scope: scope) }
    }

    /// Projects, workspaces and specs below a folder: the project files the run's walk of it
    /// collected (`XcodeDiscoverer.walkedFiles`; excludes and .gitignore already applied).
    mutating func walk(_ root: String, walked: [String]) {
        let absRoot = Paths.absolute(root, cwd: cwd)
        let prefix = absRoot == "/" ? "/" : absRoot + "/"
        let found = walked.filter { XcodeDiscoverer.walked.matches($0) && Paths.absolute($0, cwd: cwd).hasPrefix(prefix) }
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
            } else if name.hasSuffix(".yml") || name.hasSuffix(".yaml") {
                specCandidates.append(p)
            } else if ForeignBuildFiles.isBuildFile(p) {
                foreignBuildFilePaths.append(p)
            }
        }
    }
}
