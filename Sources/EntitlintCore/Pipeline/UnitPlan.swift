import PropertyList
import Provisioning

/// One signing unit as a run plans to check it: which rules may see it, whether its findings are
/// reported, and which units it is compared with.
public struct PlannedUnit: Sendable {
    /// Which of the per-unit rules check the unit.
    public enum Checks: Sendable, Hashable {
        /// Every rule: a unit the run is about.
        case all
        /// Only the rules about a file that nothing uses (`RuleStage.deadFileRules`): an
        /// entitlements file inside a project's folders that no target signs with.
        case deadFile
        /// Only the rules that judge a file alone (`RuleDescription.readsOnlyTheFile`): a
        /// variant of a used file (a copy for another build system or configuration).
        case fileAlone
        /// None: a unit formed only to be compared with (a project's other targets when one
        /// file was named). Its findings are never reported.
        case none
    }

    public var unit: SigningUnit
    public var checks: Checks
    /// The app family the unit's project rules compare it within; nil: it takes no part in
    /// project rules (a loose file in a run without projects has no facts to compare).
    public var family: String?
    /// A built product's unit: its findings have no line (the key path says where).
    public var lineless: Bool

    public init(_ unit: SigningUnit, checks: Checks = .all, family: String? = nil, lineless: Bool = false) {
        self.unit = unit
        self.checks = checks
        self.family = family
        self.lineless = lineless
    }

    /// Whether the run reports on the unit (every unit but context).
    public var isReported: Bool { checks != .none }
}

/// What the pipeline checks in one run: the planned units and everything the rules read besides
/// them. Built by each entry point; `Linter.run` is the rest.
public struct UnitPlan: Sendable {
    public var units: [PlannedUnit]
    /// Profiles named as files (on the command line, standard input): checked by the profile
    /// rules even when they sign no unit of the run.
    public var namedProfiles: [ProfileFile] = []
    public var lock: LockFile?
    public var settings: CheckSettings
    /// For per-file ignores; the severities come with the `Linter`.
    public var configuration: Configuration?
    /// The code the units in scope compile, read by the code rules.
    public var codeIndex: CodeIndex?
    /// Findings of the stages before the rules (a file that cannot be read or parsed, a folder
    /// that cannot be walked, a project that cannot be read): post-processed with the rest.
    public var earlierFindings: [Finding] = []
    /// The folders the run walked (absolute), asked for only when a lock entry pairs with no
    /// unit; and whether nothing is at a path below one of them (`RuleStage.referenceFindings`).
    public var walkedFolders: @Sendable () -> [String] = { [] }
    public var isMissing: @Sendable (String) -> Bool = { _ in false }
    /// Findings reported at most (`RunLimits`); the rest are counted in one last finding.
    public var maxFindings = Int.max
    /// Threads for the per-unit rules (`Parallel.forEach`): 0 one per core, 1 none.
    public var jobs = 1
    /// App families whose project-rule findings are reported on every unit, context units
    /// included (a pre-commit run: a changed host moves what its unchanged extensions share).
    /// Context units still get no per-unit rule and no code read.
    public var reportedFamilies: Set<String> = []
    /// Project files the discovery read that may hold inline directives (xcconfig files, YAML
    /// specs), as shown: read for them even where the run found nothing (`Linter.run`).
    public var projectDirectiveFiles: [String] = []

    public init(units: [PlannedUnit], lock: LockFile? = nil, settings: CheckSettings = CheckSettings(),
                configuration: Configuration? = nil) {
        self.units = units
        self.lock = lock
        self.settings = settings
        self.configuration = configuration
    }

    /// The units the run reports on, in plan order (one copy of each, in one pass).
    public var reportedUnits: [SigningUnit] {
        var out: [SigningUnit] = []
        out.reserveCapacity(units.count)
        // Read in place: copying a whole planned unit costs a retain per field.
        for i in units.indices where units[i].isReported { out.append(units[i].unit) }
        return out
    }

    /// The units findings can be about, in plan order: the reported ones and the context units of
    /// `reportedFamilies`, whose findings are folded across configurations like any other's.
    /// (Only reported units' directives are read: a context unit's file is not checked, so its
    /// directives could not be judged used or unused.)
    public var findingUnits: [SigningUnit] {
        guard !reportedFamilies.isEmpty else { return reportedUnits }
        var out: [SigningUnit] = []
        for planned in units where planned.isReported || planned.family.map(reportedFamilies.contains) == true {
            out.append(planned.unit)
        }
        return out
    }
}
