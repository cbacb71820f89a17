/// The keychain idioms (see `SourceScanner`): `kSecAttrAccessGroup` as a dictionary key,
/// `accessGroup:` arguments, wrapper properties, Valet identifiers, and `SecItemAdd` /
/// KeychainAccess saves without a group.
extension SiteExtractor {
    mutating func keychainIdiom(_ i: Int) {
        // Every idiom's word starts with one of these bytes (aliases aside): a cheap filter.
        switch src.bytes[Int(src.tokens[i].start)] {
        case UInt8(ascii: "k"), UInt8(ascii: "a"), UInt8(ascii: "S"), UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "K"), UInt8(ascii: "g"):
            break
        default:
            if groupKeyAliases.isEmpty { return }
        }
        if src.isWord(i, "kSecAttrAccessGroup") || (!groupKeyAliases.isEmpty && swift && groupKeyAliases.contains(src.text(i))) {
            groupKey(i)
        } else if src.isWord(i, "kSecUseDataProtectionKeychain") || src.isWord(i, "kSecAttrSynchronizable") {
            protectionKey(i)
        } else if src.isWord(i, "accessGroup") || src.isWord(i, "keychainSharingGroup") {
            if src.isPunct(i - 1, UInt8(ascii: ".")), src.isPunct(i + 1, UInt8(ascii: "=")), !src.isWord(i - 2, "self") {
                let api = src.isWord(i, "accessGroup") ? "accessGroup property (KeychainSwift, SAMKeychainQuery)" : "MSAL keychainSharingGroup"
                let extent = statementEnd(i + 2, conditional: false)
                addGroup(at: i, api: api, value: read(extent))
            } else if src.isWord(i, "accessGroup"), src.isPunct(i + 1, UInt8(ascii: ":")) {
                labelledArgument(i)
            }
        } else if !swift, src.isWord(i, "initWithSharedKeychainAccessGroup") || src.isWord(i, "setAccessGroup")
                    || src.isWord(i, "setKeychainSharingGroup"), src.isPunct(i + 1, UInt8(ascii: ":")) {
            labelledArgument(i)
        } else if src.isWord(i, "SharedGroupIdentifier"), src.isPunct(i + 1, UInt8(ascii: "(")) {
            valetIdentifier(i)
        } else if swift, src.isWord(i, "group") {
            locksmithRequestGroup(i)
        } else if src.isWord(i, "SecItemAdd"), src.isPunct(i + 1, UInt8(ascii: "(")) {
            save(i)
        } else if swift, importsKeychainAccess, src.isPunct(i + 1, UInt8(ascii: "(")) {
            keychainAccessSave(i)
        }
    }

    /// The innermost open bracket before token `k`.
    func container(before k: Int) -> Int? {
        var j = open.count - 1
        while j >= 0, open[j] >= k { j -= 1 }
        return j >= 0 ? open[j] : nil
    }

    /// The tokens of a key: `String(KEY)`, `KEY as String`, `(KEY as NSString)`, `(__bridge id)KEY`.
    func keyExtent(_ i: Int) -> (Int, Int) {
        var (s, e) = (i, i + 1)
        if swift {
            if src.isPunct(s - 1, UInt8(ascii: "(")), src.isWord(s - 2, "String"), Int(src.tokens[s - 1].partner) == e {
                s -= 2
                e += 1
            }
            if src.isWord(e, "as"), e + 1 < src.tokens.count, src.tokens[e + 1].kind == .identifier { e += 2 }
            if src.isPunct(s - 1, UInt8(ascii: "(")), Int(src.tokens[s - 1].partner) == e {
                s -= 1
                e += 1
            }
        } else if src.isPunct(s - 1, UInt8(ascii: ")")), let o = parser.opener(of: s - 1), parser.isCast(o + 1, s - 1) {
            s = o
        }
        return (s, e)
    }

    /// The value given for the key at `i` (its extent; `limit` set when it is not to be read),
    /// the dictionary literal it is written in (or -1), and the local it is assigned to
    /// (subscript, `setObject:forKey:`, `CFDictionarySetValue`). A call (`updateValue`,
    /// `setObject:forKey:`, `CFDictionarySetValue`) passes one key: only its first is read, and
    /// what each reads of the call is read once, so many keys in one call cost linear time.
    mutating func keyedValue(_ i: Int) -> (value: StatementExtent, literal: Int, target: String?)? {
        let (s, e) = keyExtent(i)
        guard let box = container(before: s) else { return nil }
        let boxOpensLiteral = swift ? src.isPunct(box, UInt8(ascii: "[")) : src.isPunct(box, UInt8(ascii: "{")) && src.isPunct(box - 1, UInt8(ascii: "@"))
        if src.isPunct(e, UInt8(ascii: ":")), boxOpensLiteral {
            return (statementEnd(e + 1, conditional: false, stopAtComma: true), box, nil)
        }
        if src.isPunct(s - 1, UInt8(ascii: "[")), src.isPunct(e, UInt8(ascii: "]")), src.isPunct(e + 1, UInt8(ascii: "=")) {
            let target = s >= 2 && src.tokens[s - 2].kind == .identifier ? src.text(s - 2) : nil
            return (statementEnd(e + 2, conditional: false), -1, target)
        }
        guard !keyedCalls.contains(box) else { return nil }
        if src.isPunct(s - 1, UInt8(ascii: ":")), src.isWord(s - 2, "forKey") {
            if swift, src.isPunct(box, UInt8(ascii: "(")), src.isWord(box - 1, "updateValue") {
                keyedCalls.insert(box)
                let end = parser.split(box + 1, s - 2) { src.isPunct($0, UInt8(ascii: ",")) }[0].upperBound
                let target = box >= 3 && src.isPunct(box - 2, UInt8(ascii: ".")) && src.tokens[box - 3].kind == .identifier ? src.text(box - 3) : nil
                return (StatementExtent(lo: box + 1, end: end), -1, target)
            }
            if !swift, src.isPunct(box, UInt8(ascii: "[")) {
                let k = firstSetObjectPart(box)
                guard k < s - 2 else { return nil }
                keyedCalls.insert(box)
                let target = src.tokens[box + 1].kind == .identifier ? src.text(box + 1) : nil
                return (StatementExtent(lo: k + 2, end: s - 2), -1, target)
            }
        }
        if src.isPunct(box, UInt8(ascii: "(")), src.isWord(box - 1, "CFDictionarySetValue") || src.isWord(box - 1, "CFDictionaryAddValue")
            || src.isWord(box - 1, "CFDictionaryReplaceValue") {
            let args: [Range<Int>]
            if let known = callArguments[box] {
                args = known
            } else {
                args = parser.split(box + 1, Int(src.tokens[box].partner) > box ? Int(src.tokens[box].partner) : s) { src.isPunct($0, UInt8(ascii: ",")) }
                callArguments[box] = args
            }
            guard args.count == 3, args[1].contains(i) else { return nil }
            keyedCalls.insert(box)
            let last = args[0].upperBound - 1
            let target = last >= args[0].lowerBound && src.tokens[last].kind == .identifier ? src.text(last) : nil
            return (StatementExtent(lo: args[2].lowerBound, end: args[2].upperBound), -1, target)
        }
        return nil
    }

    /// The first `setObject:` or `setValue:` part of the Objective-C message `[...]` opening at
    /// `box` (its closing bracket, or the end, when there is none); looked for once per message.
    private mutating func firstSetObjectPart(_ box: Int) -> Int {
        if let k = setObjectPart[box] { return k }
        let close = Int(src.tokens[box].partner) > box ? Int(src.tokens[box].partner) : src.tokens.count
        var k = box + 1
        while k < close, !((src.isWord(k, "setObject") || src.isWord(k, "setValue")) && src.isPunct(k + 1, UInt8(ascii: ":"))) { k = parser.skip(k) }
        setObjectPart[box] = k
        return k
    }

    private mutating func groupKey(_ i: Int) {
        guard let (value, literal, target) = keyedValue(i) else { return }
        addGroup(at: i, api: "kSecAttrAccessGroup", value: read(value))
        if literal >= 0 { groupLiterals.insert(literal) }
        if let target { updateQuery(target) { $0.hasGroup = true } }
    }

    private mutating func protectionKey(_ i: Int) {
        guard let (extent, literal, target) = keyedValue(i), extent.limit == nil else { return }
        let value = extent.range
        var k = value.lowerBound
        if src.isPunct(k, UInt8(ascii: "@")) { k += 1 }
        guard k == value.upperBound - 1, src.isWord(k, "true") || src.isWord(k, "YES") || src.isWord(k, "kCFBooleanTrue") else { return }
        if literal >= 0 { protectionLiterals.insert(literal) }
        if let target { updateQuery(target) { $0.dataProtection = true } }
    }

    /// Changes the query dictionary `name` of the innermost block holding one (within reach).
    private mutating func updateQuery(_ name: String, _ change: (inout QueryState) -> Void) {
        guard let b = scopes.innermost(name, .query), var state = scopes.blocks[b].queries[name] else { return }
        change(&state)
        scopes.update(b) { $0.queries[name] = state }
    }

    private mutating func labelledArgument(_ i: Int) {
        guard let box = container(before: i) else { return }
        let close = Int(src.tokens[box].partner) > box ? Int(src.tokens[box].partner) : src.tokens.count
        if swift {
            guard src.isPunct(box, UInt8(ascii: "(")), src.isPunct(i - 1, UInt8(ascii: "(")) || src.isPunct(i - 1, UInt8(ascii: ",")),
                  !declarationParens.contains(box) else { return }
            let extent = statementEnd(i + 2, conditional: false, stopAtComma: true)
            let callee = box > 0 && src.tokens[box - 1].kind == .identifier ? src.text(box - 1) : "a call"
            let api: String
            if callee == "Keychain" || (callee == "init" && importsKeychainAccess) {
                api = "KeychainAccess Keychain(accessGroup:)"
            } else if callee == "UICKeyChainStore" {
                api = "UICKeyChainStore accessGroup:"
            } else {
                api = "accessGroup: argument of \(callee)"
            }
            addGroup(at: i, api: api, value: read(i + 2, min(extent.end, close), limit: extent.limit))
            return
        }
        // Objective-C: a selector part of a message (`[X ... accessGroup:value ...]`), never a
        // method declaration (those are not inside brackets).
        guard src.isPunct(box, UInt8(ascii: "[")), i > box + 1, endsExpression(i - 1) else { return }
        var end = i + 2
        while end < close, !(src.tokens[end].kind == .identifier && src.isPunct(end + 1, UInt8(ascii: ":")) && end > i + 2 && endsExpression(end - 1)) {
            end = parser.skip(end)
        }
        let head = min(firstSelector(box, close: close), i)
        let api: String
        if src.isWord(i, "initWithSharedKeychainAccessGroup") {
            api = "MSAL initWithSharedKeychainAccessGroup:"
        } else if src.isWord(i, "setAccessGroup") {
            api = "accessGroup property (KeychainSwift, SAMKeychainQuery)"
        } else if src.isWord(i, "setKeychainSharingGroup") {
            api = "MSAL keychainSharingGroup"
        } else if src.isWord(box + 1, "UICKeyChainStore") {
            api = "UICKeyChainStore accessGroup:"
        } else {
            api = "accessGroup: argument of \(src.text(head))"
        }
        addGroup(at: i, api: api, value: read(i + 2, min(end, close)))
    }

    /// The first selector part (`name:` after the receiver) of the message opening at `box`;
    /// looked for once per message.
    private mutating func firstSelector(_ box: Int, close: Int) -> Int {
        if let head = firstSelectorPart[box] { return head }
        var head = box + 1
        while head < close, !(src.tokens[head].kind == .identifier && src.isPunct(head + 1, UInt8(ascii: ":")) && head > box + 1) { head = parser.skip(head) }
        firstSelectorPart[box] = head
        return head
    }

    func endsExpression(_ k: Int) -> Bool {
        let t = src.tokens[k]
        return t.kind == .identifier || t.kind == .string || t.kind == .number
            || (t.kind == .punct && (t.byte == UInt8(ascii: ")") || t.byte == UInt8(ascii: "]")))
    }

    /// Valet `SharedGroupIdentifier(appIDPrefix: p, nonEmptyGroup: g)` (or `groupPrefix:`): p + "." + g.
    private mutating func valetIdentifier(_ i: Int) {
        let box = i + 1
        guard src.tokens[box].partner > box, !src.isWord(i - 1, "struct"), !src.isWord(i - 1, "extension"), !src.isWord(i - 1, "class") else { return }
        var prefix: StringExpression?
        var group: StringExpression?
        for arg in parser.split(box + 1, Int(src.tokens[box].partner), where: { src.isPunct($0, UInt8(ascii: ",")) }) where arg.count > 2 {
            let k = arg.lowerBound
            guard src.isPunct(k + 1, UInt8(ascii: ":")) else { continue }
            let value = read(k + 2, arg.upperBound)
            if src.isWord(k, "appIDPrefix") || src.isWord(k, "groupPrefix") { prefix = value }
            if src.isWord(k, "nonEmptyGroup") { group = value }
        }
        guard let prefix, let group else { return }
        addGroup(at: i, api: "Valet SharedGroupIdentifier", value: .concatenation([prefix, .literal("."), group]))
    }

    /// `SecItemAdd(query, ...)` where the query is a dictionary literal written there or kept in
    /// a local of this function; decided when the file is read to the end (the literal's keys
    /// come after this token).
    private mutating func save(_ i: Int) {
        let box = i + 1
        guard src.tokens[box].partner > box else { return }
        let first = parser.split(box + 1, Int(src.tokens[box].partner)) { src.isPunct($0, UInt8(ascii: ",")) }[0]
        if let literal = parser.queryLiteral(first.lowerBound, first.upperBound) {
            pendingSaves.append((i, QueryState(literal: literal)))
            return
        }
        var lo = first.lowerBound
        if !swift, src.isPunct(lo, UInt8(ascii: "(")), src.tokens[lo].partner > lo, parser.isCast(lo + 1, Int(src.tokens[lo].partner)) {
            lo = Int(src.tokens[lo].partner) + 1
        }
        guard lo < first.upperBound, src.tokens[lo].kind == .identifier,
              lo + 1 == first.upperBound || (swift && src.isWord(lo + 1, "as")) else { return }
        let name = src.text(lo)
        // The innermost block holding a query of that name, unless a local or parameter of the
        // same name is declared further in (within reach, not past a type block).
        guard let b = scopes.innermost(name, .query), b >= (scopes.innermost(name, .local) ?? -1),
              let state = scopes.blocks[b].queries[name] else { return }
        pendingSaves.append((i, state))
    }

    /// KeychainAccess `Keychain(service: ...)`, `Keychain()`, `.init(service: ...)` without `accessGroup:`.
    private mutating func keychainAccessSave(_ i: Int) {
        let box = i + 1
        guard src.tokens[box].partner > box else { return }
        let close = Int(src.tokens[box].partner)
        if src.isWord(i, "Keychain") {
            guard !src.isPunct(i - 1, UInt8(ascii: ".")) || src.isWord(i - 2, "KeychainAccess") else { return }
        } else if src.isWord(i, "init") {
            guard src.isPunct(i - 1, UInt8(ascii: ".")), src.isWord(box + 1, "service"), src.isPunct(box + 2, UInt8(ascii: ":")) else { return }
        } else {
            return
        }
        for arg in parser.split(box + 1, close, where: { src.isPunct($0, UInt8(ascii: ",")) }) where src.isWord(arg.lowerBound, "accessGroup") {
            return
        }
        let t = src.tokens[i]
        result.saves.append(KeychainSaveSite(line: Int(t.line), column: Int(t.column), api: "KeychainAccess Keychain(service:)", dataProtectionKeychain: false))
    }

    /// `request.group = VALUE` where `request` is a local of an enclosing function block that was
    /// bound to `LocksmithRequest(...)` (Locksmith 1.x).
    mutating func locksmithRequestGroup(_ i: Int) {
        guard src.isPunct(i - 1, UInt8(ascii: ".")), src.isPunct(i + 1, UInt8(ascii: "=")), i >= 2,
              src.tokens[i - 2].kind == .identifier else { return }
        let name = src.text(i - 2)
        // The innermost block that holds such a request, unless a local or parameter of the same
        // name is declared further in (within reach, not past a type block).
        guard let b = scopes.innermost(name, .request), b >= (scopes.innermost(name, .local) ?? -1) else { return }
        let extent = statementEnd(i + 2, conditional: false)
        addGroup(at: i, api: "Locksmith LocksmithRequest group", value: read(extent))
    }
}
