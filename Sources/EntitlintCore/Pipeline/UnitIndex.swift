/// The units of a run by name and by the file they were read from (as findings show it), built
/// once so that placing each finding costs a lookup. What `entitlint report` shows of a lint run
/// per unit (which findings concern it) comes from the run's own results through it, never from
/// rules of its own.
public struct UnitIndex: Sendable {
    public var names: Set<String>
    public var byFile: [String: [String]]

    public init(_ units: [SigningUnit]) {
        names = Set(units.map(\.name))
        byFile = [:]
        for u in units { byFile[u.entitlementsPath, default: []].append(u.name) }
    }

    /// The names of the units a finding concerns. A finding names one unit (`Finding.unit`); one
    /// that several configurations of a file share was folded into one
    /// (`FindingStage.foldConfigurations`), which lists them (`Finding.units`) when only some of
    /// the file's units have it and lists none when all do. A finding naming no unit concerns
    /// every unit read from its file.
    public func unitNames(of finding: Finding) -> [String] {
        let sameFile = byFile[finding.path] ?? []
        guard let named = finding.unit else { return sameFile }
        guard sameFile.contains(named) else { return names.contains(named) ? [named] : [] }
        let listed = finding.units.filter(sameFile.contains)
        if !listed.isEmpty { return listed }
        return sameFile
    }
}
