import PropertyList

/// A rule over every unit of a run at once: sharing across targets. It is a `Rule` too, so it has a description, examples, docs and a
/// severity setting like the others; its per-unit check finds nothing.
///
/// The linter runs project rules when the run has units that a project (an Xcode project or an
/// XcodeGen spec) defines, over all units of the run (loose entitlements files included): a run
/// over loose files alone does not know which apps belong together. Findings about units that are
/// only there as context (the other targets of a project when one file was named) are dropped.
public protocol ProjectRule: Rule {
    func check(project units: [UnitContext]) -> [Finding]
}

extension ProjectRule {
    public var asProjectRule: (any ProjectRule)? { self }
    public func check(_ context: UnitContext) -> [Finding] { [] }
}

/// One signing unit of a project rule's example: a target in one configuration, with its
/// entitlements (a `<dict>` body, `↓` marking where findings are expected) and the facts the
/// project would give it.
public struct ProjectExampleUnit: Sendable, Hashable {
    public var target: String
    public var kind: UnitOrigin.Kind
    public var bundleID: String?
    public var teamID: String?
    /// The app target that embeds this one.
    public var host: String?
    public var platform: Platform
    public var configuration: String
    public var entitlements: String
    /// The Swift and Objective-C files the target compiles, by path (`Shared/Keychain.swift`),
    /// `↓` marking where findings are expected. Units that name the same path share the file
    /// (give it the same text). Nil: the project does not say what the target compiles.
    public var sources: [String: String]?
    /// The string entries of the target's Info.plist, as the build settings leave them.
    public var infoPlist: [String: String]
    /// The preprocessor macros the configuration's build settings define for Objective-C and C
    /// (`GCC_PREPROCESSOR_DEFINITIONS`), name to value; nil: not known.
    public var macros: [String: String]?
    /// The Swift active compilation conditions of the configuration (`SWIFT_ACTIVE_COMPILATION_CONDITIONS`);
    /// nil: not known.
    public var swiftConditions: Set<String>?

    public init(_ target: String, kind: UnitOrigin.Kind = .app, bundleID: String? = nil, teamID: String? = nil, host: String? = nil,
                platform: Platform = .iOS, configuration: String = "Release", entitlements: String,
                sources: [String: String]? = nil, infoPlist: [String: String] = [:], macros: [String: String]? = nil,
                swiftConditions: Set<String>? = nil) {
        self.sources = sources
        self.infoPlist = infoPlist
        self.macros = macros
        self.swiftConditions = swiftConditions
        self.target = target
        self.kind = kind
        self.bundleID = bundleID
        self.teamID = teamID
        self.host = host
        self.platform = platform
        self.configuration = configuration
        self.entitlements = entitlements
    }

    /// The file the example unit's entitlements are read from: `<Target>.entitlements`.
    public var path: String { target + ".entitlements" }
}

extension RuleExample {
    /// An example made of several units of one project (for project rules).
    public static func project(_ units: [ProjectExampleUnit], comment: String? = nil,
                               file: String = #filePath, line: Int = #line) -> RuleExample {
        var example = RuleExample(units.first?.entitlements ?? "", comment: comment, file: file, line: line)
        example.project = units
        return example
    }
}
