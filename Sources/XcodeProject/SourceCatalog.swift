import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// Finds the files units compile, once per run: each target's list is made once for all its
/// configurations, each folder is walked once, each `Package.swift` read once and each package
/// product's files listed once, whichever targets link it.
///
/// Confinement: a path that resolves outside the project root (`..`, an absolute path, a symlink)
/// is listed as missing and never read or walked; walks follow no symlinked folder and only the
/// symlinked files that resolve inside the root; a walk is bounded as every walk of the run is.
/// Bounds: `maxFiles` files per unit, `maxPackageDepth` levels of local packages; per run,
/// `maxPackages` manifests, `maxManifestBytes` bytes of them and `maxPackageTargets` package
/// targets listed (each manifest is read and each product listed once, however many units use
/// it); `maxInfoPlistEntries` entries of `maxInfoPlistValue` bytes. A run-wide budget spent is
/// never silent: the units whose code it leaves unread say so (their code is not complete), and
/// the run has one notice per budget naming where it stopped (`notices()`).
final class SourceCatalog: @unchecked Sendable {
    /// What `SourceLanguage` reads: Swift, and Objective-C, C and C++ (lower case, as projects name them).
    static let codeExtensions = [".swift", ".m", ".mm", ".h", ".c", ".cc", ".cpp", ".cxx", ".hpp", ".hh"]
    static let maxFiles = 100_000
    static let maxPackageDepth = 16
    static let maxPackages = 1_000
    /// Bytes of `Package.swift` files one run reads: real manifests are a few KiB each.
    static let maxManifestBytes = 32 << 20
    /// Package targets one run lists (each product's are listed once and kept).
    static let maxPackageTargets = 100_000
    static let maxInfoPlistEntries = 1_000
    static let maxInfoPlistValue = 4_096

    /// The run-wide budgets (the defaults above; smaller in tests).
    struct Budgets: Sendable {
        var packages = SourceCatalog.maxPackages
        var manifestBytes = SourceCatalog.maxManifestBytes
        var targets = SourceCatalog.maxPackageTargets
    }
    let budgets: Budgets
    var targetBudgetText: String { "Swift package targets: more than \(budgets.targets) listed in the run (limit SourceCatalog.maxPackageTargets)" }

    let files: ProjectFiles
    /// Files found by walking each folder (code files; `Package.swift@`-keyed: manifests).
    var walks: [String: [String]] = [:]
    /// By package folder as written (normalised, usable from the current folder).
    private var manifests: [String: ManifestResult] = [:]
    private var products: [String: CodeList] = [:]
    private var inProgress = Set<String>()
    private(set) var targets: [String: CodeList] = [:]
    /// Folders walked and manifests read: work done, for the tests of the cost.
    private(set) var walked = 0
    private(set) var manifestsRead = 0
    private(set) var manifestBytes = 0
    private(set) var targetsListed = 0
    /// The run-wide budgets spent, each with the file where it stopped (as shown), for `notices()`.
    private var spent: [(text: String, file: String)] = []

    /// One notice per run-wide budget spent: the units whose code lies past it are not fully checked.
    func notices() -> [ProjectProblem] {
        spent.map { s in
            var p = ProjectProblem(file: s.file, location: .unknown,
                                   message: "\(s.text): the code of the package targets past it is not scanned, so the code rules are silent on the units that link them",
                                   severity: .note)
            p.isNotice = true
            return p
        }
    }

    private func spend(_ text: String, at file: String) {
        if !spent.contains(where: { $0.text == text }) { spent.append((text, file)) }
    }

    /// Counts one package target of the package in `folder` against the run's budget; false
    /// (and the budget recorded as spent) past it.
    func spendTarget(_ folder: String) -> Bool {
        guard targetsListed < budgets.targets else {
            spend(targetBudgetText, at: files.shown(ProjectFiles.join(folder, "Package.swift")))
            return false
        }
        targetsListed += 1
        return true
    }

    init(files: ProjectFiles, budgets: Budgets = Budgets()) {
        self.files = files
        self.budgets = budgets
    }

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
        } else if manifestsRead >= budgets.packages {
            let text = "Package.swift manifests: more than \(budgets.packages) packages in the run (limit SourceCatalog.maxPackages)"
            spend(text, at: files.shown(path))
            result = .notUnderstood("Package.swift of \(files.shown(folder)): \(text)")
        } else if manifestBytes >= budgets.manifestBytes {
            let text = "Package.swift manifests: more than \(budgets.manifestBytes) bytes of them in the run (limit SourceCatalog.maxManifestBytes)"
            spend(text, at: files.shown(path))
            result = .notUnderstood("Package.swift of \(files.shown(folder)): \(text)")
        } else {
            manifestsRead += 1
            var parsed: PackageManifest?
            var over = false
            if case .success(let bytes) = files.read(path) {
                // Charged whole: a manifest that takes the total past the budget is not parsed.
                manifestBytes += bytes.count
                over = manifestBytes > budgets.manifestBytes
                if !over { parsed = PackageManifest.parse(bytes) }
            }
            if over {
                let text = "Package.swift manifests: more than \(budgets.manifestBytes) bytes of them in the run (limit SourceCatalog.maxManifestBytes)"
                spend(text, at: files.shown(path))
                result = .notUnderstood("Package.swift of \(files.shown(folder)): \(text)")
            } else {
                result = parsed.map { .found($0) } ?? .notUnderstood("Package.swift of \(files.shown(folder)): not understood")
            }
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
            if let p = m.product(named: product) {
                list = targets(p.targets, of: m, in: folder, depth: depth)
            } else if m.target(named: product) != nil {
                list = targets([product], of: m, in: folder, depth: depth)
            } else {
                list.addUnscanned("Swift package product \(product): not declared by Package.swift of \(files.shown(folder))")
            }
        }
        products[key] = list
        return list
    }
}
