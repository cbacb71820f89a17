/// What `entitlint report` shows of a lint run per unit: which findings concern it, and whether
/// its default access group moved since the reference (the lock file or `--against REV`).
/// Both come from the run's own results and the drift rule's comparison, never from rules of
/// their own.
extension Linter {
    /// The names of the units (among `units`) a finding concerns. A finding names one unit
    /// (`Finding.unit`); one that several configurations of a file share was folded into one
    /// (`foldConfigurations`), which lists them (`Finding.units`) when only some of the file's
    /// units have it and lists none when all do. A finding naming no unit concerns every unit
    /// read from its file.
    public static func unitNames(of finding: Finding, in index: UnitIndex) -> [String] {
        let sameFile = index.byFile[finding.path] ?? []
        guard let named = finding.unit else { return sameFile }
        guard sameFile.contains(named) else { return index.names.contains(named) ? [named] : [] }
        let listed = finding.units.filter(sameFile.contains)
        if !listed.isEmpty { return listed }
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
}
