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

    /// Tokens a manifest may hold; past it, it is not understood (real ones hold a few thousand).
    static let maxTokens = 200_000
    /// Nesting of brackets the parser follows (real manifests: under 10).
    static let maxNesting = 64

    // MARK: Lexer

    enum Token: Equatable {
        case string(String)
        /// A string literal with an interpolation, or a multi-line or raw one: not a literal value.
        case opaqueString
        case identifier(String)
        case punctuation(UInt8)
    }

    /// Nil when the text cannot be split into tokens (an unterminated string or comment) or holds
    /// more than `maxTokens`.
    static func tokens(_ bytes: [UInt8]) -> [Token]? {
        var out: [Token] = []
        var i = 0
        let n = bytes.count
        func isIdentifierByte(_ c: UInt8) -> Bool {
            c == UInt8(ascii: "_") || (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c >= 0x80
        }
        while i < n {
            guard out.count <= maxTokens else { return nil }
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1; continue }
            if c == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "/") {
                while i < n, bytes[i] != 0x0A { i += 1 }
                continue
            }
            if c == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "*") {
                // Swift block comments nest.
                var depth = 0
                while i < n {
                    if bytes[i] == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "*") { depth += 1; i += 2; continue }
                    if bytes[i] == UInt8(ascii: "*"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "/") {
                        depth -= 1
                        i += 2
                        if depth == 0 { break }
                        continue
                    }
                    i += 1
                }
                guard depth == 0 else { return nil }
                continue
            }
            if c == UInt8(ascii: "#"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "\"") {
                return nil   // a raw string: not among the forms read
            }
            if c == UInt8(ascii: "\"") {
                if i + 2 < n, bytes[i + 1] == UInt8(ascii: "\""), bytes[i + 2] == UInt8(ascii: "\"") {
                    return nil   // a multi-line string
                }
                var value: [UInt8] = []
                var opaque = false
                i += 1
                var closed = false
                while i < n {
                    let d = bytes[i]
                    if d == 0x0A { return nil }
                    if d == UInt8(ascii: "\"") { closed = true; i += 1; break }
                    if d == UInt8(ascii: "\\"), i + 1 < n {
                        let e = bytes[i + 1]
                        switch e {
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"): value.append(e)
                        case UInt8(ascii: "n"): value.append(0x0A)
                        case UInt8(ascii: "t"): value.append(0x09)
                        default: opaque = true   // an interpolation or a \u{...} escape
                        }
                        i += 2
                        continue
                    }
                    value.append(d)
                    i += 1
                }
                guard closed else { return nil }
                out.append(opaque ? .opaqueString : .string(String(decoding: value, as: UTF8.self)))
                continue
            }
            if isIdentifierByte(c) {
                let start = i
                while i < n, isIdentifierByte(bytes[i]) { i += 1 }
                out.append(.identifier(String(decoding: bytes[start..<i], as: UTF8.self)))
                continue
            }
            out.append(.punctuation(c))
            i += 1
        }
        return out
    }

    // MARK: Parser

    /// An expression as far as the manifest forms need: anything else is `other`.
    indirect enum Expr {
        case string(String)
        case array([Expr])
        /// `.name(args)` or `A.B.name(args)`: `name` is the last component.
        case call(String, [(label: String?, value: Expr)])
        /// `.name` or an identifier, not called.
        case member(String)
        case other
    }

    struct Parser {
        let tokens: [Token]
        var i = 0
        var depth = 0

        init(_ tokens: [Token]) { self.tokens = tokens }

        var current: Token? { i < tokens.count ? tokens[i] : nil }

        func isPunctuation(_ c: Character) -> Bool {
            if case .punctuation(let p)? = current, p == c.asciiValue { return true }
            return false
        }

        /// Skips a balanced run up to (not including) a `,`, `)` or `]` at this level.
        mutating func skipRest() {
            var level = 0
            while let t = current {
                guard case .punctuation(let p) = t else { i += 1; continue }
                if p == UInt8(ascii: "(") || p == UInt8(ascii: "[") || p == UInt8(ascii: "{") {
                    level += 1
                } else if p == UInt8(ascii: ")") || p == UInt8(ascii: "]") || p == UInt8(ascii: "}") {
                    if level == 0 { return }
                    level -= 1
                } else if p == UInt8(ascii: ","), level == 0 {
                    return
                }
                i += 1
            }
        }

        /// One expression; whatever follows it before the next `,` `)` `]` (an operator, a
        /// method call) makes it `other`.
        mutating func expression() -> Expr {
            depth += 1
            defer { depth -= 1 }
            guard depth <= PackageManifest.maxNesting else { skipRest(); return .other }
            var result = primary()
            if !(isPunctuation(",") || isPunctuation(")") || isPunctuation("]") || current == nil) {
                skipRest()
                result = .other
            }
            return result
        }

        mutating func primary() -> Expr {
            guard let t = current else { return .other }
            switch t {
            case .string(let s):
                i += 1
                return .string(s)
            case .opaqueString:
                i += 1
                return .other
            case .punctuation(let p) where p == UInt8(ascii: "["):
                i += 1
                var items: [Expr] = []
                while current != nil, !isPunctuation("]") {
                    if isPunctuation(":") { skipRest(); return .other }   // a dictionary
                    items.append(expression())
                    if isPunctuation(",") { i += 1 } else if !isPunctuation("]") { skipRest(); return .other }
                }
                guard isPunctuation("]") else { return .other }
                i += 1
                return .array(items)
            case .punctuation(let p) where p == UInt8(ascii: "."):
                i += 1
                guard case .identifier(let name)? = current else { return .other }
                i += 1
                return callOrMember(name)
            case .identifier(var name):
                i += 1
                // A qualified name: `Target.Dependency.product`.
                while isPunctuation("."), i + 1 < tokens.count, case .identifier(let next) = tokens[i + 1] {
                    name = next
                    i += 2
                }
                return callOrMember(name)
            default:
                return .other
            }
        }

        mutating func callOrMember(_ name: String) -> Expr {
            guard isPunctuation("(") else { return .member(name) }
            i += 1
            var args: [(label: String?, value: Expr)] = []
            while current != nil, !isPunctuation(")") {
                var label: String?
                if case .identifier(let l)? = current, i + 1 < tokens.count, tokens[i + 1] == .punctuation(UInt8(ascii: ":")) {
                    label = l
                    i += 2
                }
                args.append((label, expression()))
                if isPunctuation(",") { i += 1 } else if !isPunctuation(")") { skipRest(); return .other }
            }
            guard isPunctuation(")") else { return .other }
            i += 1
            // A trailing closure or a chained call makes the whole expression something else.
            return .call(name, args)
        }
    }

    /// The manifest, or nil when it is not written in the forms read (see the type's comment).
    static func parse(_ bytes: [UInt8]) -> PackageManifest? {
        guard let tokens = tokens(bytes) else { return nil }
        // Conditional compilation, or a later change of the package's lists, makes them unknowable here.
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
        guard let start = packageCall else { return nil }
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
                    guard case .call("package", let a) = item else { return nil }
                    if let path = string(a, "path") {
                        manifest.dependencies.append(PackageDependency(identity: string(a, "name") ?? lastComponent(path), path: path, url: nil))
                    } else if let url = string(a, "url") {
                        manifest.dependencies.append(PackageDependency(identity: string(a, "name") ?? lastComponent(url), path: nil, url: url))
                    } else if let id = string(a, "id") {
                        manifest.dependencies.append(PackageDependency(identity: id, path: nil, url: id))
                    } else {
                        return nil
                    }
                }
            case "targets":
                guard case .array(let items) = value else { return nil }
                for item in items {
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
                    manifest.targets.append(target)
                }
            default:
                continue
            }
        }
        return manifest
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
