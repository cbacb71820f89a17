/// What a project says one unit compiles: its Swift and Objective-C sources, those of the local
/// Swift packages it links, and its Info.plist entries (what code reads the App ID prefix from).
/// Set by the Xcode and XcodeGen discovery; nil for loose files and built products, whose code is
/// not known (the code rules are then silent about them).
public struct UnitSources: Sendable, Hashable {
    /// Absolute paths of the `.swift`, `.m`, `.mm` and `.h` files the unit compiles, inside the
    /// project root, each once, in project order: the target's own (its sources build phase, its
    /// synchronised folders minus their exceptions, or an XcodeGen target's `sources`) and those
    /// of the targets of the local Swift packages whose products it links.
    public var files: [String]
    /// Files the project lists for the unit that are not on disk (or lie outside the project
    /// root), as shown in messages: what the unit really compiles is then only partly known.
    public var missing: [String]
    /// What the unit compiles that is not scanned, one line each: `remote Swift package
    /// KeychainAccess`, `CocoaPods (Pods-App.xcconfig)`, ...
    public var unscanned: [String]
    /// The Info.plist file (as shown in messages), when the target names one that was read.
    public var infoPlistPath: String?
    /// Its string entries, evaluated with the unit's build settings; `$(AppIdentifierPrefix)` and
    /// `$(TeamIdentifierPrefix)` stay as written, for the unit's expander (code signing fills
    /// them in, not the build settings).
    public var infoPlist: [String: String]
    /// The Swift compilation conditions this configuration sets (`SWIFT_ACTIVE_COMPILATION_CONDITIONS`
    /// and `-D` flags of `OTHER_SWIFT_FLAGS`): what decides the code's `#if` branches; nil when
    /// the project does not say them all (a missing xcconfig, a generated project).
    public var compilationConditions: Set<String>?
    /// The preprocessor macros this configuration's Objective-C and C compiles get from the
    /// build settings (`GCC_PREPROCESSOR_DEFINITIONS`, `-D` of `OTHER_CFLAGS`), name to value: what
    /// decides those files' `#if` branches with the code's own `#define`s; nil when not known.
    public var preprocessorMacros: [String: String]?
    /// The same for its C++ and Objective-C++ compiles (`.mm`, `.cpp`, ...), whose flags are
    /// `OTHER_CPLUSPLUSFLAGS` (`$(OTHER_CFLAGS)` unless set) in place of `OTHER_CFLAGS`; nil when not known.
    public var cplusplusMacros: [String: String]?

    public init(files: [String] = [], missing: [String] = [], unscanned: [String] = [], infoPlistPath: String? = nil,
                infoPlist: [String: String] = [:]) {
        self.files = files
        self.missing = missing
        self.unscanned = unscanned
        self.infoPlistPath = infoPlistPath
        self.infoPlist = infoPlist
    }

    /// Whether every file the project lists for the unit was found and nothing it links is out
    /// of reach: only then can "no code names this group" be said.
    public var isComplete: Bool { missing.isEmpty && unscanned.isEmpty }
}
