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
    static let maxAncestors = 16

    public var name: String { "Tuist projects" }
    public var walkedFiles: FileRecognition { Self.recognised }
    public var projectFiles: FileRecognition { Self.recognised }
    static let recognised = FileRecognition(names: ["Project.swift", "Workspace.swift"])

    /// The manifests of the run: those its walks collected, then those in the folders searched
    /// above the files it names alone (`NamedFiles`), the latter also as `searched` (absolute);
    /// `named`: those files (absolute).
    func manifests(_ request: DiscoveryRequest, files: ProjectFiles) -> (list: [String], searched: Set<String>, named: Set<String>) {
        var list = request.files.filter { Paths.baseName($0) == "Project.swift" && !request.isExcluded($0) }
        var walked = Set(list.map(files.absolute))
        var searched = Set<String>()
        let named = NamedFiles(request, files: files)
        for folder in named.folders {
            let manifest = ProjectFiles.join(folder, "Project.swift")
            guard files.kind(manifest) == .file, !request.isExcluded(manifest), walked.insert(manifest).inserted else { continue }
            list.append(manifest)
            searched.insert(manifest)
        }
        return (Array(list.prefix(Self.maxManifests)), searched, named.paths)
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
        let (list, searched, named) = manifests(request, files: files)
        guard !list.isEmpty else { return Discovery() }
        var units = ManifestUnits(files: files, entitlements: EntitlementsCache(files: files, limits: request.reading.limits))
        units.searched = Set(searched.map(files.shown))
        units.named = named
        let xcconfigs = XCConfigLoader(files: files)
        var helpersOfRoot: [String: (ManifestDefinitions, [String])] = [:]
        var read: [String] = []
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
            let family = files.kind(workspace) == .file ? workspace : files.absolute(manifest)
            var reader = TuistReader(definitions: definitions, manifest: files.shown(manifest), manifestFolder: folder, root: root,
                                     files: files, xcconfigs: xcconfigs, family: family)
            let targets = reader.targets(of: file)
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
    private func helpers(root: String, files: ProjectFiles) -> (ManifestDefinitions, [String]) {
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
