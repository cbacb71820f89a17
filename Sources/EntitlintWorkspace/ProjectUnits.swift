public import EntitlintCore
public import PropertyList

/// A unit as a project defines it, before the run's flags, config and profiles are applied.
public struct DiscoveredUnit: Sendable {
    /// Unique in the run: `AppOne (Release)`.
    public var name: String
    /// The entitlements file, usable from the current folder; nil when the target names none.
    public var entitlementsPath: String?
    /// What findings about the entitlements name: the entitlements file as shown, or the project
    /// file for a target without one.
    public var shownPath: String
    public var document: PlistDocument
    public var bundleID: Fact<String>?
    public var teamID: Fact<String>?
    public var platform: Platform
    public var origin: UnitOrigin
    /// Values of the build settings the entitlements refer to (`$(MY_GROUP)`).
    public var variables: [String: String]
    /// False for units that are only context for project rules (the other targets of a project
    /// when the run named one file of it): they are not linted, and findings about them are dropped.
    public var inScope: Bool
    /// The app family the unit belongs to: the workspace that names its project, else the project
    /// (or XcodeGen spec) itself, as an absolute path. Project rules compare the units of one family.
    public var family = ""

    public init(name: String, entitlementsPath: String?, shownPath: String, document: PlistDocument, bundleID: Fact<String>?,
                teamID: Fact<String>?, platform: Platform, origin: UnitOrigin, variables: [String: String], inScope: Bool) {
        self.name = name
        self.entitlementsPath = entitlementsPath
        self.shownPath = shownPath
        self.document = document
        self.bundleID = bundleID
        self.teamID = teamID
        self.platform = platform
        self.origin = origin
        self.variables = variables
        self.inScope = inScope
    }
}

/// What discovery found for a run.
public struct Discovery: Sendable {
    public var units: [DiscoveredUnit] = []
    /// Problems with the projects themselves (`parse-error`: damaged files, dangling references,
    /// missing xcconfig or entitlements files; `unresolved-variable`: settings that cannot be resolved).
    public var findings: [Finding] = []
    /// What the run could not see in the projects (files a fresh clone lacks): said, not findings.
    public var notices: [Notice] = []
    /// The files read for the units in scope (project files, xcconfigs, entitlements), as shown.
    public var files: [String] = []
    /// Absolute paths of the entitlements files the units use: not linted again as loose files.
    public var claimed: Set<String> = []
    /// Absolute folders of the projects, workspaces and specs found: an entitlements file below one
    /// that no unit claims is unused.
    public var projectFolders: [String] = []
    /// Absolute paths of entitlements files a project's build settings name as a choice (a
    /// variant picked by another setting): not unused, though no configuration read chose them.
    public var mentioned: Set<String> = []
    /// Whether a file (absolute path) matches what a setting names through a variable
    /// (`App$(SUFFIX).entitlements`): a variant, not unused.
    public var isMentioned: @Sendable (String) -> Bool = { _ in false }
    /// The folder of each project, workspace and spec read (absolute) and its family: a loose
    /// entitlements file belongs to the family of the deepest of these folders that holds it.
    public var familyFolders: [(folder: String, family: String)] = []

    /// The family of a loose file (absolute path): the deepest project folder holding it, else "".
    public func family(ofLoose absolutePath: String) -> String {
        var best: (folder: String, family: String)?
        for f in familyFolders where absolutePath.hasPrefix(f.folder == "/" ? "/" : f.folder + "/") {
            if best == nil || f.folder.utf8.count > best!.folder.utf8.count { best = f }
        }
        return best?.family ?? ""
    }

    /// Whether a build setting names the file at `absolutePath` as a choice (`mentioned`,
    /// `isMentioned`): a variant of a target.
    public func isVariant(_ absolutePath: String) -> Bool {
        mentioned.contains(absolutePath) || isMentioned(absolutePath)
    }

    /// Absolute folders of builds of kinds not read as projects (CMake, Bazel, Tuist) whose build
    /// files name entitlements files: an entitlements file below one that none names is unused.
    public var foreignFolders: [String] = []
    /// Absolute paths of provisioning profiles a build file names (Bazel's `provisioning_profile`):
    /// checked by the profile rules as if named on the command line.
    public var namedProfiles: [String] = []

    /// The units, embedded profiles, problems and files of the built products the sources took
    /// whole (`DiscoverySource.takes(input:)`): complete units, checked as they are.
    public var built = ArtifactReadResult()

    /// Whether the run found anything that decides which loose files are used.
    public var hasProjects: Bool { !projectFolders.isEmpty || !foreignFolders.isEmpty }

    /// Whether the loose file at `absolutePath` lies in the folders of a project found.
    public func isInProjectFolder(_ absolutePath: String) -> Bool {
        (projectFolders + foreignFolders).contains { absolutePath.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }

    public init() {}
}

extension LintOptions {
    /// The command-line paths the sources take whole (built products), none from a revision's files.
    var sourceInputs: [String] {
        guard virtualFiles == nil, !discoverySources.isEmpty else { return [] }
        return paths.filter { discoverySources.takeInput($0) }
    }

    /// Runs every source with the files the walk collected and its own `inputs`, and merges what
    /// they find (`Discovery.merge`); the project files, and the entitlements files the units
    /// use, leave `files`. Nil when no source is registered.
    func discoverProjectUnits(inputs: [String], files: inout [String], cwd: String) -> Discovery? {
        let sources = discoverySources
        guard !sources.isEmpty else { return nil }
        var request = DiscoveryRequest(files: files, options: self, cwd: cwd)
        request.superseded = Set(sources.flatMap { $0.supersededProjects(request) })
        let parts = sources.map { source in
            var own = request
            own.inputs = inputs.filter { source.takes(input: $0) }
            return (source: source.name, discovery: source.discover(own))
        }
        let discovery = Discovery.merge(parts, cwd: cwd)
        files.removeAll { sources.walks($0) }
        if !discovery.claimed.isEmpty {
            files.removeAll { discovery.claimed.contains(Paths.absolute($0, cwd: cwd)) }
        }
        return discovery
    }

}

extension Discovery {
    /// The paths checked by a run: the loose ones, then the project ones not already listed.
    static func withProjectPaths(_ loose: [String], _ discovery: Discovery?) -> [String] {
        guard let discovery, !discovery.files.isEmpty else { return loose }
        var seen = Set(loose)
        return loose + discovery.files.filter { seen.insert($0).inserted }
    }
}
