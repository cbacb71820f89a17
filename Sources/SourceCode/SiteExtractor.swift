/// Walks the tokens of one file once, with an explicit stack of the `{...}` blocks it is in
/// (types, functions, computed properties, other blocks), and collects keychain group sites,
/// saves without a group and string definitions. Language-specific idioms are in
/// `SiteExtractor+Swift.swift` and `SiteExtractor+ObjC.swift`, the keychain idioms in
/// `SiteExtractor+Keychain.swift`. The open blocks and the names they declare are kept by
/// `NameScopes`, the members of the file's types by `MemberNames`, Locksmith's storable types
/// by `LocksmithProperties`.
struct SiteExtractor {
    let src: TokenizedSource
    let parser: ExpressionParser
    let swift: Bool
    var result = ScannedSource()
    var scopes: NameScopes
    /// Tokens a statement walk has passed at its own level: a later statement starting at one of
    /// them starts inside a statement already read (code without a separator), and is not read
    /// again. So every token is walked at most once at each level of brackets.
    var walked: [Bool]
    /// The work done, for the bounds tests.
    var work = ScanWork()
    /// Per call bracket, what the keyed-value idioms read once: its first `setObject:`/`setValue:`
    /// part, its first selector part, its comma-separated arguments; and the call brackets that
    /// already gave a keyed site (a call passes one key).
    var setObjectPart: [Int: Int] = [:]
    var firstSelectorPart: [Int: Int] = [:]
    var callArguments: [Int: [Range<Int>]] = [:]
    var keyedCalls = Set<Int>()
    /// The parameters of each declaration's parameter clause, read once.
    var paramsByClause: [Int: Set<String>] = [:]
    /// The last scan for a declaration's parameter clause: from a keyword to the token it stopped at.
    var functionScan = (from: -1, end: -1)
    /// Objective-C: the `-`/`+` that starts a method declaration at the start of a line, since the
    /// last `;`, `{` or `}` (the method whose body the next `{` opens), or -1.
    var methodStart = -1
    /// Brackets open at the current token, innermost last.
    var open: [Int] = []
    /// Paren groups that are parameter clauses of declarations (`func f(accessGroup: String)`).
    var declarationParens = Set<Int>()
    /// Names standing for `kSecAttrAccessGroup` (`let AttributeAccessGroup = String(kSecAttrAccessGroup)`).
    var groupKeyAliases = Set<String>()
    /// Dictionary literals (their opening bracket) that hold an access group / ask for the data-protection keychain.
    var groupLiterals = Set<Int>()
    var protectionLiterals = Set<Int>()
    var members = MemberNames()
    /// A declaration seen whose block has not opened yet.
    var pendingType: (path: [String], stringEnum: Bool, tooDeep: Bool)?
    var pendingParams: Set<String>?
    var pendingGetter: [String]?
    var pendingGetterToken = 0
    var importsKeychainAccess = false
    /// The `#if` branches open at the current token; Objective-C: the next of `src.directives` to apply.
    var conditions = ConditionStack()
    var nextDirective = 0
    /// `SecItemAdd` calls with a known query, decided at the end of the file.
    var pendingSaves: [(Int, QueryState)] = []
    var locksmith = LocksmithProperties()
    /// How many function blocks are open (kept, so that no check walks the whole stack).
    var functionBlocks = 0
    /// A statement is read for at most this many units (tokens, bracket groups, whole strings).
    static let maxUnits = 4096
    /// Type paths are at most this many components: the constants of a type nested deeper are
    /// `.overLimit` (no path of unbounded length is kept or compared).
    static let maxTypePath = 32
    static let nestedStatement = "a statement that starts inside another one (no separator between them)"
    static let typeTooDeep = "a constant of a type nested more than \(maxTypePath) deep"

    init(src: TokenizedSource, swift: Bool) {
        self.src = src
        self.swift = swift
        parser = ExpressionParser(src: src, swift: swift)
        scopes = NameScopes(swift: swift)
        walked = Array(repeating: false, count: src.tokens.count)
        work.tokens = src.tokens.count
    }

    static func extract(_ src: TokenizedSource, swift: Bool) -> (ScannedSource, ScanWork) {
        var extractor = SiteExtractor(src: src, swift: swift)
        extractor.run()
        return (extractor.result, extractor.work)
    }

