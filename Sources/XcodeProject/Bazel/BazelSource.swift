import EntitlintCore
public import EntitlintWorkspace

/// Bazel workspaces built with rules_apple as a discovery source: each `BUILD` / `BUILD.bazel` a
/// walk collects is read without being run (`BazelFile`), with the `.bzl` files of the same
/// workspace it loads; every rules_apple bundle rule (`ios_application`, `macos_extension`, ...)
/// written there, or in a macro called there with literal arguments, forms a unit per
/// configuration (the branches of its `select()`s), each fact with the line it comes from.
/// Labels are resolved inside the workspace root only (`@repo//` labels are unknown).
/// Bounded: at most `maxBuildFiles` build files and `maxLoadedFiles` loaded files.
public struct BazelSource: DiscoverySource {
    public init() {}
    static let maxBuildFiles = 4096
    static let maxLoadedFiles = 512
    static let maxAncestors = 32

    public var name: String { "Bazel rules_apple targets" }
    public var walkedFiles: FileRecognition { Self.recognised }
    public var projectFiles: FileRecognition { Self.recognised }
    static let recognised = FileRecognition(names: buildFileNames)
    /// `buildFileNames` as bytes: a run's files are matched without building each base name.
    static let buildFileNameBytes = buildFileNames.map { Array($0.utf8) }

    public func discover(_ request: DiscoveryRequest) -> Discovery {
        let files = ProjectFiles(request)
        var buildFiles = request.files.filter { InputFiles.hasBaseName($0, in: Self.buildFileNameBytes) && !request.isExcluded($0) }
        let named = NamedFiles(request, files: files)
        let searched = self.searched(named, besides: Set(buildFiles.map(files.absolute)), request: request, files: files)
        buildFiles = Array((buildFiles + searched).prefix(Self.maxBuildFiles))
        guard !buildFiles.isEmpty else { return Discovery() }
        var units = ManifestUnits(files: files, entitlements: EntitlementsCache(files: files, limits: request.reading.limits))
        units.searched = Set(searched.map(files.shown))
        units.named = named.paths
        var loader = BazelLoader(files: files)
        var read: [String] = []
        var all: [ManifestTarget] = []
        for path in buildFiles {
            // A build file naming no rules_apple rule or macro is not read further.
            guard case .success(let bytes) = files.read(path), Self.mayDefineBundles(bytes) else { continue }
            let file = BazelFile(bytes: bytes, shown: files.shown(path))
            let package = files.absolute(Paths.directoryName(path))
            let root = workspaceRoot(above: package, files: files)
            var reader = BazelReader(file: file, package: package, root: root, files: files)
            reader.definitions = loader.definitions(for: file, package: package, root: root)
            let targets = reader.targets()
            units.problems += reader.notes
            if !targets.isEmpty { read.append(file.shown) }
            all += targets
        }
        // Hosts and extensions may sit in different packages: all targets are formed together.
        units.add(all)
        return units.discovery(folders: [], read: read)
    }

    static let buildFileNames = ["BUILD", "BUILD.bazel"]

    /// The build files (absolute) of the packages at and above each file named alone, up to its
    /// workspace root (included), those of a file with no workspace root above it left out: the
    /// package holding the file, and those above it, are where a rule names it (`:App.entitlements`,
    /// `sub/App.entitlements`). Not those already walked (`walked`, absolute).
    private func searched(_ named: NamedFiles, besides walked: Set<String>, request: DiscoveryRequest, files: ProjectFiles) -> [String] {
        var out: [String] = []
        var seen = walked
        for chain in named.chains {
            guard let root = chain.firstIndex(where: { isWorkspaceRoot($0, files: files) }) else { continue }
            for folder in chain[...root] {
                for name in Self.buildFileNames {
                    let path = ProjectFiles.join(folder, name)
                    if files.kind(path) == .file, !request.isExcluded(path), seen.insert(path).inserted { out.append(path) }
                }
            }
        }
        return out
    }

    private func isWorkspaceRoot(_ folder: String, files: ProjectFiles) -> Bool {
        Self.rootMarkers.contains { files.kind(ProjectFiles.join(folder, $0)) == .file }
    }

    static let rootMarkers = ["MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel", "REPO.bazel"]

    /// Whether the bytes may call a bundle rule: they hold `_application`, `_extension`,
    /// `_app_clip`, `_bundle`, `_xpc_service`, or `load(` (a macro).
    static func mayDefineBundles(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return ["_application", "_extension", "_app_clip", "_bundle", "_xpc_service", "load("].contains { text.contains($0) }
    }

    /// The workspace root: the nearest folder at or above `package` holding `MODULE.bazel`,
    /// `WORKSPACE`, `WORKSPACE.bazel` or `REPO.bazel`, within the project root; nil when none is.
    private func workspaceRoot(above package: String, files: ProjectFiles) -> String? {
        var current = package
        for _ in 0..<Self.maxAncestors {
            if isWorkspaceRoot(current, files: files) { return current }
            let parent = Paths.directoryName(current)
            if parent == current || files.isOutside(parent) { break }
            current = parent
        }
        return nil
    }
}

/// Reads the `.bzl` files build files load, once each, for the constants and macros they export.
struct BazelLoader {
    let files: ProjectFiles
    private var cache: [String: BazelFile] = [:]
    private var count = 0

    init(files: ProjectFiles) { self.files = files }

    /// The constants and macros `file` defines or loads from files of its workspace.
    mutating func definitions(for file: BazelFile, package: String, root: String?) -> ManifestDefinitions {
        var definitions = ManifestDefinitions()
        for load in file.loads {
            guard let path = BazelReader.resolve(label: load.label, package: package, root: root, files: files) else { continue }
            if cache[path] == nil {
                guard count < BazelSource.maxLoadedFiles, case .success(let bytes) = files.read(path) else { continue }
                count += 1
                cache[path] = BazelFile(bytes: bytes, shown: files.shown(path))
            }
            cache[path]!.define(into: &definitions, only: load.symbols)
        }
        file.define(into: &definitions)
        return definitions
    }
}
