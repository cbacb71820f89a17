import EntitlintCore
public import EntitlintWorkspace

/// Tuist projects as a discovery source: each `Project.swift` a walk collects is read without
/// being run (`TuistReader`), with the helpers of the Tuist root's `ProjectDescriptionHelpers`
/// folder, and every target with an entitlements file, or signed as an app or extension, forms a
/// unit per configuration, each fact with the manifest line it comes from.
///
/// The manifest is the project: a committed `<Name>.xcodeproj` beside it is generated from it
/// (`tuist generate`), so it is superseded, and a notice says the manifest was read instead.
/// Bounded: at most `maxManifests` manifests and `maxHelperFiles` helper files, each read within
/// the run's byte limit.
public struct TuistSource: DiscoverySource {
    public init() {}
    static let maxManifests = 256
    static let maxHelperFiles = 256
    static let maxWorkspaces = 16
    static let maxAncestors = 16

    public var name: String { "Tuist projects" }
    public var walkedFiles: FileRecognition { Self.recognised }
    public var projectFiles: FileRecognition { Self.recognised }
    static let recognised = FileRecognition(names: ["Project.swift", "Workspace.swift"])

    /// The manifests' names as bytes: a run's files are matched without building each base name.
    static let projectManifestName = [Array("Project.swift".utf8)]
    static let workspaceManifestName = [Array("Workspace.swift".utf8)]

    /// The manifests of a run and what lists them.
    struct Manifests {
        var list: [String] = []
        /// Those found only above the files the run names alone, and those files (absolute).
        var searched = Set<String>()
        var named = Set<String>()
        /// The workspace listing each manifest (absolute), and the workspaces' notes.
        var workspaces: [String: TuistWorkspace] = [:]
        var notes: [ProjectProblem] = []
        /// The workspace files read (as shown), those found above named files left out.
        var workspaceFiles: [String] = []
    }

    /// The manifests of the run: those its walks collected, then those the `Workspace.swift`
    /// files it walked or names list (`TuistWorkspace`), then those in the folders searched above
    /// the files it names alone (`NamedFiles`) and those their workspaces list, the latter as
    /// `searched` (absolute).
    func manifests(_ request: DiscoveryRequest, files: ProjectFiles) -> Manifests {
        var m = Manifests()
        m.list = request.files.filter { InputFiles.hasBaseName($0, in: Self.projectManifestName) && !request.isExcluded($0) }
        var known = Set(m.list.map(files.absolute))
        // A manifest named on the command line alone (a project file named alone is not among the run's files).
        for path in request.paths where Paths.baseName(path) == "Project.swift" && !request.isExcluded(path) {
            let abs = files.absolute(path)
            if files.kind(abs) == .file, known.insert(abs).inserted { m.list.append(path) }
        }
        let named = NamedFiles(request, files: files)
        m.named = named.paths
        // Walked, or named on the command line (a project file named alone is not among the run's files).
        var workspaces: [(String, Bool)] = []
        for path in request.files + request.paths where InputFiles.hasBaseName(path, in: Self.workspaceManifestName) && !request.isExcluded(path) {
            let abs = files.absolute(path)
            if files.kind(abs) == .file, !workspaces.contains(where: { $0.0 == abs }) { workspaces.append((abs, false)) }
        }
        for folder in named.folders {
            let w = ProjectFiles.join(folder, "Workspace.swift")
            if files.kind(w) == .file, !request.isExcluded(w), !workspaces.contains(where: { $0.0 == w }) { workspaces.append((w, true)) }
        }
        for (path, aboveNamed) in workspaces.prefix(Self.maxWorkspaces) {
            guard let w = TuistWorkspace(path: path, files: files, definitions: helpers(root: Paths.directoryName(path), files: files).0) else { continue }
            m.notes += w.notes
            if !aboveNamed { m.workspaceFiles.append(files.shown(path)) }
            for manifest in w.manifests where !request.isExcluded(manifest) {
                if m.workspaces[manifest] == nil { m.workspaces[manifest] = w }
                // A project listed but not walked (in a folder the walk skips, or the run named the workspace alone).
                guard known.insert(manifest).inserted else { continue }
                m.list.append(manifest)
                if aboveNamed { m.searched.insert(manifest) }
            }
        }
        for folder in named.folders {
            let manifest = ProjectFiles.join(folder, "Project.swift")
            guard files.kind(manifest) == .file, !request.isExcluded(manifest), known.insert(manifest).inserted else { continue }
            m.list.append(manifest)
            m.searched.insert(manifest)
        }
        m.list = Array(m.list.prefix(Self.maxManifests))
        return m
    }

    /// The committed projects the manifests generate: `<Name>.xcodeproj` beside a `Project.swift`.
    public func supersededProjects(_ request: DiscoveryRequest) -> [String] {
        let files = ProjectFiles(request)
        return manifests(request, files: files).list.compactMap { generated(by: $0, files: files) }
    }

