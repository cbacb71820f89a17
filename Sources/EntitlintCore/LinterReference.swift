import PropertyList
import Provisioning

/// The lock file and the reference rules of a run.
extension Linter {

    /// The reference rules once every unit of the run is known: each unit renamed since the
    /// reference against the entry it pairs with (its name's entry was checked with the unit),
    /// and the entries of a lock file that no unit pairs with, among those the run covered: an
    /// entry whose file was read in the run, or whose file is gone from a folder the run walked
    /// (a path from the lock is looked up only there, never opened);
    /// an entry that records no file, when the run walked the lock file's folder. `context`:
    /// units formed only to be compared with (a project's other targets), never reported on.
    /// `walkedFolders`: the folders the run walked (absolute), asked for only when some entry is
    /// unpaired; `isMissing`: whether nothing is at a path below one of them.
    package func referenceFindings(units: [SigningUnit], context: [SigningUnit], lock: LockFile?, settings: CheckSettings, cwd: String,
                                   walkedFolders: () -> [String], isMissing: (String) -> Bool) -> [Finding] {
        guard let lock, !lock.units.isEmpty else { return [] }
        let referenceRules = rules.compactMap { $0.asReferenceRule }
        guard !referenceRules.isEmpty else { return [] }
        let units = units.filter { !$0.isUnused }
        let all = units + context
        let (renamed, unpaired) = lock.pair(units, all: Set(all.map(\.name)), cwd: cwd)
        var out: [Finding] = []
        for unit in units {
            guard let name = renamed[unit.name], let entry = lock.units[name] else { continue }
            let context = UnitContext(unit: unit, lock: lock, settings: settings, lockEntry: (name, entry))
            for rule in referenceRules { out += FactGate.check(rule, context) }
        }
        out = Self.foldConfigurations(out, units: units)
        guard lock.reference == nil, !unpaired.isEmpty else { return out }
        let read = Set(all.map { Paths.absolute($0.entitlementsPath, cwd: cwd) })
        let covered = lock.covered(unpaired, read: read, walked: walkedFolders(), cwd: cwd, isMissing: isMissing)
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

    /// The lock file when neither `--lock` nor the configuration's `lock:` names one:
    /// `entitlint.lock` beside the configuration, else in the current folder.
    public static func defaultLockPath(_ configuration: Configuration?) -> String {
        configuration?.resolve("entitlint.lock") ?? "entitlint.lock"
    }


}

extension Linter {
    /// One finding per place and message: the configurations of a target usually say the same thing
    /// about the same line. Where they disagree, or only some of the file's units have it, the
    /// finding names its units (`Finding.units`). The folded finding has the notes of all the
    /// findings it stands for, and the help and fix of the first.
    package static func foldConfigurations(_ findings: [Finding], units: [SigningUnit]) -> [Finding] {
        struct Key: Hashable { var rule: String, path: String, line: Int, column: Int, message: String, units: [String] }
        struct Place: Hashable { var rule: String, path: String, line: Int, column: Int }
        var order: [Key] = []
        var groups: [Key: (Finding, [String])] = [:]
        for f in findings {
            let key = Key(rule: f.rule, path: f.path, line: f.line, column: f.column, message: f.message, units: f.units)
            if groups[key] == nil {
                order.append(key)
                groups[key] = (f, f.unit.map { [$0] } ?? [])
                continue
            }
            if let u = f.unit, !groups[key]!.1.contains(u) {
                groups[key]!.1.append(u)
            }
            // Configurations may state the same problem from different sources: the folded
            // finding keeps every note, each once, in the order met.
            for note in f.notes where !groups[key]!.0.notes.contains(note) { groups[key]!.0.notes.append(note) }
        }
        var messagesPerPlace: [Place: Int] = [:]
        for k in order { messagesPerPlace[Place(rule: k.rule, path: k.path, line: k.line, column: k.column), default: 0] += 1 }
        var unitsPerPath: [String: Int] = [:]
        for u in units { unitsPerPath[u.entitlementsPath, default: 0] += 1 }
        return order.map { key in
            var (f, names) = groups[key]!
            let ambiguous = messagesPerPlace[Place(rule: key.rule, path: key.path, line: key.line, column: key.column)]! > 1
            // Name the units when the finding is about some of the units of the file, not all.
            if !names.isEmpty, ambiguous || names.count < unitsPerPath[key.path, default: 0] {
                f.units = names
            }
            return f
        }
    }
}
