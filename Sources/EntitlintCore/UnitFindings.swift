/// What `entitlint report` shows of a lint run per unit: which findings concern it, and whether
/// its default access group moved since the reference (the lock file or `--against REV`).
/// Both come from the run's own results and the drift rule's comparison, never from rules of
/// their own.
extension Linter {
    /// The names of the units (among `units`) a finding concerns. A finding names one unit
    /// (`Finding.unit`); one that several configurations of a file share was folded into one
    /// (`foldConfigurations`), which lists them (` (in A, B)`) when only some of the file's units
    /// have it and lists none when all do. A finding naming no unit concerns every unit read
    /// from its file.
    public static func unitNames(of finding: Finding, in index: UnitIndex) -> [String] {
        let sameFile = index.byFile[finding.path] ?? []
        guard let named = finding.unit else { return sameFile }
        guard sameFile.contains(named) else { return index.names.contains(named) ? [named] : [] }
        if let listed = Self.foldedNames(finding.message, among: sameFile) { return listed }
        return sameFile
    }

    /// The units of a run by name and by the file they were read from (as findings show it),
    /// built once so that placing each finding costs a lookup.
    public struct UnitIndex: Sendable {
        public var names: Set<String>
        public var byFile: [String: [String]]

        public init(_ units: [SigningUnit]) {
            names = Set(units.map(\.name))
            byFile = [:]
            for u in units { byFile[u.entitlementsPath, default: []].append(u.name) }
        }
    }

    /// The unit names a folded message ends with (` (in A, B)`), when every one is a unit of the
    /// file; nil when the message lists none.
    static func foldedNames(_ message: String, among names: [String]) -> [String]? {
        guard message.hasSuffix(")"), let open = message.range(of: " (in ", options: .backwards) else { return nil }
        let inner = message[open.upperBound..<message.index(before: message.endIndex)]
        // Names may hold ", " themselves: take the longest known name at each position.
        var rest = Substring(inner)
        var found: [String] = []
        while !rest.isEmpty {
            guard let name = names.filter({ rest.hasPrefix($0) }).max(by: { $0.count < $1.count }) else { return nil }
            found.append(name)
            rest = rest.dropFirst(name.count)
            if rest.isEmpty { break }
            guard rest.hasPrefix(", ") else { return nil }
            rest = rest.dropFirst(2)
        }
        return found.isEmpty ? nil : found
    }

    /// For each unit (by name) whose default access group moved since the reference of the run
    /// (`options.lock` from `--against`, else the lock file `lint` reads), the old and new
    /// defaults that `default-group-drift` reports, and the reference (`lock file`, or the
    /// revision as `--against` names it): units are paired with entries as the rule pairs them
    /// (`LockFile.pair`), and compared in the same form (`DefaultGroupComparison`). Empty when
    /// there is no reference. Units formed only as context of the run are not passed here, so an
    /// entry of such a unit could pair with a renamed unit that the linter would not pair it with.
    public static func defaultMoves(units: [SigningUnit], options: LintOptions,
                                    cwd: String = Paths.currentDirectory()) throws(UsageError)
        -> [String: (from: String, to: String, reference: String)] {
        var reading = options
        reading.readLock = true
        let lock: LockFile?
        do { lock = try loadLock(reading) } catch { throw UsageError("\(error)") }
        guard let lock, !lock.units.isEmpty else { return [:] }
        let used = units.filter { !$0.isUnused }
        let (renamed, _) = lock.pair(used, all: Set(used.map(\.name)), cwd: cwd)
        var out: [String: (from: String, to: String, reference: String)] = [:]
        for unit in used {
            let context = UnitContext(unit: unit, lock: lock, settings: options.settings,
                                      lockEntry: renamed[unit.name].flatMap { name in lock.units[name].map { (name, $0) } })
            guard let (_, entry) = context.lockEntry,
                  let comparison = DefaultGroupComparison(entry: entry, unit: unit, list: context.accessGroups),
                  comparison.cause != nil else { continue }
            out[unit.name] = (comparison.oldDefault, comparison.newDefault, lock.reference ?? "lock file")
        }
        return out
    }
}
