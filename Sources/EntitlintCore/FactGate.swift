/// The facts a rule reasons about, declared in its description (`RuleDescription.facts`), so that
/// the engine, not each rule, decides what a finding may claim (`FactGate`).
public struct FactNeeds: Sendable, Hashable {
    /// Facts without which the rule cannot judge: while one is unknown, its findings are dropped.
    public var needs: [FactKind]
    /// Facts that must be known, not assumed, for a finding to keep its severity.
    public var certainWith: [FactKind]
    /// The highest severity of a finding that rests on an assumed fact.
    public var whenAssumed: Severity
    /// Why no finding of the rule rests on an assumed fact, when it reads the unit's facts and
    /// declares none in `certainWith`: the facts it reads are never assumed, or its findings hold
    /// whatever an assumed fact's value is, or it decides in its own code what an assumed fact
    /// allows. The severity audit page shows it, and a test requires it of every error rule
    /// that reads the unit's facts and declares no fact to be certain with.
    public var uncapped: String?

    public init(needs: [FactKind] = [], certainWith: [FactKind] = [], whenAssumed: Severity = .warning, uncapped: String? = nil) {
        self.needs = needs
        self.certainWith = certainWith
        self.whenAssumed = whenAssumed
        self.uncapped = uncapped
    }

    /// A rule none of whose findings rests on an assumed fact, with why (`uncapped`).
    public static func certain(needs: [FactKind] = [], because why: String) -> FactNeeds {
        FactNeeds(needs: needs, uncapped: why)
    }

    /// A rule that reads only the file, or facts other than the unit's (the code, the lock file).
    public static let nothing = FactNeeds()
}

/// Runs a rule on one unit and holds its findings to what the unit's facts support: none while
/// a fact the rule needs is unknown; while one it is certain with is only assumed, each finding
/// capped at the rule's `whenAssumed` severity, with a note saying what was assumed and how to
/// give the fact. Every per-unit check of a run goes through `check`, and every project rule's
/// through `check(project:)`, so no rule repeats it.
public enum FactGate {
    public static func check(_ rule: any Rule, _ context: UnitContext) -> [Finding] {
        let findings = rule.check(context)
        guard !findings.isEmpty, let needs = type(of: rule).description.facts else { return findings }
        return gated(findings, of: rule, needs: needs, unit: context.unit)
    }

    /// A project rule's findings, each held to the facts of the unit it names (one that names
    /// none, or a unit not among `contexts`, is kept as it is).
    public static func check(project rule: any ProjectRule, _ contexts: [UnitContext]) -> [Finding] {
        let findings = rule.check(project: contexts)
        guard !findings.isEmpty, let needs = type(of: rule).description.facts else { return findings }
        var units: [String: SigningUnit] = [:]
        for c in contexts where units[c.unit.name] == nil { units[c.unit.name] = c.unit }
        return findings.flatMap { f in
            guard let name = f.unit, let unit = units[name] else { return [f] }
            return gated([f], of: rule, needs: needs, unit: unit)
        }
    }

    /// `findings` of `rule` on `unit`, held to `needs` (see `check`).
    static func gated(_ findings: [Finding], of rule: any Rule, needs: FactNeeds, unit: SigningUnit) -> [Finding] {
        if needs.needs.contains(where: { unit.certainty(of: $0).isUnknown }) { return [] }
        guard !needs.certainWith.isEmpty else { return findings }
        return findings.map { f in
            var f = f
            for kind in rule.facts(behind: f) {
                guard case .assumed(let what) = unit.certainty(of: kind) else { continue }
                f.severity = min(f.severity, needs.whenAssumed)
                f.notes.append(note(kind, value: unit.fact(kind)?.value, assumed: what))
            }
            return f
        }
    }

    /// "The App ID prefix ABCDE12345 is assumed: App ID prefix taken to be the Team ID (...); to
    /// be sure, give ...".
    public static func note(_ kind: FactKind, value: String?, assumed what: String) -> String {
        let subject = kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()
        let legacy = kind == .appIDPrefix ? " (a team created before June 2011 may have a legacy prefix)" : ""
        return "The \(subject)\(value.map { " " + $0 } ?? "") is assumed: \(what)\(legacy); to be sure, \(kind.howToGive)"
    }
}
