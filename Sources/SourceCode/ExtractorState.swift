/// The state `SiteExtractor` keeps per open block, per query dictionary and per statement read.

/// What a query dictionary kept in a local variable holds so far.
struct QueryState {
    /// The dictionary literal's opening bracket, or -1 for an empty dictionary.
    var literal: Int
    var hasGroup = false
    var dataProtection = false
}

/// A `{...}` block open at the current token: what it is (a type body, a function, a computed
/// property's body, another block) and what it declares.
struct OpenBlock {
    enum Kind { case type, function, getter, other }
    var kind: Kind
    var typePath: [String]
    /// Inside a type nested deeper than `maxTypePath` components: its constants are not read.
    var typeTooDeep = false
    var openLine: Int
    var open: Int
    var close: Int
    /// Local names: true for a constant (`let`, `guard let`), false for a variable.
    var locals: [String: Bool] = [:]
    var params: Set<String> = []
    var queries: [String: QueryState] = [:]
    /// Definitions made in this block, whose scope is set when it closes.
    var scoped: [Int] = []
    /// For a computed property: its path, and the `return` expressions met in its body.
    var getterPath: [String] = []
    /// The token of the computed property's name.
    var getterToken = 0
    var returns: [GetterReturn] = []
    var stringEnum = false
    /// Locals holding a Locksmith 1.x `LocksmithRequest(...)`.
    var locksmithRequests: Set<String> = []
}

/// A site or definition whose value names something the file's later text may classify:
/// a stored property of the enclosing type (`self.x`, or `x` declared below the use).
enum PendingValue { case group(Int), definition(Int) }

/// A `return` of a computed property: its expression, the `#if` condition it is compiled
/// under, and how the code reaches it (`case .beta`), for messages.
struct GetterReturn {
    var extent: StatementExtent
    var condition: CompilationCondition?
    var label: String
    var line: Int
}

/// Where a statement read from a token ends (the token after it), and, when it is not to be
/// read, why (`limit`: longer than `maxUnits` units, or starting inside a statement already read).
struct StatementExtent {
    var lo: Int
    var end: Int
    var limit: String?

    var range: Range<Int> { lo..<max(lo, end) }
}
