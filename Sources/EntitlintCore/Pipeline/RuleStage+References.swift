import PropertyList
import Provisioning

/// The reference rules of a run: its units against the lock file or the `--against` revision.
extension RuleStage {

    /// The reference rules once every unit of the run is known: each unit renamed since the
    /// reference against the entry it pairs with (its name's entry was checked with the unit),
    /// and the entries of a lock file that no unit pairs with, among those the run covered: an
    /// entry whose file was read in the run, or whose file is gone from a folder the run walked
    /// (a path from the lock is looked up only there, never opened);
    /// an entry that records no file, when the run walked the lock file's folder (`UnitPlan.walkedFolders`).
    /// Context units (a project's other targets) are paired with, never reported on.
    func referenceFindings(_ plan: UnitPlan, reported: [SigningUnit]) -> [Finding] {
        guard let lock = plan.lock, !lock.units.isEmpty else { return [] }
        let settings = plan.settings, cwd = settings.workingDirectory
        let context = plan.units.filter { !$0.isReported }.map(\.unit)
        let referenceRules = rules.compactMap { $0.asReferenceRule }
        guard !referenceRules.isEmpty else { return [] }
        let units = reported.filter { !$0.isUnused }
        let all = units + context
        let (renamed, unpaired) = lock.pair(units, all: Set(all.map(\.name)), cwd: cwd)
        var out: [Finding] = []
        for unit in units {
            guard let name = renamed[unit.name], let entry = lock.units[name] else { continue }
            let context = UnitContext(unit: unit, lock: lock, settings: settings, lockEntry: (name, entry))
            for rule in referenceRules { out += FactGate.check(rule, context) }
        }
        guard lock.reference == nil, !unpaired.isEmpty else { return out }
        let read = Set(all.map { Paths.absolute($0.entitlementsPath, cwd: cwd) })
        let walked = plan.walkedFolders()
        func isWalked(_ path: String) -> Bool { walked.contains { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") } }
        let covered = unpaired.filter { name in
            if let file = lock.file(of: lock.units[name]!, cwd: cwd) {
                return read.contains(file) || (isWalked(file) && plan.isMissing(file))
            }
            return lock.path.map { isWalked(Paths.absolute(Paths.directoryName($0), cwd: cwd)) } ?? false
        }
        guard !covered.isEmpty else { return out }
        for rule in referenceRules { out += rule.check(unpaired: covered, in: lock, cwd: cwd) }
        return out
    }
}