    /// The expression written in `lo..<hi` (`.overLimit(limit)` when a bound said not to read it).
    mutating func read(_ lo: Int, _ hi: Int, limit: String? = nil) -> StringExpression {
        if let limit { return .overLimit(limit) }
        work.parsedTokens += min(max(0, hi - lo), ExpressionParser.maxTokens + 1)
        work.parses += 1
        return parser.parse(lo, hi)
    }

    mutating func read(_ extent: StatementExtent) -> StringExpression {
        read(extent.lo, extent.end, limit: extent.limit)
    }

    mutating func addGroup(at i: Int, api: String, value: StringExpression) {
        let t = src.tokens[i]
        let value = scopes.classify(value)
        result.groups.append(KeychainGroupSite(line: Int(t.line), column: Int(t.column), api: api, value: value,
                                               condition: conditions.effective))
        members.wait(.group(result.groups.count - 1), in: typePath, locals: scopes.localConstants(in: value))
    }

    mutating func addDefinition(name: String, at i: Int, value: StringExpression, member: Bool) {
        let path = member ? typePath + [name] : [name]
        let value = member && scopes.innermostBlock?.typeTooDeep == true ? .overLimit(SiteExtractor.typeTooDeep) : scopes.classify(value)
        result.definitions.append(StringDefinition(path: path, line: Int(src.tokens[i].line), value: value,
                                                   condition: member ? conditions.effective : nil))
        let index = result.definitions.count - 1
        members.wait(.definition(index), in: typePath, locals: scopes.localConstants(in: value))
        if member {
            members.typeConstants[typePath, default: []].insert(name)
        } else if !scopes.isEmpty {
            scopes.update(scopes.blocks.count - 1) { $0.scoped.append(index) }
            scopes.declareLocal(name, constant: true)
        }
    }

    var typePath: [String] { scopes.innermostBlock?.typePath ?? [] }

    /// True when the innermost block is a type body or the file itself (declarations there are
    /// members visible to the unit, not locals).
    var atMemberLevel: Bool {
        guard let kind = scopes.innermostBlock?.kind else { return true }
        return kind == .type
    }

