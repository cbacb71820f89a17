import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// What one target of an Xcode project compiles, as its `project.pbxproj` lists it (paths usable
/// from the current folder, not yet checked on disk).
struct TargetCode: Sendable {
    /// Files of its sources build phases with a code extension, located through the group tree.
    var files: [String] = []
    /// Its file-system synchronised folders (Xcode 16).
    var folders: [String] = []
    /// The Swift package products it links.
    var products: [PackageProductReference] = []
    /// A `[CP]` build phase: CocoaPods builds part of what it links.
    var cocoaPods = false
    /// Source files whose place cannot be known (a group cycle, groups nested too deep), by name.
    var unlocatable: [String] = []
    /// IDs of the targets whose products its frameworks and copy-files phases name, in phase order.
    var linkedTargets: [String] = []
}

struct PackageProductReference: Sendable, Hashable {
    enum Package: Sendable, Hashable {
        /// The package folder, usable from the current folder.
        case local(String)
        /// The remote package's name (the last component of its URL).
        case remote(String)
        /// A product whose package the project does not name (a package of the workspace, or one
        /// added as a folder reference).
        case unnamed
    }
    var product: String
    var package: Package
}

/// The code one unit's target compiles, before the per-unit parts (the Info.plist, the base
/// configuration) are added; shared by every configuration of the target.
struct CodeList: Sendable {
    var files: [String] = []
    private(set) var missing: [String] = []
    private(set) var unscanned: [String] = []
    /// What `missing` and `unscanned` hold, so that adding one is not a search of the list.
    private var listed = Set<String>()

    init(files: [String] = [], missing: [String] = [], unscanned: [String] = []) {
        self.files = files
        for m in missing { addMissing(m) }
        for u in unscanned { addUnscanned(u) }
    }

    mutating func addMissing(_ shown: String) {
        if listed.insert("m" + shown).inserted { missing.append(shown) }
    }

    mutating func addUnscanned(_ what: String) {
        if listed.insert("u" + what).inserted { unscanned.append(what) }
    }

    /// Adds `other`'s entries not already listed, keeping the order.
    mutating func append(_ other: CodeList, seen: inout Set<String>) {
        for f in other.files where seen.insert(f).inserted { files.append(f) }
        for m in other.missing { addMissing(m) }
        for u in other.unscanned { addUnscanned(u) }
    }
}

/// Absolute paths of files and folders left out: a path is excluded when it or one of its parent
/// folders is listed (one lookup per path component, whatever the number of exclusions).
struct Exclusions {
    let paths: Set<String>
    init(_ paths: [String]) { self.paths = Set(paths) }

    func excludes(_ path: String) -> Bool {
        guard !paths.isEmpty else { return false }
        var p = Substring(path)
        while true {
            if paths.contains(String(p)) { return true }
            guard let slash = p.lastIndex(of: "/"), slash != p.startIndex else { return false }
            p = p[..<slash]
        }
    }
}

/// Finds the files units compile, once per run: each target's list is made once for all its
/// configurations, each folder is walked once, each `Package.swift` read once and each package
/// product's files listed once, whichever targets link it.
///
/// Confinement: a path that resolves outside the project root (`..`, an absolute path, a symlink)
/// is listed as missing and never read or walked; walks follow no symlinked folder and only the
/// symlinked files that resolve inside the root; a walk is bounded as every walk of the run is.
/// Bounds: `maxFiles` files per unit, `maxPackageDepth` levels of local packages, `maxPackages`
/// manifests per run, `maxInfoPlistEntries` entries of `maxInfoPlistValue` bytes.
final class SourceCatalog: @unchecked Sendable {
    static let codeExtensions = [".swift", ".m", ".mm", ".h"]
    static let maxFiles = 100_000
    static let maxPackageDepth = 16
    static let maxPackages = 1_000
    static let maxPackageTargets = 10_000
    static let maxInfoPlistEntries = 1_000
    static let maxInfoPlistValue = 4_096

    let files: ProjectFiles
    private var walks: [String: [String]] = [:]
    /// By package folder as written (normalised, usable from the current folder).
    private var manifests: [String: ManifestResult] = [:]
    private var products: [String: CodeList] = [:]
    private var inProgress = Set<String>()
    private(set) var targets: [String: CodeList] = [:]
    /// Folders walked and manifests read: work done, for the tests of the cost.
    private(set) var walked = 0
    private(set) var manifestsRead = 0

    init(files: ProjectFiles) { self.files = files }

    static func isCode(_ path: String) -> Bool { codeExtensions.contains { path.hasSuffix($0) } }

    /// The list of `key` (a target), made by `make` the first time.
    func target(_ key: String, _ make: () -> CodeList) -> CodeList {
        if let known = targets[key] { return known }
        var list = make()
        if list.files.count > Self.maxFiles {
            list.files.removeSubrange(Self.maxFiles...)
            list.addUnscanned("more than \(Self.maxFiles) source files")
        }
        targets[key] = list
        return list
    }

