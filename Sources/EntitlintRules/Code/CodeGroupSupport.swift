import EntitlintCore
import SourceCode

/// How a group that code passes stands against one unit's access-group list (keychain-access-groups.md
/// sections 1 and 8). Runtime matching is exact: a group not in the list fails the call with
/// errSecMissingEntitlement (-34018).
enum CodeGroupStanding {
    /// In the list (or it cannot be known: the list or the value holds something unknown).
    case granted, unknowable
    /// The code spells `name` where the list has `PREFIX.name`.
    case missingPrefix(AccessGroupEntry)
    /// The code spells `CODEPREFIX.name` where the list has `PREFIX.name` with another prefix;
    /// `known`: the unit's prefix is known (a profile, spelled in the entitlements, or a team the
    /// user states), not assumed equal to the Team ID.
    case wrongPrefix(AccessGroupEntry, written: String, known: Bool)
    /// The code spells `PREFIX.name` with a Team-ID-like prefix that is none of the unit's (its
    /// App ID prefix, its Team ID, a prefix its profile lists), and the list does not grant it.
    case foreignPrefix(String)
    /// The value holds a build-setting reference written in a code literal (`variableInCode`):
    /// nothing expands it, so no list can grant it.
    case variableInCode(String)
    case notGranted
}

/// One group use of the code checked against one unit.
struct CodeGroupCheck {
    let context: UnitContext
    let use: CodeGroupUse
    /// The group after the unit's variables (`$(AppIdentifierPrefix)` from the Info.plist).
    let group: String
    let standing: CodeGroupStanding
}

extension UnitContext {
    /// The standing of `value` (a resolved group of this unit's code) in the unit's list.
    func standing(ofCodeGroup value: String) -> (group: String, standing: CodeGroupStanding) {
        let expanded = expand(value)
        let group = expanded.text
        guard expanded.unresolved.isEmpty else { return (group, .unknowable) }
        let entries = accessGroups.entries
        if entries.contains(where: { !$0.expansion.unresolved.isEmpty }) { return (group, .unknowable) }
        if entries.contains(where: { $0.value == group }) { return (group, .granted) }
        let (codePrefix, rest) = AccessGroupList.splitPrefix(group)
        for entry in entries {
            let (prefix, name) = AccessGroupList.splitPrefix(entry.value)
            guard let prefix else { continue }
            // Whatever the list's prefix is (known or not), the code spells none.
            if codePrefix == nil, name == group { return (group, .missingPrefix(entry)) }
            guard let codePrefix, name == rest, codePrefix != prefix else { continue }
            // Either prefix still a variable: whether they differ is not known.
            if codePrefix.hasPrefix("$(") || prefix.hasPrefix("$(") { return (group, .unknowable) }
            let spelled = !entry.raw.contains("$(") && !entry.raw.contains("${")
            // The entry's prefix is known when the file spells it, else as far as the unit's App ID
            // prefix is (`FactResolver`: a profile's, the file's own, or a team the user states).
            let known = spelled || unit.certainty(of: .appIDPrefix).isKnown
            return (group, .wrongPrefix(entry, written: codePrefix, known: known))
        }
        if expanded.symbolic.contains(where: { $0.name.hasSuffix("Prefix") }),
           entries.contains(where: { let (prefix, name) = AccessGroupList.splitPrefix($0.value); return prefix != nil && name == rest }) {
            return (group, .unknowable)
        }
        if let codePrefix, codePrefix.isTeamIDLike, let own = unit.appIDPrefix?.value, codePrefix != own, codePrefix != unit.teamID?.value,
           unit.profile?.profile.applicationIdentifierPrefixes.contains(codePrefix) != true {
            return (group, .foreignPrefix(codePrefix))
        }
        return (group, .notGranted)
    }

    /// Whether the unit keeps access groups for every keychain query: iOS-family platforms and
    /// Mac Catalyst always; a macOS app only in the data-protection keychain (keychain-access-groups.md section 1).
    var alwaysUsesAccessGroups: Bool {
        unit.platform != .macOS || unit.origin?.isMacCatalyst == true
    }
}