    mutating func run() {
        if swift { findSwiftAliases() }
        var i = 0
        let n = src.tokens.count
        while i < n {
            let t = src.tokens[i]
            while nextDirective < src.directives.count, src.directives[nextDirective].before <= i {
                switch src.directives[nextDirective].kind {
                case .open(let c): conditions.open(c)
                case .elseIf(let c): conditions.elseIf(c)
                case .close: conditions.close()
                case .define: break
                }
                nextDirective += 1
            }
            if t.kind == .punct {
                switch t.byte {
                case UInt8(ascii: "{"):
                    openBlock(i)
                    open.append(i)
                    methodStart = -1
                case UInt8(ascii: "("), UInt8(ascii: "["):
                    open.append(i)
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    closeBracket(i)
                    if t.byte == UInt8(ascii: "}") { methodStart = -1 }
                case UInt8(ascii: ";"):
                    pendingParams = nil
                    pendingGetter = nil
                    methodStart = -1
                case UInt8(ascii: "#"):
                    if swift { conditions.apply(src, at: i) }
                case UInt8(ascii: "-"), UInt8(ascii: "+"):
                    if !swift, src.isPunct(i + 1, UInt8(ascii: "(")), i == 0 || src.tokens[i - 1].line < t.line { methodStart = i }
                default:
                    break
                }
            }
            if swift { swiftToken(i) } else { objcToken(i) }
            i += 1
        }
        while !scopes.isEmpty { popBlock(closeLine: Int(src.tokens.last?.line ?? 1)) }
        let locksmithSites = swift ? locksmith.sites(in: src) : []
        for (site, path) in locksmithSites {
            result.groups.append(site)
            members.wait(.group(result.groups.count - 1), in: path, locals: [])
        }
        members.finish(&result)
        if !locksmithSites.isEmpty { result.groups.sort { ($0.line, $0.column) < ($1.line, $1.column) } }
        for (i, state) in pendingSaves where !state.hasGroup && !groupLiterals.contains(state.literal) {
            let t = src.tokens[i]
            let protection = state.dataProtection || protectionLiterals.contains(state.literal)
            result.saves.append(KeychainSaveSite(line: Int(t.line), column: Int(t.column), api: "SecItemAdd", dataProtectionKeychain: protection))
        }
        result.saves.sort { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    private mutating func closeBracket(_ i: Int) {
        let opener = Int(src.tokens[i].partner)
        guard opener >= 0 else { return }
        // Only the innermost 8 brackets are looked at (brackets pair within 8 levels).
        var k = open.count - 1
        let floor = max(0, open.count - 8)
        while k >= floor, open[k] != opener { k -= 1 }
        guard k >= floor else { return }
        open.removeSubrange(k...)
        if src.tokens[i].byte == UInt8(ascii: "}") {
            while let last = scopes.innermostBlock, last.close >= 0, last.close <= i {
                popBlock(closeLine: Int(src.tokens[i].line))
            }
        }
    }

    private mutating func openBlock(_ i: Int) {
        let close = Int(src.tokens[i].partner)
        var block = OpenBlock(kind: .other, typePath: typePath, openLine: Int(src.tokens[i].line), open: i, close: close)
        block.typeTooDeep = scopes.innermostBlock?.typeTooDeep ?? false
        if let type = pendingType {
            block.kind = .type
            block.typePath = type.path
            block.stringEnum = type.stringEnum
            block.typeTooDeep = type.tooDeep
        } else if let getter = pendingGetter {
            block.kind = .getter
            block.getterPath = getter
            block.getterToken = pendingGetterToken
        } else if let params = pendingParams {
            block.kind = .function
            block.params = params
        } else if swift, let last = scopes.innermostBlock, last.kind == .getter, src.isWord(i - 1, "get") {
            block.kind = .getter
            block.getterPath = last.getterPath
            block.getterToken = last.getterToken
            scopes.update(scopes.blocks.count - 1) { $0.getterPath = [] }
        } else if !swift {
            objcBlockParams(i, into: &block)
        }
        pendingType = nil
        pendingGetter = nil
        pendingParams = nil
        if block.kind == .function { functionBlocks += 1 }
        scopes.open(block)
    }

    private mutating func popBlock(closeLine: Int) {
        let block = scopes.close()
        if block.kind == .function { functionBlocks -= 1 }
        let scope = block.openLine...max(block.openLine, closeLine)
        for d in block.scoped { result.definitions[d].scope = scope }
        if block.kind == .getter, !block.getterPath.isEmpty {
            finishGetter(block)
        }
    }

    /// Where the expression starting at `lo` ends: at `;`, an unmatched closer, the end of the
    /// interpolation it is written in, a line break that does not continue the expression
    /// (Swift), the end of a `#define`, and on request at a top-level `,`, `{`, `=` or `else`
    /// (conditions of `guard let`). At most `maxUnits` units are read: a longer expression is not
    /// read at all (`limit`), as a part of it could give a wrong value. A statement that starts at
    /// a token an earlier walk passed at the same level, or runs into one, is inside a statement
    /// already read: not read again (`limit`), so the walks of a file take linear time.
    mutating func statementEnd(_ lo: Int, conditional: Bool, stopAtComma: Bool = false, stopAtBrace: Bool = false,
                               stopAtEquals: Bool = false) -> StatementExtent {
        var k = lo
        var previous = -1
        var units = 0
        let n = src.tokens.count
        if k < n, walked[k] { return StatementExtent(lo: lo, end: lo, limit: Self.nestedStatement) }
        while k < n {
            let t = src.tokens[k]
            if t.kind == .punct {
                switch t.byte {
                case UInt8(ascii: ";"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): return StatementExtent(lo: lo, end: k)
                case UInt8(ascii: ","): if stopAtComma || conditional { return StatementExtent(lo: lo, end: k) }
                case UInt8(ascii: "{"): if conditional || stopAtBrace { return StatementExtent(lo: lo, end: k) }
                case UInt8(ascii: "="): if stopAtEquals { return StatementExtent(lo: lo, end: k) }
                default: break
                }
            }
            if t.kind == .defineEnd || (conditional && src.isWord(k, "else")) { return StatementExtent(lo: lo, end: k) }
            // A middle or last segment met on its own closes the interpolation the walk started in.
            if t.kind == .string, t.segment == .middle || t.segment == .tail { return StatementExtent(lo: lo, end: k) }
            if swift, previous >= 0, t.line > src.tokens[previous].line, !continues(previous, k) { return StatementExtent(lo: lo, end: k) }
            if walked[k] { return StatementExtent(lo: lo, end: k, limit: Self.nestedStatement) }
            if units == Self.maxUnits { return StatementExtent(lo: lo, end: k, limit: ExpressionParser.tooLong) }
            walked[k] = true
            let next = parser.skip(k)
            previous = next - 1
            k = next
            units += 1
            work.walkedUnits += 1
        }
        return StatementExtent(lo: lo, end: k)
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
