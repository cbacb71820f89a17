import PropertyList

/// The stage that runs the rules: the per-unit rules on each planned unit, the project rules over
/// each app family, the reference rules against the lock, the profile rules on each profile in
/// use. It reports what the rules find, before post-processing (`FindingStage`).
public struct RuleStage: Sendable {
    public let rules: [any Rule]

    public init(rules: [any Rule]) { self.rules = rules }

    /// The rules that check a dead entitlements file (inside a project's folders, used by no
    /// target and named by no setting): that it cannot be parsed, and that it is unused.
    public static let deadFileRules: Set<String> = ["parse-error", "unused-entitlements-file"]

    /// Whether `rule` checks a unit planned with `checks`. A project rule's per-unit check runs
    /// only on a built product's units (`built`), which belong to no project: what a bundle shows
    /// of the bundle embedding it is in its `BuiltArtifactFacts`; on others it finds nothing.
    static func checks(_ rule: any Rule, _ checks: PlannedUnit.Checks, built: Bool = false) -> Bool {
        switch checks {
        case .all: return built || rule.asProjectRule == nil
        case .deadFile: return deadFileRules.contains(type(of: rule).description.id)
        case .fileAlone: return type(of: rule).description.readsOnlyTheFile
        case .none: return false
        }
    }

    /// The rules that check each kind of unit (`checks`), filtered once.
    private struct RuleLists {
        let all: [any Rule], allBuilt: [any Rule], deadFile: [any Rule], fileAlone: [any Rule]
        init(_ rules: [any Rule]) {
            all = rules.filter { RuleStage.checks($0, .all) }
            allBuilt = rules.filter { RuleStage.checks($0, .all, built: true) }
            deadFile = rules.filter { RuleStage.checks($0, .deadFile) }
            fileAlone = rules.filter { RuleStage.checks($0, .fileAlone) }
        }
        func rules(_ checks: PlannedUnit.Checks, built: Bool) -> [any Rule] {
            switch checks {
            case .all: return built ? allBuilt : all
            case .deadFile: return deadFile
            case .fileAlone: return fileAlone
            case .none: return []
            }
        }
    }

    /// The findings of the per-unit rules on every planned unit, one unit per task on `plan.jobs`
    /// threads, in plan order. A dead file gets the one finding that says so (what else it holds
    /// is nobody's problem); a variant the rules that need no facts; a context unit none. A
    /// built product's findings lose their line; a project unit's findings at a line that uses
    /// a setting nobody knows (`withoutUnknownFacts`) are dropped.
    /// `contexts` holds, at the index of each checked unit of an app family, the context its rules
    /// saw (with the run's code index), for the project rules to reuse: what a context builds
    /// when first asked (the access-group list, the code) is built once per unit.
    func unitFindings(_ plan: UnitPlan) -> (findings: [Finding], contexts: [UnitContext?]) {
        let units = plan.units
        let perUnit = UnsafeMutableBufferPointer<[Finding]>.allocate(capacity: units.count)
        perUnit.initialize(repeating: [])
        defer { perUnit.deinitialize(); perUnit.deallocate() }
        let kept = UnsafeMutableBufferPointer<UnitContext?>.allocate(capacity: units.count)
        kept.initialize(repeating: nil)
        defer { kept.deinitialize(); kept.deallocate() }
        nonisolated(unsafe) let slots = perUnit, contextSlots = kept
        // Each kind of unit's rule list, chosen once per run rather than rule by rule per unit:
        // asking a rule whether it is a project rule copies it out of its existential box.
        let lists = RuleLists(rules)
        let lock = plan.lock, settings = plan.settings, codeIndex = plan.codeIndex
        Parallel.forEach(units.count, jobs: plan.jobs) { i in
            // Fields read one by one: copying the whole planned unit costs a retain per field.
            let checks = units[i].checks
            guard checks != .none else { return }
            let context = UnitContext(unit: units[i].unit, lock: lock, settings: settings)
            if units[i].family != nil {
                context.codeIndex = codeIndex
                contextSlots[i] = context
            }
            var found: [Finding] = []
            let built = units[i].unit.artifact != nil
            let list = lists.rules(checks, built: built)
            for k in list.indices {
                // Most rules find nothing: appending their empty array still made a new buffer.
                let result = FactGate.check(list[k], context)
                if !result.isEmpty { found += result }
            }
            if units[i].lineless {
                for k in found.indices { found[k].line = 0; found[k].column = 0 }
            }
            slots[i] = Self.withoutUnknownFacts(found, of: context.unit)
        }
        var out: [Finding] = []
        for found in perUnit { out += found }
        return (out, Array(kept))
    }

    /// `findings` without those at a line of `unit`'s entitlements that uses a setting whose value
    /// is unknown (only a missing per-developer or generated file could set it): they rest on a
    /// fact nobody knows.
    static func withoutUnknownFacts(_ findings: [Finding], of unit: SigningUnit) -> [Finding] {
        guard !findings.isEmpty else { return findings }
        let lines = unit.linesUsingUnknownSettings()
        guard !lines.isEmpty else { return findings }
        return findings.filter { !($0.path == unit.entitlementsPath && lines.contains($0.line)) }
    }

    /// The findings of the project rules, over one app family at a time: a run over a folder of
    /// unrelated projects finds what linting each alone finds. Units with no family take no part;
    /// findings about context units are dropped (but in `plan.reportedFamilies`), and so are
    /// those resting on unknown settings.
    /// Only reported units have their code read: a hook run over one changed file reads the
    /// sources of the targets that file concerns, no others. `contexts`: those `unitFindings`
    /// built, by plan index (a unit without one gets a new one).
    func projectFindings(_ plan: UnitPlan, contexts: [UnitContext?] = []) -> [Finding] {
        let projectRules = rules.compactMap { $0.asProjectRule }
        guard !projectRules.isEmpty else { return [] }
        var families: [String: [UnitContext]] = [:]
        var order: [String] = []
        var reported: [String: SigningUnit] = [:]
        // Context units of a family in `plan.reportedFamilies`: their project findings are kept.
        var members: [String: SigningUnit] = [:]
        for (i, planned) in plan.units.enumerated() {
            guard let family = planned.family else { continue }
            let context = (i < contexts.count ? contexts[i] : nil)
                ?? UnitContext(unit: planned.unit, lock: plan.lock, settings: plan.settings)
            if planned.isReported {
                context.codeIndex = plan.codeIndex
                reported[planned.unit.name] = planned.unit
            } else if plan.reportedFamilies.contains(family) {
                members[planned.unit.name] = planned.unit
            }
            if families[family] == nil { order.append(family) }
            families[family, default: []].append(context)
        }
        var out: [Finding] = []
        for family in order {
            for rule in projectRules {
                for f in FactGate.check(project: rule, families[family]!) {
                    guard let name = f.unit else { out.append(f); continue }
                    guard let unit = reported[name] ?? members[name] else { continue }
                    if !Self.withoutUnknownFacts([f], of: unit).isEmpty { out.append(f) }
                }
            }
        }
        return out
    }
}
