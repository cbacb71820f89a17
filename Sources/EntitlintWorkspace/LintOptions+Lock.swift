public import EntitlintCore

/// The lock file a run reads, and what moved since it.
extension LintOptions {
    /// The reference of the run: `lock` (from `--against`), else the lock file `--lock` or the
    /// configuration names, else the standard one when it exists; none when `readLock` is off.
    /// Read as `trustedFiles` has them when the run reads its configuration from a revision.
    func loadLock() throws -> LockFile? {
        guard readLock else { return nil }
        if let lock { return lock }
        if let p = lockPath { return try LockFile.load(path: p, from: trustedFiles) }
        if let c = configuration, let p = c.lock {
            let resolved = c.resolve(p)
            return TrustedFiles.isFile(resolved, in: trustedFiles) ? try LockFile.load(path: resolved, from: trustedFiles) : nil
        }
        let standard = LockFile.defaultPath(configuration)
        if TrustedFiles.isFile(standard, in: trustedFiles) { return try LockFile.load(path: standard, from: trustedFiles) }
        return nil
    }

    /// For each unit (by name) whose default access group moved since the reference of the run
    /// (`options.lock` from `--against`, else the lock file `lint` reads), the old and new
    /// defaults that `default-group-drift` reports, and the reference (`lock file`, or the
    /// revision as `--against` names it): units are paired with entries as the rule pairs them
    /// (`LockFile.pair`), and compared in the same form (`DefaultGroupComparison`). Empty when
    /// there is no reference. Units formed only as context of the run are not passed here, so an
    /// entry of such a unit could pair with a renamed unit that the linter would not pair it with.
    public func defaultMoves(units: [SigningUnit], cwd: String = Paths.currentDirectory()) throws(UsageError)
        -> [String: (from: String, to: String, reference: String)] {
        var reading = self
        reading.readLock = true
        let lock: LockFile?
        do { lock = try reading.loadLock() } catch { throw UsageError("\(error)") }
        guard let lock, !lock.units.isEmpty else { return [:] }
        let used = units.filter { !$0.isUnused }
        let (renamed, _) = lock.pair(used, all: Set(used.map(\.name)), cwd: cwd)
        var out: [String: (from: String, to: String, reference: String)] = [:]
        for unit in used {
            let context = UnitContext(unit: unit, lock: lock, settings: settings,
                                      lockEntry: renamed[unit.name].flatMap { name in lock.units[name].map { (name, $0) } })
            guard let (_, entry) = context.lockEntry,
                  let comparison = DefaultGroupComparison(entry: entry, unit: unit, list: context.accessGroups),
                  comparison.cause != nil else { continue }
            out[unit.name] = (comparison.oldDefault, comparison.newDefault, lock.reference ?? "lock file")
        }
        return out
    }
}
