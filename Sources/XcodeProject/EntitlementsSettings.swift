import EntitlintCore
import PropertyList

/// The build settings one unit's entitlements refer to, evaluated as Xcode evaluates them when it
/// writes the signed entitlements (keychain-access-groups.md section 2.1):
///
/// - a setting no level defines is the empty string, and so is a setting explicitly set to nothing;
///   both are recorded in `empty` with where the setting is (or could be) set, so that a group they
///   leave malformed is reported naming them;
/// - a setting whose value holds `$(AppIdentifierPrefix)` or `$(TeamIdentifierPrefix)` (which code
///   signing, not the build settings, fills in), or a setting no level defines, is written into the
///   entitlements strings in place of its reference, so the entitlements expander treats the
///   prefix as it treats one written there, and the undefined setting as an empty one;
/// - a setting that cannot be resolved at all (a cycle, an unsupported operator, an unreadable file
///   below it) is left out: its reference stays unresolved and is reported as such.
struct EntitlementsSettings {
    var variables: [String: String] = [:]
    var empty: [String: String] = [:]
    /// Settings the entitlements use that no committed file sets while a file the configuration
    /// reads is missing: name -> that file's problem text. Their references stay unresolved, and
    /// nothing is reported about them beyond the notice about the missing file.
    var unknown: [String: String] = [:]
    var document: PlistDocument

    /// Where a setting the entitlements use would be set, for a setting that is empty here.
    typealias Hint = (_ name: String) -> String

    /// `unknown`, each setting with the missing file that could set it (as shown).
    var unknownFiles: [String: String] {
        unknown.mapValues(Self.missingFile(in:))
    }

    /// The missing file (as shown) a `ResolvedSetting.isUnknownForMissingFile` problem names.
    static func missingFile(in problem: String) -> String {
        let rest = problem.dropFirst(SettingsEvaluator.missingFilePrefix.count)
        return rest.lastRange(of: ", which is not here (").map { String(rest[..<$0.lowerBound]) } ?? String(rest)
    }

    /// `names`: `referencedVariables(document)` when already known.
    init(document: PlistDocument, evaluator base: SettingsEvaluator, names known: [String]? = nil, hint: Hint) {
        self.document = document
        let names = known ?? referencedVariables(document)
        guard !names.isEmpty else { return }
        let evaluator = SettingsEvaluator(entries: base.entries, builtins: base.builtins, context: base.context, keepUndefined: true)
        var substitutions: [String: String] = [:]
        for name in names {
            let r = evaluator.resolveForSigning(name)
            if let problem = r.problem {
                if r.isUnknownForMissingFile { unknown[name] = problem }
                continue
            }
            let value = r.value ?? ""
            for u in r.undefined where empty[u] == nil {
                empty[u] = hint(u)
                variables[u] = ""
            }
            if !r.isSet {
                empty[name] = hint(name)
            } else if value.trimmed(" \t").isEmpty, empty[name] == nil {
                let place = r.source.map { " at \($0.place)" } ?? ""
                empty[name] = "it is set to the empty string\(place)"
            }
            if value.contains("$(") {
                substitutions[name] = value
            } else {
                variables[name] = value
            }
        }
        if !substitutions.isEmpty { self.document = Self.substitute(substitutions, in: document) }
    }

    /// The document with `$(NAME)` and `${NAME}` of each substituted setting replaced by its value.
    static func substitute(_ values: [String: String], in document: PlistDocument) -> PlistDocument {
        func replace(_ s: String) -> String {
            guard s.contains("$") else { return s }
            var out = s
            for (name, value) in values {
                out = out.replacingAll("$(\(name))", with: value).replacingAll("${\(name)}", with: value)
            }
            return out
        }
        // Recursive to the document's depth, which the plist reader (max-depth) and the XcodeGen
        // reader (200 levels) bound.
        func rebuild(_ node: PlistNode) -> PlistNode {
            var n = node
            switch node.value {
            case .string(let s): n.value = .string(replace(s))
            case .array(let items): n.value = .array(items.map(rebuild))
            case .dict(let d):
                var copy = PlistDictionary()
                for e in d.entries { copy.append(.init(key: e.key, keyLocation: e.keyLocation, value: rebuild(e.value))) }
                n.value = .dict(copy)
            default: break
            }
            return n
        }
        var doc = document
        doc.root = rebuild(document.root)
        return doc
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        out += rest
        return out
    }
}

/// Where a setting that is empty in one configuration is set: an assignment whose conditions this
/// configuration does not meet (`VAULT_GROUP[config=Release]`), else one in another level of the
/// project or in an xcconfig of the run that this configuration does not read, else nowhere.
func emptySettingHint(_ name: String, entries: [SettingAssignment], xcconfigs: XCConfigLoader, projectSettings: [SettingAssignment]) -> String {
    func conditions(_ a: SettingAssignment) -> String {
        a.conditions.map { "[\($0.key)=\($0.pattern)]" }.joined()
    }
    if let other = entries.last(where: { $0.hole == nil && $0.name == name && !$0.conditions.isEmpty && !$0.value.isEmpty }) {
        return "it is set only as \(name)\(conditions(other)) at \(other.place)"
    }
    let elsewhere = projectSettings.last { $0.name == name && !$0.value.isEmpty }
        ?? xcconfigs.assignments(named: name).last { !$0.value.isEmpty }
    if let elsewhere {
        return "it is set at \(elsewhere.place), which this configuration does not read"
    }
    return "no level of the build settings sets it (set it in the project or an xcconfig, or under `variables:` in .entitlint.yml when the build passes it on the xcodebuild command line)"
}