    /// Listed files -> their absolute path when on disk inside the root, else how a missing one
    /// is shown: many targets of a project list the same files, and each is looked at once.
    private var known: [String: (found: Bool, path: String)] = [:]

    /// One listed file: absolute when on disk inside the root, else missing (as shown). Whether
    /// it exists is asked first: a file that is not there is missing wherever it would be, and
    /// resolving the symlinks of a path that does not exist costs a call per component.
    func add(file path: String, to list: inout CodeList, seen: inout Set<String>) {
        let status: (found: Bool, path: String)
        if let k = known[path] {
            status = k
        } else {
            status = files.kind(path) == .file && !files.isOutside(path) ? (true, files.absolute(path)) : (false, files.shown(path))
            known[path] = status
        }
        guard status.found else { return list.addMissing(status.path) }
        if seen.insert(status.path).inserted { list.files.append(status.path) }
    }

    /// The code files below `folder` (absolute paths, sorted), without those `excluded` (absolute
    /// paths of files or folders) and those `keep` refuses (relative to the folder); the folder
    /// itself missing or outside the root is listed as missing.
    func add(folder: String, excluded: Exclusions = Exclusions([]), keep: ((String) -> Bool)? = nil, to list: inout CodeList, seen: inout Set<String>) {
        guard files.kind(folder) == .directory, !files.isOutside(folder) else { return list.addMissing(files.shown(folder)) }
        let abs = files.absolute(folder)
        let found: [String]
        if let known = walks[abs] {
            found = known
        } else {
            walked += 1
            found = files.walk(abs, accept: Self.isCode).map(files.absolute)
            walks[abs] = found
        }
        let prefix = abs.hasSuffix("/") ? abs : abs + "/"
        for f in found {
            if excluded.excludes(f) { continue }
            if let keep, !keep(String(f.dropFirst(prefix.count))) { continue }
            if seen.insert(f).inserted { list.files.append(f) }
        }
    }

    // MARK: Swift packages

    /// The manifest of the package in `folder`, with why it is not known.
    enum ManifestResult { case found(PackageManifest), missing(String), notUnderstood(String) }

    func manifest(_ folder: String) -> ManifestResult {
        if let known = manifests[folder] { return known }
        let path = ProjectFiles.join(folder, "Package.swift")
        let result: ManifestResult
        if files.kind(path) != .file || files.isOutside(folder) || files.isOutside(path) {
            result = .missing(files.shown(path))
        } else if manifestsRead >= Self.maxPackages {
            result = .notUnderstood("Package.swift of \(files.shown(folder)): more than \(Self.maxPackages) packages in the run")
        } else {
            manifestsRead += 1
            var parsed: PackageManifest?
            if case .success(let bytes) = files.read(path) { parsed = PackageManifest.parse(bytes) }
            result = parsed.map { .found($0) } ?? .notUnderstood("Package.swift of \(files.shown(folder)): not understood")
        }
        manifests[folder] = result
        return result
    }

    /// The files `product` of the local package in `folder` compiles, with those of the targets
    /// and local packages it depends on.
    func product(_ product: String, package folder: String, depth: Int = 0) -> CodeList {
        let key = files.absolute(folder) + "|" + product
        if let known = products[key] { return known }
        guard depth < Self.maxPackageDepth, inProgress.insert(key).inserted else {
            // A cycle of packages (SwiftPM refuses one) or a chain too deep: what lies past it is unknown.
            return CodeList(unscanned: ["Swift package product \(product) of \(files.shown(folder)): dependencies nested more than \(Self.maxPackageDepth) levels deep or in a cycle"])
        }
        defer { inProgress.remove(key) }
        var list = CodeList()
        switch manifest(folder) {
        case .missing(let shown): list.addMissing(shown)
        case .notUnderstood(let why): list.addUnscanned(why)
        case .found(let m):
            if let p = m.products.first(where: { $0.name == product }) {
                list = targets(p.targets, of: m, in: folder, depth: depth)
            } else if m.targets.contains(where: { $0.name == product }) {
                list = targets([product], of: m, in: folder, depth: depth)
            } else {
                list.addUnscanned("Swift package product \(product): not declared by Package.swift of \(files.shown(folder))")
            }
        }
        products[key] = list
        return list
    }

    /// The files of `names` and of the targets they depend on, transitively.
    func targets(_ names: [String], of m: PackageManifest, in folder: String, depth: Int) -> CodeList {
        var list = CodeList()
        var seen = Set<String>()
        var queue = names
        var visited = Set<String>()
        var k = 0
        while k < queue.count, visited.count < Self.maxPackageTargets {
            let name = queue[k]
            k += 1
            guard visited.insert(name).inserted else { continue }
            guard let t = m.targets.first(where: { $0.name == name }) else {
                list.addUnscanned("Swift package target \(name): not declared by Package.swift of \(files.shown(folder))")
                continue
            }
            switch t.kind {
            case "testTarget", "plugin", "macro", "systemLibrary": continue
            case "binaryTarget":
                list.addUnscanned("binary target \(name) of \(files.shown(folder))")
                continue
            default: break
            }
            targetFiles(t, in: folder, to: &list, seen: &seen)
            for d in t.dependencies {
                switch d {
                case .target(let n): queue.append(n)
                case .byName(let n):
                    if m.targets.contains(where: { $0.name == n }) {
                        queue.append(n)
                    } else {
                        list.append(dependency(product: n, package: n, of: m, in: folder, depth: depth), seen: &seen)
                    }
                case .product(let n, let p):
                    list.append(dependency(product: n, package: p, of: m, in: folder, depth: depth), seen: &seen)
                }
            }
        }
        return list
    }

