/// What the scanner reports of one Swift or Objective-C source file: the places that hand the
/// keychain an access group, the places that save an item without one, and the string constants
/// the file defines (for resolving the groups of other files of the same unit).
///
/// The scanner is a lexer, not a compiler: it recognises the idioms listed in the README
/// ("Keychain groups in code") and says "unknown" for everything else, never guessing.

/// The language of a source file, from its extension.
public enum SourceLanguage: String, Sendable, Hashable {
    case swift
    case objectiveC

    /// The extensions read as Objective-C (and C, C++).
    public static let cFamily = [".m", ".mm", ".h", ".c", ".cc", ".cpp", ".cxx", ".hpp", ".hh"]

    /// `.swift` is Swift; `.m`, `.mm`, `.h` and the C and C++ files a target may compile (`.c`,
    /// `.cc`, `.cpp`, `.cxx`, `.hpp`, `.hh`) are read by the Objective-C lexer (the C it is built
    /// on: literals, adjacent-literal joining, `CFSTR`, `#define`); anything else is not scanned.
    public init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".swift") {
            self = .swift
        } else if Self.cFamily.contains(where: { lower.hasSuffix($0) }) {
            self = .objectiveC
        } else {
            return nil
        }
    }
}

/// An expression that builds a string, as the code writes it.
public indirect enum StringExpression: Sendable, Hashable {
    /// A string literal, escapes decoded (`"com.example.shared"`, `@"…"`, `CFSTR("…")`).
    case literal(String)
    /// A name, possibly qualified, as written: `["AppConstants", "AppGroups", "main"]`;
    /// `self.group` and `Self.group` are `["group"]`. A call without arguments of a function
    /// returning a string ends in `name()`: `Keys.group()` is `["Keys", "group()"]`.
    case reference([String])
    /// A value read from the unit's Info.plist: `Bundle.main.object(forInfoDictionaryKey: "K")`,
    /// `Bundle.main.infoDictionary?["K"]`, `[[NSBundle mainBundle] objectForInfoDictionaryKey:@"K"]`, ...
    case infoPlist(key: String)
    /// Parts joined in order: `+`, string interpolation, `stringByAppendingString:`,
    /// `stringWithFormat:` with `%@` placeholders.
    case concatenation([StringExpression])
    /// Anything else (a call, a parameter, a `var`, an optional chain the scanner does not
    /// follow): a short description of what is written there, for messages.
    case unknown(String)
    /// What the scanner did not read because it is past one of its bounds (an expression longer
    /// than 4,096 tokens, a statement that starts inside another one, a type nested too deep):
    /// unknown, and, unlike `unknown`, a bound the run reports.
    case overLimit(String)
    /// One of several values (`ValueSets.swift`): the returns of a computed property, the two
    /// sides of a ternary; at most `Alternative.maxValues`.
    case alternatives([Alternative])
}

/// A place where code hands the keychain an access group.
public struct KeychainGroupSite: Sendable, Hashable {
    public var line: Int
    public var column: Int
    /// How the group reaches the keychain: `kSecAttrAccessGroup`, `KeychainAccess accessGroup:`,
    /// `KeychainSwift accessGroup`, `Valet sharedGroupIdentifier`, ...
    public var api: String
    public var value: StringExpression
    /// The `#if` condition the place is compiled under (the enclosing `#if`/`#elseif`/`#else`
    /// branches, nested ones joined with `&&`), nil when it is in none.
    public var condition: CompilationCondition?

    public init(line: Int, column: Int, api: String, value: StringExpression, condition: CompilationCondition? = nil) {
        self.line = line
        self.column = column
        self.api = api
        self.value = value
        self.condition = condition
    }
}

/// A place where code saves a keychain item and the query names no access group, so the item
/// goes to the unit's default group.
public struct KeychainSaveSite: Sendable, Hashable {
    public var line: Int
    public var column: Int
    /// `SecItemAdd`, `KeychainAccess Keychain(service:)`, ...
    public var api: String
    /// The query asks for the data-protection keychain (`kSecUseDataProtectionKeychain: true`) or
    /// a synchronizable item: on macOS only those items live in access groups.
    public var dataProtectionKeychain: Bool

    public init(line: Int, column: Int, api: String, dataProtectionKeychain: Bool) {
        self.line = line
        self.column = column
        self.api = api
        self.dataProtectionKeychain = dataProtectionKeychain
    }
}

/// A string constant the file defines: `let`/`static let` (Swift), `#define`, `NSString * const`
/// (Objective-C), and function-local `let`s (with `scope`).
public struct StringDefinition: Sendable, Hashable {
    /// The enclosing types and the name: `["AppConstants", "AppGroups", "main"]`; an Objective-C
    /// macro or global constant is just its name.
    public var path: [String]
    public var line: Int
    public var value: StringExpression
    /// For a local constant: the lines of the block it is visible in; nil for a file-level or
    /// type member constant (visible to the whole unit).
    public var scope: ClosedRange<Int>?
    /// The `#if` condition the definition is compiled under, nil when it is not in one.
    public var condition: CompilationCondition?

