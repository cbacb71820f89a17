/// Expands the build variables Xcode substitutes in entitlements (keychain-access-groups.md section 2):
/// `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` (with their trailing dot),
/// `$(PRODUCT_BUNDLE_IDENTIFIER)`, `$(CFBundleIdentifier)`, `$(DEVELOPMENT_TEAM)`, in both the
/// `$(X)` and `${X}` forms, plus any user-supplied variables.
///
/// A variable whose value is not known is never guessed: it stays in the text as written.
/// The standard ones are then *symbolic* (Xcode will fill them in, correct by construction);
/// any other is *unresolved* (a defect: nothing will fill it in, or we cannot check it).
/// Template placeholders left by generators (`{{VAR}}`, `###VAR###`) are always unresolved.
public struct VariableExpander: Sendable {
    public static let standardNames: Set<String> = [
        "AppIdentifierPrefix", "TeamIdentifierPrefix", "PRODUCT_BUNDLE_IDENTIFIER", "CFBundleIdentifier", "DEVELOPMENT_TEAM",
    ]

    public var values: [String: String] {
        didSet { table = Self.table(values) }
    }
    /// `values` as (name bytes, value) pairs: a handful, searched linearly without hashing.
    private(set) var table: [([UInt8], String)]
    /// The standard names as byte arrays, with their (immortal) literal strings.
    static let standardTable: [([UInt8], String)] = [
        "AppIdentifierPrefix", "TeamIdentifierPrefix", "PRODUCT_BUNDLE_IDENTIFIER", "CFBundleIdentifier", "DEVELOPMENT_TEAM",
    ].map { (Array($0.utf8), $0) }

    static func table(_ values: [String: String]) -> [([UInt8], String)] {
        values.sorted { $0.key < $1.key }.map { (Array($0.key.utf8), $0.value) }
    }

    public init(appIDPrefix: String?, teamID: String?, bundleID: String?, extra: [String: String] = [:]) {
        var v = extra
        if let appIDPrefix { v["AppIdentifierPrefix"] = appIDPrefix + "." }
        if let teamID {
            v["TeamIdentifierPrefix"] = teamID + "."
            v["DEVELOPMENT_TEAM"] = teamID
        }
        if let bundleID {
            v["PRODUCT_BUNDLE_IDENTIFIER"] = bundleID
            v["CFBundleIdentifier"] = bundleID
        }
        values = v
        table = Self.table(v)
    }

    public struct Reference: Sendable, Hashable {
        public enum Form: UInt8, Sendable, Hashable { case parens, braces, doubleBraces, hashes }
        public var name: String
        public var form: Form
        /// UTF-8 byte offset in the original string.
        public var offset: Int
        /// UTF-8 length of the reference as written.
        public var length: Int

        public init(text: String, name: String, isTemplate: Bool, offset: Int) {
            self.name = name
            self.offset = offset
            self.length = text.utf8.count
            if text.hasPrefix("$(") { form = .parens } else if text.hasPrefix("${") { form = .braces }
            else if text.hasPrefix("{{") { form = .doubleBraces } else { form = .hashes }
        }

        init(name: String, form: Form, offset: Int, length: Int) {
            self.name = name
            self.form = form
            self.offset = offset
            self.length = length
        }

        /// The reference in its written form: `$(X)`, `${X}`, `{{X}}`, `###X###`.
        public var text: String { written }
        public var written: String {
            switch form {
            case .parens: return "$(" + name + ")"
            case .braces: return "${" + name + "}"
            case .doubleBraces: return "{{" + name + "}}"
            case .hashes: return "###" + name + "###"
            }
        }
        public var isTemplate: Bool { form == .doubleBraces || form == .hashes }
    }

    public struct Result: Sendable, Hashable {
        public var text: String
        /// Standard variables left as written because their value is unknown.
        public var symbolic: [Reference]
        /// Unknown variables and template placeholders.
        public var unresolved: [Reference]
        public var isConcrete: Bool { symbolic.isEmpty && unresolved.isEmpty }
    }

    /// Every variable reference in `s`, in order. Scans UTF-8 bytes: every delimiter is ASCII.
    /// The value of a reference's name, applying Xcode's operators `:default=V`, `:lower`,
    /// `:upper`, `:rfc1034identifier` and `:identifier`; nil when unknown.
    func value(of name: String) -> String? {
        if !name.containsASCII(":") { return values[name] }
        let parts = name.split(separator: ":", maxSplits: 1)
        let base = String(parts.first ?? "")
        var v = values[base]
        guard parts.count == 2 else { return v }
        for op in parts[1].split(separator: ",") {
            if op.hasPrefix("default=") {
                if v == nil || v == "" { v = String(op.dropFirst("default=".count)) }
                continue
            }
            guard let current = v else { return nil }
            switch op {
            case "lower": v = current.lowercased()
            case "upper": v = current.uppercased()
            case "rfc1034identifier":
                v = Self.rfc1034Identifier(current)
            case "identifier", "c99extidentifier":
                v = Self.c99Identifier(current)
            default: return nil
            }
        }
        return v
    }

    /// The App ID a unit has when its file names none: `$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)`.
    public static let derivedAppID = "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"
    /// Its expansion when neither variable has a value (no team, prefix or bundle ID known: a run
    /// without flags or configuration), made once instead of once per unit.
    private static let derivedAppIDUnknown = VariableExpander(appIDPrefix: nil, teamID: nil, bundleID: nil).expandUncached(derivedAppID)

    /// Expands `s`. The common case (only `$(X)` / `${X}` references without operators) is a
    /// single pass over the bytes with no hashing; anything else takes the general path.
    public func expand(_ s: String) -> Result {
        if table.isEmpty && s == Self.derivedAppID { return Self.derivedAppIDUnknown }
        let r = expandUncached(s)
        // Values are capped where they are read (entitlement strings and signing settings at
        // 4 KiB), but a string may name a long value many times: past the same cap the
        // expansion is not used, and every reference of the string counts as unresolved (a
        // warning on the value), so no rule works on megabytes of it once per configuration.
        guard r.text.utf8.count > DocumentReader.maxEntitlementStringBytes else { return r }
        return Result(text: s, symbolic: [], unresolved: Self.references(in: s))
    }
}
