/// Walks the tokens of one file once, with an explicit stack of the `{...}` blocks it is in
/// (types, functions, computed properties, other blocks), and collects keychain group sites,
/// saves without a group and string definitions. Language-specific idioms are in
/// `SiteExtractor+Swift.swift` and `SiteExtractor+ObjC.swift`, the keychain idioms in
/// `SiteExtractor+Keychain.swift`.
struct SiteExtractor {
    /// What a query dictionary kept in a local variable holds so far.
    struct QueryState {
        /// The dictionary literal's opening bracket, or -1 for an empty dictionary.
        var literal: Int
        var hasGroup = false
        var dataProtection = false
    }

    struct Block {
        enum Kind { case type, function, getter, other }
        var kind: Kind
        var typePath: [String]
        var params: [String] = []
        var openLine: Int
        var open: Int
        var close: Int
        /// Local names: true for a constant (`let`, `guard let`), false for a variable.
        var locals: [String: Bool] = [:]
        var queries: [String: QueryState] = [:]
        /// Definitions made in this block, whose scope is set when it closes.
        var scoped: [Int] = []
        /// For a computed property: its path, and the `return` expressions met in its body.
        var getterPath: [String] = []
        /// The token of the computed property's name.
        var getterToken = 0
        var returns: [Range<Int>] = []
        var stringEnum = false
        /// Locals holding a Locksmith 1.x `LocksmithRequest(...)`.
        var locksmithRequests: Set<String> = []
    }

    /// A site or definition whose value names something the file's later text may classify:
    /// a stored property of the enclosing type (`self.x`, or `x` declared below the use).
    enum Pending { case group(Int), definition(Int) }

    let src: TokenizedSource
    let parser: ExpressionParser
    let swift: Bool
    var result = ScannedSource()
    var blocks: [Block] = []
    /// Brackets open at the current token, innermost last.
    var open: [Int] = []
    /// Paren groups that are parameter clauses of declarations (`func f(accessGroup: String)`).
    var declarationParens = Set<Int>()
    /// Names standing for `kSecAttrAccessGroup` (`let AttributeAccessGroup = String(kSecAttrAccessGroup)`).
    var groupKeyAliases = Set<String>()
    /// Dictionary literals (their opening bracket) that hold an access group / ask for the data-protection keychain.
    var groupLiterals = Set<Int>()
    var protectionLiterals = Set<Int>()
    /// Stored properties (not constants) and constants of each type, by type path.
    var storedProperties: [[String]: Set<String>] = [:]
    var typeConstants: [[String]: Set<String>] = [:]
    /// Each with the enclosing type and the local constants its value names.
    var pending: [(Pending, [String], Set<String>)] = []
    /// A declaration seen whose block has not opened yet.
    var pendingType: (path: [String], stringEnum: Bool)?
    var pendingParams: [String]?
    var pendingGetter: [String]?
    var pendingGetterToken = 0
    var importsKeychainAccess = false
    /// `SecItemAdd` calls with a known query, decided at the end of the file.
    var pendingSaves: [(Int, QueryState)] = []
    /// Types (by path) whose declaration or an extension in this file adopts a Locksmith storable
    /// protocol, and the `accessGroup` properties declared in any type, decided at the end of the file.
    var locksmithTypes = Set<[String]>()
    var accessGroupProperties: [(token: Int, path: [String], value: StringExpression)] = []
    /// How many function blocks are open (kept, so that no check walks the whole stack).
    var functionBlocks = 0
    /// Name lookups walk at most this many blocks out (a name declared further out is not found).
    static let lookupBlocks = 256

    init(src: TokenizedSource, swift: Bool) {
        self.src = src
        self.swift = swift
        parser = ExpressionParser(src: src, swift: swift)
    }

    static func extract(_ src: TokenizedSource, swift: Bool) -> ScannedSource {
        var extractor = SiteExtractor(src: src, swift: swift)
        extractor.run()
        return extractor.result
    }

    var typePath: [String] { blocks.last?.typePath ?? [] }

    /// True when the innermost block is a type body or the file itself (declarations there are
    /// members visible to the unit, not locals).
    var atMemberLevel: Bool {
        guard let kind = blocks.last?.kind else { return true }
        return kind == .type
    }