    public init(path: [String], line: Int, value: StringExpression, scope: ClosedRange<Int>? = nil,
                condition: CompilationCondition? = nil) {
        self.path = path
        self.line = line
        self.value = value
        self.scope = scope
        self.condition = condition
    }
}

/// A Swift `typealias NAME = A.B` (at file level or in a type): a name written in place of a
/// type's, so `NAME.member` is `A.B.member`.
public struct TypeAliasDefinition: Sendable, Hashable {
    /// The enclosing types and the alias's name.
    public var path: [String]
    public var line: Int
    /// The type it names, as written.
    public var target: [String]

    public init(path: [String], line: Int, target: [String]) {
        self.path = path
        self.line = line
        self.target = target
    }
}

/// The result of scanning one file.
public struct ScannedSource: Sendable, Hashable {
    public var groups: [KeychainGroupSite] = []
    public var saves: [KeychainSaveSite] = []
    public var definitions: [StringDefinition] = []
    public var aliases: [TypeAliasDefinition] = []

    public init(groups: [KeychainGroupSite] = [], saves: [KeychainSaveSite] = [], definitions: [StringDefinition] = [],
                aliases: [TypeAliasDefinition] = []) {
        self.groups = groups
        self.saves = saves
        self.definitions = definitions
        self.aliases = aliases
    }
}

public enum SourceScanner {
    /// Scans one file. Work is linear in the size of `bytes` (plus the sites found); nothing
    /// recurses on the input's nesting beyond a fixed depth.
    public static func scan(_ bytes: [UInt8], language: SourceLanguage) -> ScannedSource {
        scanCountingWork(bytes, language: language).source
    }

    /// Scans one file and says how much work that took (for tests that bound it).
    public static func scanCountingWork(_ bytes: [UInt8], language: SourceLanguage) -> (source: ScannedSource, work: ScanWork) {
        switch language {
        case .swift: SiteExtractor.extract(SwiftLexer.tokenize(bytes), swift: true)
        case .objectiveC: SiteExtractor.extract(ObjCLexer.tokenize(bytes), swift: false)
        }
    }
}

/// The work a scan did beyond the one pass of the lexer: statement walks and expressions read.
public struct ScanWork: Sendable, Hashable {
    /// The tokens the lexer made.
    public var tokens = 0
    /// Units (tokens, bracket groups, whole strings) passed by the walks that find where
    /// statements end: each token at most once.
    public var walkedUnits = 0
    /// Tokens passed looking for declarations' parameter clauses: each at most once.
    public var clauseTokens = 0
    /// Expressions read, and the tokens in them (an expression past the size bound counts as
    /// the bound plus one: it is not read).
    public var parses = 0
    public var parsedTokens = 0

    public init() {}
}

/// A group expression resolved against the definitions of a unit's files and its Info.plist.
public struct ResolvedString: Sendable, Hashable {
    /// The string, when every part is known. Info.plist values are inserted as the project's
    /// build settings left them, so `$(AppIdentifierPrefix)` may remain for the caller to expand.
    public var value: String?
    /// Why the value is not known (`a parameter "group"`, `a call to makeGroup()`), when it is not.
    public var unknown: String?
    /// True when some part came from the Info.plist (the code does not spell the prefix itself).
    public var usesInfoPlist: Bool
    /// True when the value is a single string literal written at the site itself.
    public var isLiteralAtSite: Bool
    /// How it was resolved, for messages: `AppConstants.AppGroups.main (App/Constants.swift:12)`,
    /// `Info.plist AppIdentifierPrefix`; the first `StringResolver.maxKeptSteps` of them.
    public var steps: [String]
    /// When the value is unknown because a bound of the scanner or the resolver was met (an
    /// expression too long, references too deep, the step budget): which one. Such a value is
    /// never guessed; the run says once that values were left unresolved.
    public var limit: String?
    /// A string literal written in the code (not an Info.plist value) that holds `$(` or `${`:
    /// build settings are expanded in property lists, never in code, so the keychain gets that
    /// text as written.
    public var variableInCode: String?
    /// When the expression has several possible values (the cases of a `switch`, the sides of a
    /// ternary, `#if` branches): each, resolved on its own (its steps start with how the code
    /// reaches it); `value` is then nil. At most `Alternative.maxValues`.
    public var alternatives: [ResolvedString] = []
    /// The `#if` condition this value is compiled under when the unit's build settings do not
    /// decide it (a platform test, or settings not known): the value may never be built.
    public var undecided: String?

    public init(value: String?, unknown: String?, usesInfoPlist: Bool, isLiteralAtSite: Bool, steps: [String], limit: String? = nil) {
        self.value = value
        self.unknown = unknown
        self.usesInfoPlist = usesInfoPlist
        self.isLiteralAtSite = isLiteralAtSite
        self.steps = steps
        self.limit = limit
    }
}
