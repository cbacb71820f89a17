import EntitlintCore

extension Linter {
    /// The app families of the project units a run over changed files checks in full: each such
    /// unit is in scope because a file it uses changed. Loose files (no project read signs with
    /// them) add no family, so a run that changed only loose files reports on them alone.
    static func changedFamilies(_ planned: [PlannedUnit]) -> Set<String> {
        Set(planned.lazy.filter { $0.checks == .all && $0.unit.origin != nil }.compactMap(\.family))
    }
}
