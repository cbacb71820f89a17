public import PropertyList
import Provisioning

/// The entry points for what is already in memory (rule examples, library users): each forms its
/// units and plans them, and `run` does the rest, as for files.
extension Linter {
    /// Lints one in-memory entitlements file with the given facts, without touching the file system.
    public func lint(entitlements bytes: [UInt8], path: String, name: String? = nil, bundleID: String? = nil,
                     teamID: String? = nil, profile: ProfileFile? = nil, lock: LockFile? = nil,
                     limits: PlistLimits = .default) -> [Finding] {
        var plan = UnitPlan(units: [], lock: lock)
        switch DocumentReader.parse(bytes: bytes, path: path, limits: limits) {
        case .failed(let reason, let loc):
            plan.earlierFindings.append(Finding(rule: ToolFindings.parseError, severity: .error, message: "cannot parse property list: \(reason)",
                                                path: path, line: loc.line, column: loc.column))
        case .unread(let reason, let rule):
            plan.earlierFindings.append(Finding(rule: rule, severity: .error, message: "cannot parse property list: \(reason)", path: path))
        case .profile:
            break
        case .entitlements(let doc):
            plan.units = [PlannedUnit(unit(document: doc, path: path, name: name, bundleID: bundleID, teamID: teamID, profile: profile))]
        }
        return run(plan).findings
    }

    /// Checks one unit formed by the caller, as `lint` does: the unit rules, then the profile
    /// rules on its profile, then post-processing.
    public func check(_ unit: SigningUnit, lock: LockFile? = nil, settings: CheckSettings = CheckSettings()) -> [Finding] {
        run(UnitPlan(units: [PlannedUnit(unit)], lock: lock, settings: settings)).findings
    }

    /// Lints units formed elsewhere as one app family: the per-unit rules on each, the project
    /// rules over all of them, the reference and profile rules, then post-processing.
    public func lint(units: [SigningUnit], lock: LockFile? = nil, settings: CheckSettings = CheckSettings(),
                     codeIndex: CodeIndex? = nil) -> [Finding] {
        var plan = UnitPlan(units: units.map { PlannedUnit($0, family: "") }, lock: lock, settings: settings)
        plan.codeIndex = codeIndex
        return run(plan).findings
    }

    /// The unit of an in-memory entitlements document with the given facts, formed as `lint`
    /// forms units (for rule examples and library users).
    public func unit(document: PlistDocument, path: String, name: String? = nil, bundleID: String? = nil,
                     teamID: String? = nil, profile: ProfileFile? = nil) -> SigningUnit {
        var unit = UnitFormer.makeUnit(path: path, shown: path, document: document, facts: StatedFacts(teamID: teamID, bundleID: bundleID),
                                       profiles: ProfileIndex(profile.map { [$0] } ?? []),
                                       byAbs: [:], cwd: UnitFormer.inMemoryFolder, pairedWith: profile)
        if let name { unit.name = name }
        return unit
    }
}
