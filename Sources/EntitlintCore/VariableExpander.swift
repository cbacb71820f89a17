/// Expands the build variables Xcode substitutes in entitlements (DOMAIN.md section 2):
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

    public var values: [String: String]

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
    }

    public struct Reference: Sendable, Hashable {
        /// The text as written: `$(X)`, `${X}`, `{{X}}`, `###X###`.
        public var text: String
        public var name: String
        public var isTemplate: Bool
        /// Character offset in the original string.
        public var offset: Int
    }

    public struct Result: Sendable, Hashable {
        public var text: String
        /// Standard variables left as written because their value is unknown.
        public var symbolic: [Reference]
        /// Unknown variables and template placeholders.
        public var unresolved: [Reference]
        public var isConcrete: Bool { symbolic.isEmpty && unresolved.isEmpty }
    }

    /// Every variable reference in `s`, in order.
    public static func references(in s: String) -> [Reference] {
        var refs: [Reference] = []
        let chars = Array(s)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "$", i + 1 < chars.count, chars[i + 1] == "(" || chars[i + 1] == "{" {
                let close: Character = chars[i + 1] == "(" ? ")" : "}"
                if let j = chars[(i + 2)...].firstIndex(of: close) {
                    let name = String(chars[(i + 2)..<j])
                    refs.append(Reference(text: String(chars[i...j]), name: name, isTemplate: false, offset: i))
                    i = j + 1
                    continue
                }
            } else if c == "{", i + 1 < chars.count, chars[i + 1] == "{" {
                if let j = findSequence(chars, "}}", from: i + 2) {
                    let name = String(chars[(i + 2)..<j]).trimmingSpaces()
                    refs.append(Reference(text: String(chars[i..<(j + 2)]), name: name, isTemplate: true, offset: i))
                    i = j + 2
                    continue
                }
            } else if c == "#", i + 2 < chars.count, chars[i + 1] == "#", chars[i + 2] == "#" {
                if let j = findSequence(chars, "###", from: i + 3), j > i + 3 {
                    let name = String(chars[(i + 3)..<j])
                    refs.append(Reference(text: String(chars[i..<(j + 3)]), name: name, isTemplate: true, offset: i))
                    i = j + 3
                    continue
                }
            }
            i += 1
        }
        return refs
    }

    private static func findSequence(_ chars: [Character], _ seq: String, from: Int) -> Int? {
        let s = Array(seq)
        guard from <= chars.count - s.count else { return nil }
        var i = from
        while i <= chars.count - s.count {
            if Array(chars[i..<(i + s.count)]) == s { return i }
            i += 1
        }
        return nil
    }

    /// `X` of `X:modifier,...`.
    static func baseName(_ name: String) -> String {
        String(name.split(separator: ":", maxSplits: 1).first ?? Substring(name))
    }

    /// The value of a reference's name, applying Xcode's operators `:default=V`, `:lower`,
    /// `:upper`, `:rfc1034identifier` and `:identifier`; nil when unknown.
    func value(of name: String) -> String? {
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
                v = String(current.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "-" })
            case "identifier":
                v = String(current.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
            default: return nil
            }
        }
        return v
    }

    public func expand(_ s: String) -> Result {
        guard s.contains("$") || s.contains("{{") || s.contains("###") else {
            return Result(text: s, symbolic: [], unresolved: [])
        }
        let refs = Self.references(in: s)
        if refs.isEmpty { return Result(text: s, symbolic: [], unresolved: []) }
        let chars = Array(s)
        var out = ""
        var symbolic: [Reference] = []
        var unresolved: [Reference] = []
        var last = 0
        for r in refs {
            out += String(chars[last..<r.offset])
            last = r.offset + r.text.count
            if !r.isTemplate, let v = value(of: r.name) {
                out += v
            } else {
                out += r.text
                if !r.isTemplate && Self.standardNames.contains(Self.baseName(r.name)) {
                    symbolic.append(r)
                } else {
                    unresolved.append(r)
                }
            }
        }
        out += String(chars[last...])
        return Result(text: out, symbolic: symbolic, unresolved: unresolved)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }

    /// Whether the string looks like a Team ID / App ID prefix: 10 upper-case letters or digits.
    public var isTeamIDLike: Bool {
        utf8.count == 10 && utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) }
    }
}