    /// A product of another package that a target of `m` depends on.
    func dependency(product: String, package: String, of m: PackageManifest, in folder: String, depth: Int) -> CodeList {
        guard let dep = m.dependencies.first(where: { $0.identity.lowercased() == package.lowercased() }) else {
            return CodeList(unscanned: ["Swift package product \(product): its package \(package) is not among the dependencies of Package.swift of \(files.shown(folder))"])
        }
        guard let path = dep.path else { return CodeList(unscanned: ["remote Swift package \(dep.identity)"]) }
        return self.product(product, package: ProjectFiles.normalize(ProjectFiles.join(folder, path)), depth: depth + 1)
    }

    /// A package target's files: its folder (`path:`, else `Sources/<name>` or SwiftPM's other
    /// default folders), narrowed to `sources:`, without `exclude:`.
    func targetFiles(_ t: PackageManifest.Target, in folder: String, to list: inout CodeList, seen: inout Set<String>) {
        var root: String
        if let path = t.path {
            root = ProjectFiles.normalize(ProjectFiles.join(folder, path))
        } else {
            let defaults = (t.kind == "testTarget" ? ["Tests"] : ["Sources", "Source", "src", "srcs"])
                .map { ProjectFiles.normalize(ProjectFiles.join(folder, $0 + "/" + t.name)) }
            root = defaults.first { !files.isOutside($0) && files.kind($0) == .directory } ?? defaults[0]
        }
        let excluded = Exclusions(t.exclude.map { files.absolute(ProjectFiles.normalize(ProjectFiles.join(root, $0))) })
        guard let sources = t.sources else {
            add(folder: root, excluded: excluded, to: &list, seen: &seen)
            return
        }
        for s in sources {
            let p = ProjectFiles.normalize(ProjectFiles.join(root, s))
            if files.kind(p) == .directory, !files.isOutside(p) {
                add(folder: p, excluded: excluded, to: &list, seen: &seen)
            } else if Self.isCode(p) {
                if !excluded.excludes(files.absolute(p)) { add(file: p, to: &list, seen: &seen) }
            }
        }
    }

    // MARK: Info.plist

    /// The Info.plist at `path` (usable from the current folder), read through `cache`: its
    /// string entries at the root, each evaluated with `evaluate` (nil: left out), at most
    /// `maxInfoPlistEntries` of at most `maxInfoPlistValue` bytes. Nil when it cannot be read.
    static func infoPlist(_ document: PlistDocument, evaluate: (String) -> String?) -> [String: String] {
        guard let dict = document.root.dict else { return [:] }
        var out: [String: String] = [:]
        for entry in dict.entries.prefix(maxInfoPlistEntries) {
            guard let s = entry.value.string, s.utf8.count <= maxInfoPlistValue, entry.key.utf8.count <= maxInfoPlistValue else { continue }
            if !s.utf8.contains(UInt8(ascii: "$")) {
                out[entry.key] = s
            } else if let v = evaluate(s), v.utf8.count <= maxInfoPlistValue {
                out[entry.key] = v
            }
        }
        return out
    }

    /// `text` with its build-setting references expanded by `settings`; `$(AppIdentifierPrefix)`
    /// and `$(TeamIdentifierPrefix)` stay as written (no level sets them); nil when a reference
    /// cannot be resolved (a cycle, an unreadable xcconfig below it, an unsupported operator).
    static func evaluate(_ text: String, settings: SettingsEvaluator) -> String? {
        let part = settings.expand(text, setting: "", index: settings.entries.count, depth: 0)
        return part.problem == nil ? part.text : nil
    }
}

extension SourceCatalog {
    /// The unit's Info.plist, `path` usable from the current folder: its evaluated entries, or
    /// the file listed as missing when it is not on disk (or outside the root).
    func addInfoPlist(_ path: String, entitlements: EntitlementsCache, settings: SettingsEvaluator, to sources: inout UnitSources) {
        guard files.kind(path) == .file, !files.isOutside(path) else {
            // Not a code file: it cannot already be among the target's missing files.
            sources.missing.append(files.shown(path))
            return
        }
        guard case .success(let document) = entitlements.document(path) else { return }
        sources.infoPlistPath = files.shown(path)
        sources.infoPlist = Self.infoPlist(document) { Self.evaluate($0, settings: settings) }
    }
}
