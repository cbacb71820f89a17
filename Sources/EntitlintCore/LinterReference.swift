import Dispatch
public import PropertyList
public import Provisioning

/// The lock file and the reference rules of a run.
extension Linter {

    /// The reference rules once every unit of the run is known: each unit renamed since the
    /// reference against the entry it pairs with (its name's entry was checked with the unit),
    /// and the entries of a lock file that no unit pairs with, among those the run covered: an
    /// entry whose file was read in the run, or whose file is gone from a folder the run walked
    /// (a path from the lock is looked up only there, never opened);
    /// an entry that records no file, when the run walked the lock file's folder. `context`:
    /// units formed only to be compared with (a project's other targets), never reported on.
    func referenceFindings(units: [SigningUnit], context: [SigningUnit], lock: LockFile?, options: LintOptions, cwd: String) -> [Finding] {
        guard let lock, !lock.units.isEmpty else { return [] }
        let referenceRules = rules.compactMap { $0.asReferenceRule }
        guard !referenceRules.isEmpty else { return [] }
        let units = units.filter { !$0.isUnused }
        let all = units + context
        let (renamed, unpaired) = lock.pair(units, all: Set(all.map(\.name)), cwd: cwd)
        var out: [Finding] = []
        for unit in units {
            guard let name = renamed[unit.name], let entry = lock.units[name] else { continue }
            let context = UnitContext(unit: unit, lock: lock, settings: options.settings, lockEntry: (name, entry))
            for rule in referenceRules { out += rule.check(context) }
        }
        out = Self.foldConfigurations(out, units: units)
        guard lock.reference == nil, !unpaired.isEmpty else { return out }
        let read = Set(all.map { Paths.absolute($0.entitlementsPath, cwd: cwd) })
        let walked = options.paths.map { Paths.absolute($0, cwd: cwd) }.filter { Paths.kind($0) == .directory }
        func isWalked(_ path: String) -> Bool { walked.contains { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") } }
        let covered = unpaired.filter { name in
            if let file = lock.file(of: lock.units[name]!, cwd: cwd) {
                return read.contains(file) || (isWalked(file) && Paths.kind(file) == .missing)
            }
            return lock.path.map { isWalked(Paths.absolute(Paths.directoryName($0), cwd: cwd)) } ?? false
        }
        guard !covered.isEmpty else { return out }
        for rule in referenceRules { out += rule.check(unpaired: covered, in: lock) }
        return out
    }

    /// The lock file when neither `--lock` nor the configuration's `lock:` names one:
    /// `entitlint.lock` beside the configuration, else in the current folder.
    public static func defaultLockPath(_ configuration: Configuration?) -> String {
        configuration?.resolve("entitlint.lock") ?? "entitlint.lock"
    }

    static func loadLock(_ options: LintOptions) throws -> LockFile? {
        guard options.readLock else { return nil }
        if let lock = options.lock { return lock }
        if let p = options.lockPath { return try LockFile.load(path: p) }
        if let c = options.configuration, let p = c.lock {
            let resolved = c.resolve(p)
            return Paths.kind(resolved) == .file ? try LockFile.load(path: resolved) : nil
        }
        let standard = Self.defaultLockPath(options.configuration)
        if Paths.kind(standard) == .file { return try LockFile.load(path: standard) }
        return nil
    }
}
