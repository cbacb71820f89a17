import EntitlintCore
import EntitlintWorkspace

// The run's discovery: the units with unique names, the problems of the projects the run
// concerns, and the files read.
extension DiscoverySession {
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

    /// For each missing file (as shown), the settings that the entitlements of units in scope use
    /// and that only it could set.
    func neededFromMissing() -> [String: Set<String>] {
        var needed: [String: Set<String>] = [:]
        for u in units where u.unit.inScope {
            for (name, file) in u.unit.origin.unknownSettings { needed[file, default: []].insert(name) }
        }
        return needed
    }

    func result() -> Discovery {
        var d = Discovery()
        // Unique names: targets of the same name in two projects are named with their project.
        var counts: [String: Set<String>] = [:]
        for u in units { counts[u.unit.name, default: []].insert(u.unit.origin.projectFile) }
        var seenProblems = Set<ProjectProblem>()
        let relevant = relevance()
        let missing = (expectedMissing + xcconfigs.expectedMissing).filter { relevant?.files.contains(files.absolute($0.referrer)) ?? true }
        let allProblems = (problems + xcconfigs.problems).filter { relevant?.keeps($0, files: files) ?? true }
            + ExpectedMissing.notes(missing, needed: neededFromMissing()) + foreign.notices() + catalog.notices()
        for var p in allProblems {
            p.target = nil
            guard seenProblems.insert(p).inserted else { continue }
            if p.isNotice {
                d.notices.append(Notice(message: p.message, path: p.file, line: p.location.line, column: p.location.column))
                continue
            }
            d.findings.append(Finding(rule: p.rule, severity: p.severity ?? (ToolFindings.contains(p.rule) ? .error : .warning), message: p.message,
                                      path: p.file, line: p.location.line, column: p.location.column))
        }
        d.mentioned = mentioned
        let patterns = mentionedPatterns.sorted()
        let foreign = self.foreign
        d.isMentioned = { path in patterns.contains { globMatches($0, path) } || foreign.names(path) }
        d.foreignFolders = foreign.folders(files: files).map(\.folder)
        d.namedProfiles = foreign.namedProfiles.sorted()
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
