import Dispatch
import EntitlintCore

// Linting the discovered units: the per-unit rules on those in scope, in parallel, then the project
// rules over each app family.
extension Linter {
    /// `findings` without those at a line of `unit`'s entitlements that uses a setting whose value
    /// is unknown (only a missing per-developer or generated file could set it): they rest on a
    /// fact nobody knows.
    static func withoutUnknownFacts(_ findings: [Finding], of unit: SigningUnit) -> [Finding] {
        guard !findings.isEmpty else { return findings }
        let lines = unit.linesUsingUnknownSettings()
        guard !lines.isEmpty else { return findings }
        return findings.filter { !($0.path == unit.entitlementsPath && lines.contains($0.line)) }
    }

    /// Forms the discovered units, runs the per-unit rules on those in scope and the project rules
    /// over every unit of the run, and folds identical findings of several configurations into one.
    func lintProjectUnits(_ discovery: Discovery?, looseUnits: [SigningUnit], options: LintOptions, profiles: [ProfileFile],
                          walkedProfiles: Set<String> = [], byAbs: [String: ParsedInput], lock: LockFile?,
                          cwd: String) -> (units: [SigningUnit], findings: [Finding], context: [SigningUnit], codeIndex: CodeIndex?) {
        guard let discovery, !discovery.units.isEmpty else { return ([], discovery?.findings ?? [], [], nil) }
        let discovered = discovery.units
        let slots = UnsafeMutableBufferPointer<(UnitContext, [Finding])?>.allocate(capacity: discovered.count)
        slots.initialize(repeating: nil)
        defer { slots.deallocate() }
        nonisolated(unsafe) let out = slots
        let byPath = byAbs
        let pairing = ProjectProfiles(profiles, discovery: discovery, walked: walkedProfiles, cwd: cwd)
        let work: @Sendable (Int) -> Void = { i in
            let d = discovered[i]
            let candidates = pairing.candidates(for: d)
            var unit = self.makeProjectUnit(d, options: options, profiles: candidates, byAbs: byPath, cwd: cwd)
            if unit.profile == nil, let why = candidates.notAssumed(d), var origin = unit.origin {
                origin.profileNote = why
                unit.origin = origin
            }
            let context = UnitContext(unit: unit, lock: lock, settings: options.settings)
            var found: [Finding] = []
            if d.inScope {
                for rule in self.rules where rule.asProjectRule == nil { found += FactGate.check(rule, context) }
                found = Self.withoutUnknownFacts(found, of: unit)
            }
            out[i] = (context, found)
        }
        Parallel.forEach(discovered.count, jobs: options.workers, work)
        let codeIndex = CodeIndex.disk(limit: options.limits.maxBytes, cwd: cwd, virtualFiles: options.virtualFiles,
                                        configuration: options.configuration)
        var contexts: [UnitContext] = []
        var units: [SigningUnit] = []
        var outOfScope: [SigningUnit] = []
        var findings = discovery.findings
        var scope = Set(looseUnits.map(\.name))
        for (i, slot) in slots.enumerated() {
            guard let (context, found) = slot else { continue }
            contexts.append(context)
            if !discovered[i].inScope { outOfScope.append(context.unit) }
            if discovered[i].inScope {
                units.append(context.unit)
                scope.insert(context.unit.name)
                findings += found
            }
        }
        if !projectRules.isEmpty {
            // Project rules compare the units of one app family at a time: a run over a folder of
            // unrelated projects finds what linting each alone finds. Files no target signs with
            // take no part (they have no facts to compare).
            var families: [String: [UnitContext]] = [:]
            var order: [String] = []
            func add(_ context: UnitContext, _ family: String) {
                if families[family] == nil { order.append(family) }
                families[family, default: []].append(context)
            }
            for unit in looseUnits where !unit.isUnused {
                add(UnitContext(unit: unit, lock: lock, settings: options.settings),
                    discovery.family(ofLoose: Paths.absolute(unit.entitlementsPath, cwd: cwd)))
            }
            for (i, slot) in slots.enumerated() {
                if let (context, _) = slot {
                    // Only the units the run is about have their code scanned: a hook run over one
                    // changed file reads the sources of the targets that file concerns, no others.
                    context.codeIndex = discovered[i].inScope ? codeIndex : nil
                    add(context, discovered[i].family)
                }
            }
            var byName: [String: SigningUnit] = [:]
            for u in units { byName[u.name] = u }
            for family in order {
                findings += runProjectRules(families[family]!, scope: scope).filter { f in
                    guard let name = f.unit, let unit = byName[name] else { return true }
                    return !Self.withoutUnknownFacts([f], of: unit).isEmpty
                }
            }
        }
        return (units, Self.foldConfigurations(findings, units: units), outOfScope, codeIndex)
    }
}