    /// The `.xcodeproj` (absolute) beside `manifest` that it generates, when one is there.
    private func generated(by manifest: String, files: ProjectFiles) -> String? {
        guard case .success(let bytes) = files.read(manifest) else { return nil }
        let file = TuistFile(bytes: bytes, shown: files.shown(manifest))
        guard let project = file.calls("Project").first, let name = project.arg("name")?.stringValue else { return nil }
        let path = files.absolute(ProjectFiles.join(Paths.directoryName(manifest), name + ".xcodeproj"))
        return files.kind(path) == .directory ? path : nil
    }

    public func discover(_ request: DiscoveryRequest) -> Discovery {
        let files = ProjectFiles(request)
        let found = manifests(request, files: files)
        let list = found.list
        guard !list.isEmpty || !found.notes.isEmpty else { return Discovery() }
        var units = ManifestUnits(files: files, entitlements: EntitlementsCache(files: files, limits: request.reading.limits))
        units.searched = Set(found.searched.map(files.shown))
        units.named = found.named
        units.problems += found.notes
        let xcconfigs = XCConfigLoader(files: files)
        var helpersOfRoot: [String: (ManifestDefinitions, [String])] = [:]
        var read: [String] = found.workspaceFiles
        var unread = UnreadTargets()
        var all: [ManifestTarget] = []
        for manifest in list {
            guard case .success(let bytes) = files.read(manifest) else { continue }
            let folder = files.absolute(Paths.directoryName(manifest))
            let root = tuistRoot(above: folder, files: files)
            if helpersOfRoot[root] == nil { helpersOfRoot[root] = helpers(root: root, files: files) }
            var (definitions, helperFiles) = helpersOfRoot[root]!
            let file = TuistFile(bytes: bytes, shown: files.shown(manifest))
            file.define(into: &definitions)
            let workspace = ProjectFiles.join(root, "Workspace.swift")
            let listing = found.workspaces[files.absolute(manifest)]
            let family = listing?.path ?? (files.kind(workspace) == .file ? workspace : files.absolute(manifest))
            var reader = TuistReader(definitions: definitions, manifest: files.shown(manifest), manifestFolder: folder, root: root,
                                     files: files, xcconfigs: xcconfigs, family: family)
            var targets = reader.targets(of: file)
            if let listing {
                for i in targets.indices { targets[i].declared.workspace = .init(value: listing.name, source: "Workspace at \(listing.place)") }
            }
            units.problems += reader.notes
            unread.add(reader.unread)
            if let generated = generated(by: manifest, files: files) {
                var p = ProjectProblem(file: files.shown(manifest), location: .unknown,
                                       message: "\(files.shown(generated)) is generated from this Tuist manifest: the manifest is read, the project is not",
                                       severity: .note)
                p.isNotice = true
                units.problems.append(p)
            }
            all += targets
            read.append(files.shown(manifest))
            read += helperFiles
        }
        // Hosts are found across the manifests: `.project(target:path:)` names a target of another.
        units.add(all)
        units.problems += xcconfigs.problems + unread.notices()
        var d = units.discovery(folders: [], read: read)
        d.files += xcconfigs.read.filter { !d.files.contains($0) }
        return d
    }

    /// The Tuist root: the nearest folder at or above `folder` holding `Tuist/` (or `tuist/`),
    /// `Tuist.swift` or `Workspace.swift`, within the project root; else `folder`.
    private func tuistRoot(above folder: String, files: ProjectFiles) -> String {
        var current = folder
        for _ in 0..<Self.maxAncestors {
            for marker in ["Tuist", "tuist", "Tuist.swift", "Workspace.swift"] where files.kind(ProjectFiles.join(current, marker)) != .missing {
                return current
            }
            let parent = Paths.directoryName(current)
            if parent == current || files.isOutside(parent) { break }
            current = parent
        }
        return folder
    }

    /// The constants and functions of `Tuist/ProjectDescriptionHelpers/**.swift` below `root`.
    func helpers(root: String, files: ProjectFiles) -> (ManifestDefinitions, [String]) {
        var definitions = ManifestDefinitions()
        var read: [String] = []
        for name in ["Tuist", "tuist"] {
            let folder = ProjectFiles.join(ProjectFiles.join(root, name), "ProjectDescriptionHelpers")
            guard files.kind(folder) == .directory else { continue }
            let swiftFiles = files.walk(folder) { $0.hasSuffix(".swift") }.sorted().prefix(Self.maxHelperFiles)
            for path in swiftFiles {
                guard case .success(let bytes) = files.read(path) else { continue }
                TuistFile(bytes: bytes, shown: files.shown(path)).define(into: &definitions)
                read.append(files.shown(path))
            }
            break
        }
        return (definitions, read)
    }
}