    mutating func run() {
        if swift { findSwiftAliases() }
        var i = 0
        let n = src.tokens.count
        while i < n {
            let t = src.tokens[i]
            if t.kind == .punct {
                switch t.byte {
                case UInt8(ascii: "{"):
                    openBlock(i)
                    open.append(i)
                case UInt8(ascii: "("), UInt8(ascii: "["):
                    open.append(i)
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    closeBracket(i)
                case UInt8(ascii: ";"):
                    pendingParams = nil
                    pendingGetter = nil
                default:
                    break
                }
            }
            if swift { swiftToken(i) } else { objcToken(i) }
            i += 1
        }
        while !blocks.isEmpty { popBlock(closeLine: Int(src.tokens.last?.line ?? 1)) }
        let locksmithSites = swift ? addLocksmithSites() : 0
        finishPending()
        if locksmithSites > 0 { result.groups.sort { ($0.line, $0.column) < ($1.line, $1.column) } }
        for (i, state) in pendingSaves where !state.hasGroup && !groupLiterals.contains(state.literal) {
            let t = src.tokens[i]
            let protection = state.dataProtection || protectionLiterals.contains(state.literal)
            result.saves.append(KeychainSaveSite(line: Int(t.line), column: Int(t.column), api: "SecItemAdd", dataProtectionKeychain: protection))
        }
        result.saves.sort { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    private mutating func closeBracket(_ i: Int) {
        let opener = Int(src.tokens[i].partner)
        guard opener >= 0, let k = open.lastIndex(of: opener), k >= open.count - 8 else { return }
        open.removeSubrange(k...)
        if src.tokens[i].byte == UInt8(ascii: "}") {
            while let last = blocks.last, last.close >= 0, last.close <= i {
                popBlock(closeLine: Int(src.tokens[i].line))
            }
        }
    }

    private mutating func openBlock(_ i: Int) {
        let close = Int(src.tokens[i].partner)
        var block = Block(kind: .other, typePath: typePath, openLine: Int(src.tokens[i].line), open: i, close: close)
        if let type = pendingType {
            block.kind = .type
            block.typePath = type.path
            block.stringEnum = type.stringEnum
        } else if let getter = pendingGetter {
            block.kind = .getter
            block.getterPath = getter
            block.getterToken = pendingGetterToken
        } else if let params = pendingParams {
            block.kind = .function
            block.params = params
        } else if swift, let last = blocks.last, last.kind == .getter, src.isWord(i - 1, "get") {
            block.kind = .getter
            block.getterPath = last.getterPath
            block.getterToken = last.getterToken
            blocks[blocks.count - 1].getterPath = []
        } else if !swift {
            objcBlockParams(i, into: &block)
        }
        pendingType = nil
        pendingGetter = nil
        pendingParams = nil
        if block.kind == .function { functionBlocks += 1 }
        blocks.append(block)
    }

    private mutating func popBlock(closeLine: Int) {
        let block = blocks.removeLast()
        if block.kind == .function { functionBlocks -= 1 }
        let scope = block.openLine...max(block.openLine, closeLine)
        for d in block.scoped { result.definitions[d].scope = scope }
        if block.kind == .getter, !block.getterPath.isEmpty {
            finishGetter(block)
        }
    }

    /// Where the expression starting at `lo` ends: at `;`, an unmatched closer, a line break
    /// that does not continue the expression (Swift), the end of a `#define`, and on request at
    /// a top-level `,`, `{`, `=` or `else` (conditions of `guard let`). At most 4,096 units are
    /// read (a longer expression ends there).
    func statementEnd(_ lo: Int, conditional: Bool, stopAtComma: Bool = false, stopAtBrace: Bool = false,
                      stopAtEquals: Bool = false) -> Int {
        var k = lo
        var previous = -1
        var steps = 0
        let n = src.tokens.count
        while k < n, steps < 4096 {
            let t = src.tokens[k]
            if t.kind == .punct {
                switch t.byte {
                case UInt8(ascii: ";"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): return k
                case UInt8(ascii: ","): if stopAtComma || conditional { return k }
                case UInt8(ascii: "{"): if conditional || stopAtBrace { return k }
                case UInt8(ascii: "="): if stopAtEquals { return k }
                default: break
                }
            }
            if t.kind == .defineEnd || (conditional && src.isWord(k, "else")) { return k }
            if swift, previous >= 0, t.line > src.tokens[previous].line, !continues(previous, k) { return k }
            let next = parser.skip(k)
            previous = next - 1
            k = next
            steps += 1
        }
        return k
    }

    /// A Swift expression goes on across a line break when the break follows or precedes an
    /// operator, a `.` or a `,`.
    private func continues(_ previous: Int, _ k: Int) -> Bool {
        func joins(_ i: Int) -> Bool {
            let t = src.tokens[i]
            if t.kind == .other { return true }
            guard t.kind == .punct, t.byte != UInt8(ascii: "!"), t.byte != UInt8(ascii: "?") else { return false }
            return ByteClass.isOperator(t.byte) || t.byte == UInt8(ascii: ".")
        }
        if src.tokens[k].kind == .identifier {
            return src.isWord(k, "as") || src.isWord(k, "is") || joins(previous) || src.isPunct(previous, UInt8(ascii: ","))
                || src.isPunct(previous, UInt8(ascii: ":"))
        }
        if src.isPunct(previous, UInt8(ascii: ",")) || src.isPunct(previous, UInt8(ascii: ":")) { return true }
        return joins(previous) || joins(k)
    }
}
