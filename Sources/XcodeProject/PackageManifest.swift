import EntitlintCore

/// What a local Swift package's `Package.swift` declares, read by a small lexer of the literal
/// forms manifests are written in; Swift is never evaluated. Understood: `Package(name:, products:,
/// dependencies:, targets:)` with array literals of `.library` / `.executable` products (`name:`,
/// `targets:` as string literals), `.package(path:)`, `.package(name:, path:)`, `.package(url:, ...)`
/// dependencies, and `.target`, `.executableTarget`, `.testTarget` (and the kinds that compile no
/// code of the unit: `.plugin`, `.macro`, `.systemLibrary`, `.binaryTarget`) with `name:`,
/// `dependencies:` (strings, `.target(name:)`, `.byName(name:)`, `.product(name:, package:)`),
/// `path:`, `sources:`, `exclude:`.
///
/// Anything else in those places (a variable, a computed list, `+`, `.map`, `#if`, string
/// interpolation, a later `package.targets.append`) makes the whole manifest not understood
/// (`parse` returns nil): what the package builds is then unknown, never guessed.
struct PackageManifest: Sendable {
    struct Product: Sendable { var name: String; var targets: [String] }
    enum Dependency: Sendable, Hashable {
        /// A bare string or `.byName(name:)`: a target of the package, else a product of that name.
        case byName(String)
        case target(String)
        case product(name: String, package: String)
    }
    struct Target: Sendable {
        var name: String
        /// `target`, `executableTarget`, `testTarget`, `plugin`, `macro`, `systemLibrary`, `binaryTarget`.
        var kind: String
        var path: String?
        var sources: [String]?
        var exclude: [String]
        var dependencies: [Dependency]
    }
    struct PackageDependency: Sendable {
        /// The name `.product(package:)` uses: `name:`, else the last component of the path or URL
        /// (without `.git`).
        var identity: String
        var path: String?
        var url: String?
    }

    var products: [Product] = []
    var targets: [Target] = []
    var dependencies: [PackageDependency] = []
    /// The first product, target and dependency of each name (identity lower-cased), as
    /// `first(where:)` would find them: a lookup per name, not a pass over the lists.
    private var productIndex: [String: Int] = [:]
    private var targetIndex: [String: Int] = [:]
    private var dependencyIndex: [String: Int] = [:]

    func product(named name: String) -> Product? { productIndex[name].map { products[$0] } }
    func target(named name: String) -> Target? { targetIndex[name].map { targets[$0] } }
    func dependency(identity: String) -> PackageDependency? { dependencyIndex[identity.lowercased()].map { dependencies[$0] } }

    /// Builds the lookups once the lists are read.
    mutating func index() {
        for (i, p) in products.enumerated() where productIndex[p.name] == nil { productIndex[p.name] = i }
        for (i, t) in targets.enumerated() where targetIndex[t.name] == nil { targetIndex[t.name] = i }
        for (i, d) in dependencies.enumerated() where dependencyIndex[d.identity.lowercased()] == nil { dependencyIndex[d.identity.lowercased()] = i }
    }

    /// Tokens a manifest may hold; past it, it is not understood (real ones hold a few thousand).
    static let maxTokens = 200_000
    /// Nesting of brackets the parser follows (real manifests: under 10).
    static let maxNesting = 64

    /// The manifest, or nil when it is not written in the forms read (see the type's comment).
    static func parse(_ bytes: [UInt8]) -> PackageManifest? {
        guard let tokens = tokens(bytes) else { return nil }
        guard let start = packageCall(in: tokens) else { return nil }
        var parser = Parser(tokens)
        parser.i = start
        guard case .call(_, let args) = parser.primary() else { return nil }
        var manifest = PackageManifest()
        for (label, value) in args {
            switch label {
            case "products":
                guard case .array(let items) = value else { return nil }
                for item in items {
                    guard case .call(let kind, let a) = item else { return nil }
                    guard ["library", "executable", "plugin"].contains(kind) else { return nil }
                    guard let name = string(a, "name"), let targets = strings(a, "targets") else { return nil }
                    if kind != "plugin" { manifest.products.append(Product(name: name, targets: targets)) }
                }
            case "dependencies":
                guard case .array(let items) = value else { return nil }
                for item in items {
                    guard let dependency = packageDependency(item) else { return nil }
                    manifest.dependencies.append(dependency)
                }
            case "targets":
                guard case .array(let items) = value else { return nil }
                for item in items {
                    guard let target = targetDeclaration(item) else { return nil }
                    manifest.targets.append(target)
                }
            default:
                continue
            }
        }
        manifest.index()
        return manifest
    }

