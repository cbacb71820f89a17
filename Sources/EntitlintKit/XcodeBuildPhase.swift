public import EntitlintCore
public import EntitlintWorkspace

/// A lint run from an Xcode Run Script build phase: the unit being built (one target in one
/// configuration) is read from the build's environment, and only the findings that concern it
/// are reported. Every other unit of the project is still read, so the rules that compare a unit
/// with its host app or its siblings see the whole family; a flag such as `--bundle-id` is never
/// used for the project, so a per-configuration bundle ID stays per configuration.
public struct XcodeBuildPhase: Sendable, Equatable {
    public var target: String
    public var configuration: String
    /// `SRCROOT`: the folder of the project, where the phase runs.
    public var sourceRoot: String
    /// `PROJECT_FILE_PATH`: the `.xcodeproj` being built (absolute), when set.
    public var projectPath: String?
    /// `CODE_SIGN_ENTITLEMENTS` as the build resolved it (relative to `SRCROOT` or absolute).
    public var entitlements: String?
    public var bundleID: String?
    public var teamID: String?

    /// The build phase's facts from `environment`; nil when it is not an Xcode build (no target,
    /// configuration or source root), which the caller reports as a usage error.
    public init?(environment: [String: String]) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let target = value("TARGET_NAME"), let configuration = value("CONFIGURATION"), let root = value("SRCROOT") else { return nil }
        self.target = target
        self.configuration = configuration
        sourceRoot = root
        projectPath = value("PROJECT_FILE_PATH")
        entitlements = value("CODE_SIGN_ENTITLEMENTS")
        bundleID = value("PRODUCT_BUNDLE_IDENTIFIER")
        teamID = value("DEVELOPMENT_TEAM")
    }

    /// The entitlements file, absolute.
    public var entitlementsPath: String? {
        entitlements.map { $0.hasPrefix("/") ? $0 : Paths.absolute($0, cwd: sourceRoot) }
    }

    /// The run over the project (its `.xcodeproj`, else the source root).
    public func projectRequest(failOn: Severity?, strict: Bool) -> LintRequest {
        LintRequest(paths: [projectPath ?? sourceRoot], failOn: failOn, strict: strict, allowEmpty: true)
    }

    /// The run over the entitlements file alone with the build's own bundle ID and team, for a
    /// target the project reader did not find (a project Entitlint cannot read whole): the flags
    /// then describe exactly the one unit being built.
    public func fileRequest(failOn: Severity?, strict: Bool) -> LintRequest? {
        guard let path = entitlementsPath else { return nil }
        var facts = FactRequest(bundleID: bundleID, teamID: teamID.flatMap { $0.isTeamIDLike ? $0 : nil })
        facts.readsProjects = false
        return LintRequest(paths: [path], facts: facts, failOn: failOn, strict: strict, allowEmpty: true)
    }

    /// The units of `units` that are the one being built: its target in its configuration (every
    /// platform variant of it), in the project being built when the build names it.
    public func builtUnits(_ units: [SigningUnit]) -> [SigningUnit] {
        units.filter { unit in
            guard let origin = unit.origin, origin.target == target, origin.configuration == configuration else { return false }
            guard let projectPath else { return true }
            // An Xcode project's units come from the `project.pbxproj` inside the `.xcodeproj` the
            // build names; an XcodeGen spec's from `project.yml` beside it: both tests are needed.
            return Paths.absolute(origin.projectFile).hasPrefix(Paths.absolute(projectPath) + "/")
                || Paths.directoryName(Paths.absolute(origin.projectFile)) == Paths.directoryName(Paths.absolute(projectPath))
        }
    }

    /// The findings of `result` that concern the built units.
    public func findings(of result: LintResult, built: [SigningUnit]) -> [Finding] {
        let names = Set(built.map(\.name))
        let index = UnitIndex(result.units)
        return result.findings.filter { f in index.unitNames(of: f).contains { names.contains($0) } }
    }
}
