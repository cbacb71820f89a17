/// A value with the manifest file it is written in (as shown): where a fact came from.
struct Located: Sendable {
    var value: ManifestValue
    var file: String
    var place: String { "\(file):\(value.line)" }
}

/// A function a manifest defines (a Tuist helper `static func appTarget(name:) -> Target`, a
/// Bazel macro `def app(name, profile):`): its parameters and the one expression it returns (or,
/// for a macro, the rule calls of its body).
struct ManifestFunction: Sendable {
    struct Parameter: Sendable {
        /// The argument label a call writes (nil: positional).
        var label: String?
        /// The name the body uses.
        var name: String
        var defaultValue: ManifestValue?
    }
    var parameters: [Parameter]
    var results: [ManifestValue]
    var file: String
    /// Whether the body names a signing setting (`DEVELOPMENT_TEAM`, `CODE_SIGN_*`,
    /// `PROVISIONING_PROFILE*`, `PRODUCT_BUNDLE_IDENTIFIER`): a settings helper that does may
    /// change them, one that does not leaves them as they are.
    var namesSigningSettings: Bool
}

/// The constants and functions of a set of manifest files, and the resolution of names through
/// them. Bounded: a name is followed at most `maxSteps` times (a constant defined by itself is
/// unknown, never a loop).
struct ManifestDefinitions: Sendable {
    var constants: [String: Located] = [:]
    /// Names defined twice with different values: unknown.
    var ambiguous = Set<String>()
    var functions: [String: ManifestFunction] = [:]
    var ambiguousFunctions = Set<String>()
    static let maxSteps = 32

    mutating func define(_ name: String, _ value: Located) {
        if constants[name] != nil { ambiguous.insert(name); return }
        constants[name] = value
    }

    mutating func define(function name: String, _ f: ManifestFunction) {
        if functions[name] != nil { ambiguousFunctions.insert(name); return }
        functions[name] = f
    }

    func function(_ name: String) -> ManifestFunction? {
        ambiguousFunctions.contains(name) ? nil : functions[name]
    }

    /// `value` with names replaced by what they stand for: parameters of the call being expanded
    /// (`bindings`), then constants, by their full name and then their last part
    /// (`Constants.team`, `team`). A name that is not defined, or defined twice, is unknown.
    func resolve(_ located: Located, bindings: [String: Located] = [:]) -> Located {
        var current = located
        var steps = 0
        while case .name(let n, let line) = current.value {
            steps += 1
            guard steps <= Self.maxSteps else { return Located(value: .unknown("a name defined through itself", line: line), file: current.file) }
            if let b = bindings[n] { current = b; continue }
            let last = n.split(separator: ".").last.map(String.init) ?? n
            if ambiguous.contains(n) || (constants[n] == nil && ambiguous.contains(last)) {
                return Located(value: .unknown("\(n) is defined more than once", line: line), file: current.file)
            }
            if let c = constants[n] ?? (n == last ? nil : constants[last]) { current = c; continue }
            return Located(value: .unknown("\(n) is not defined in the files read", line: line), file: current.file)
        }
        return current
    }

    /// The values a call of `f` returns, with its arguments bound to its parameters (the
    /// defaults for those the call leaves out).
    func expand(_ f: ManifestFunction, args: [ManifestArg], file: String, bindings: [String: Located]) -> [(Located, [String: Located])] {
        var bound: [String: Located] = [:]
        var positional = args.filter { $0.label == nil }.makeIterator()
        for p in f.parameters {
            if let a = args.first(where: { $0.label != nil && $0.label == (p.label ?? p.name) }) {
                bound[p.name] = resolve(Located(value: a.value, file: file), bindings: bindings)
            } else if p.label == nil, let a = positional.next() {
                bound[p.name] = resolve(Located(value: a.value, file: file), bindings: bindings)
            } else if let d = p.defaultValue {
                bound[p.name] = Located(value: d, file: f.file)
            }
        }
        return f.results.map { (Located(value: $0, file: f.file), bound) }
    }
}
