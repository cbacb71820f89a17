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
        let covered = lock.covered(unpaired, read: read, walked: plan.walkedFolders(), cwd: cwd, isMissing: plan.isMissing)
        guard !covered.isEmpty else { return out }
        // A unit renamed with its bundle ID and file: compared with the entry it likely was (LockFile+Rename.swift).
        // An entry whose comparison finds something is reported there, not again as orphaned.
        let newUnits = units.filter { lock.units[$0.name] == nil && renamed[$0.name] == nil }
        var explained = Set<String>()
        for (name, entryName) in lock.likelyRenames(newUnits: newUnits, orphans: covered, cwd: cwd).sorted(by: { $0.key < $1.key }) {
            guard let unit = newUnits.first(where: { $0.name == name }), let entry = lock.units[entryName] else { continue }
            let context = UnitContext(unit: unit, lock: lock, settings: settings, lockEntry: (entryName, entry))
            for rule in referenceRules {
                for var f in FactGate.check(rule, context) {
                    // The pairing is assumed, so never an error.
                    if f.severity > .warning { f.severity = .warning }
                    f.notes.append(lock.likelyRenameNote(unit: name, entry: entryName))
                    out.append(f)
                    explained.insert(entryName)
                }
            }
        }
        let orphaned = covered.filter { !explained.contains($0) }
        guard !orphaned.isEmpty else { return out }
        for rule in referenceRules { out += rule.check(unpaired: orphaned, in: lock, cwd: cwd) }
        return out
    }
}