enum CodeGroups {
    /// Every resolved group use of the units' code, checked against each unit that compiles it.
    static func checks(_ units: [UnitContext]) -> [CodeGroupCheck] {
        var out: [CodeGroupCheck] = []
        for context in units {
            guard let code = context.code else { continue }
            for use in code.groups {
                // A value compiled only under an `#if` the unit's settings do not decide may
                // never be built: no rule reports on it (the report lists it as undecided).
                guard let value = use.resolved.value, use.resolved.undecided == nil else { continue }
                if let literal = use.resolved.variableInCode {
                    out.append(CodeGroupCheck(context: context, use: use, group: value, standing: .variableInCode(literal)))
                    continue
                }
                let (group, standing) = context.standing(ofCodeGroup: value)
                out.append(CodeGroupCheck(context: context, use: use, group: group, standing: standing))
            }
        }
        return out
    }

    /// The checks grouped by place and group: one finding names every unit a problem concerns.
    static func byPlace(_ checks: [CodeGroupCheck]) -> [[CodeGroupCheck]] {
        struct Key: Hashable { var path: String, line: Int, column: Int, group: String }
        var order: [Key] = []
        var groups: [Key: [CodeGroupCheck]] = [:]
        for c in checks {
            let key = Key(path: c.use.path, line: c.use.line, column: c.use.column, group: c.group)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(c)
        }
        return order.map { groups[$0]! }
    }

    /// One finding of `rule` per place in code (file, line, column, group) where the check of some
    /// unit is one the rule is about: `match` gives what the rule needs from a check's standing
    /// (nil: not about it), `word` words the finding from those checks (one or more, in unit order)
    /// and may lower its severity. The finding sits at the place and names the first such unit.
    static func findings<Detail>(_ rule: RuleDescription, _ units: [UnitContext],
                                 match: (CodeGroupCheck) -> Detail?,
                                 word: ([(check: CodeGroupCheck, detail: Detail)]) -> (message: String, severity: Severity?)) -> [Finding] {
        var out: [Finding] = []
        for place in byPlace(checks(units)) {
            let failing = place.compactMap { c in match(c).map { (check: c, detail: $0) } }
            guard let first = failing.first else { continue }
            let worded = word(failing)
            out.append(finding(rule, worded.message, at: first.check.use, unit: first.check.context, severity: worded.severity))
        }
        return out
    }

    /// `App (Debug, Release), Widget (Release)`: units by target, configurations together.
    static func unitNames(_ contexts: [UnitContext]) -> String {
        var order: [String] = []
        var configurations: [String: [String]] = [:]
        for c in contexts {
            let target = c.unit.origin?.target ?? c.unit.name
            if configurations[target] == nil { order.append(target) }
            if let config = c.unit.origin?.configuration, configurations[target]?.contains(config) != true {
                configurations[target, default: []].append(config)
            } else if configurations[target] == nil {
                configurations[target] = []
            }
        }
        return order.map { t in
            let configs = configurations[t] ?? []
            return configs.isEmpty ? t : "\(t) (\(configs.joined(separator: ", ")))"
        }.joined(separator: ", ")
    }

    /// `"G" (kSecAttrAccessGroup, from AppConstants.group at Constants.swift:3)`.
    static func described(_ check: CodeGroupCheck) -> String {
        var how = [check.use.api]
        if !check.use.resolved.steps.isEmpty {
            how.append("from " + check.use.resolved.steps.prefix(3).map { OutputText.excerpt($0) }.joined(separator: ", "))
        }
        return "\"\(OutputText.excerpt(check.group))\" (\(how.joined(separator: "; ")))"
    }

    /// Advice for code that must spell the App ID prefix: read it at run time.
    static let readPrefixAdvice = "read the prefix at run time: add an Info.plist entry AppIdentifierPrefix = $(AppIdentifierPrefix) and pass Bundle.main.object(forInfoDictionaryKey: \"AppIdentifierPrefix\") as! String + the group name"

    /// A finding of `rule` at a place in code.
    static func finding(_ rule: RuleDescription, _ message: String, at use: CodeGroupUse, unit: UnitContext, severity: Severity? = nil) -> Finding {
        Finding(rule: rule.id, severity: severity ?? rule.severity, message: message, path: use.path, line: use.line, column: use.column,
                unit: unit.unit.name)
    }
}