    /// Where `Package(` is called; nil when it is not, or when conditional compilation or a later
    /// change of the package's lists makes them unknowable here.
    static func packageCall(in tokens: [Token]) -> Int? {
        var packageCall: Int?
        for (k, t) in tokens.enumerated() {
            if case .punctuation(let p) = t, p == UInt8(ascii: "#") { return nil }
            if case .identifier(let name) = t {
                if name == "Package", packageCall == nil, k + 1 < tokens.count, tokens[k + 1] == .punctuation(UInt8(ascii: "(")) {
                    packageCall = k
                }
                if name == "package", k + 2 < tokens.count, tokens[k + 1] == .punctuation(UInt8(ascii: ".")),
                   case .identifier(let field) = tokens[k + 2], ["targets", "products", "dependencies"].contains(field),
                   k + 3 < tokens.count, tokens[k + 3] != .punctuation(UInt8(ascii: ")")) {
                    // `package.targets.append(...)`, `package.targets += ...`; a loop reading
                    // `package.targets` (`for t in package.targets {`) changes settings only.
                    if case .punctuation(let p) = tokens[k + 3], p == UInt8(ascii: "{") { continue }
                    if case .identifier("where") = tokens[k + 3] { continue }
                    return nil
                }
            }
        }
        return packageCall
    }

    /// One `.package(...)` of `dependencies:`; nil when it is not in the forms read.
    static func packageDependency(_ item: Expr) -> PackageDependency? {
        guard case .call("package", let a) = item else { return nil }
        if let path = string(a, "path") {
            return PackageDependency(identity: string(a, "name") ?? lastComponent(path), path: path, url: nil)
        } else if let url = string(a, "url") {
            return PackageDependency(identity: string(a, "name") ?? lastComponent(url), path: nil, url: url)
        } else if let id = string(a, "id") {
            return PackageDependency(identity: id, path: nil, url: id)
        }
        return nil
    }

    /// One target of `targets:` (`.target`, `.executableTarget`, `.testTarget` and the kinds that
    /// compile no code of the unit); nil when it is not in the forms read.
    static func targetDeclaration(_ item: Expr) -> Target? {
        guard case .call(let kind, let a) = item,
              ["target", "executableTarget", "testTarget", "plugin", "macro", "systemLibrary", "binaryTarget"].contains(kind),
              let name = string(a, "name") else { return nil }
        var target = Target(name: name, kind: kind, path: nil, sources: nil, exclude: [], dependencies: [])
        for (l, v) in a {
            switch l {
            case "path":
                guard case .string(let s) = v else { return nil }
                target.path = s
            case "sources":
                guard let list = stringList(v) else { return nil }
                target.sources = list
            case "exclude":
                guard let list = stringList(v) else { return nil }
                target.exclude = list
            case "dependencies":
                guard case .array(let deps) = v else { return nil }
                for d in deps {
                    switch d {
                    case .string(let s): target.dependencies.append(.byName(s))
                    case .call("target", let da):
                        guard let n = string(da, "name") else { return nil }
                        target.dependencies.append(.target(n))
                    case .call("byName", let da):
                        guard let n = string(da, "name") else { return nil }
                        target.dependencies.append(.byName(n))
                    case .call("product", let da):
                        guard let n = string(da, "name"), let p = string(da, "package") else { return nil }
                        target.dependencies.append(.product(name: n, package: p))
                    default: return nil
                    }
                }
            default: continue
            }
        }
        return target
    }

    static func string(_ args: [(label: String?, value: Expr)], _ label: String) -> String? {
        guard let e = args.first(where: { $0.label == label }), case .string(let s) = e.value else { return nil }
        return s
    }

    static func strings(_ args: [(label: String?, value: Expr)], _ label: String) -> [String]? {
        guard let e = args.first(where: { $0.label == label }) else { return nil }
        return stringList(e.value)
    }

    static func stringList(_ e: Expr) -> [String]? {
        guard case .array(let items) = e else { return nil }
        var out: [String] = []
        for item in items {
            guard case .string(let s) = item else { return nil }
            out.append(s)
        }
        return out
    }

    /// `../Shared/Keychain` -> `Keychain`; `https://github.com/a/KeychainAccess.git` -> `KeychainAccess`.
    static func lastComponent(_ s: String) -> String {
        var base = Paths.baseName(s)
        if base.hasSuffix(".git") { base = String(base.dropLast(4)) }
        return base
    }
}
