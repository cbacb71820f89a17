/// Locksmith (github.com/matthewpalmer/Locksmith). Its convenience functions take the group as an
/// `accessGroup:` argument (read like any labelled argument); its protocol API takes it from the
/// `accessGroup` property of a type adopting one of its storable protocols (`SecureStorable`,
/// `GenericPasswordSecureStorable`, `CreateableSecureStorable`, ...: every such name ends in
/// `SecureStorable`); Locksmith 1.x took it from `LocksmithRequest`'s `group` property.
extension SiteExtractor {
    /// Records `path` as a Locksmith storable type when the clause after its name (`: A, B where
    /// Self: C`, up to the body's `{`, at most 64 tokens) names a protocol ending in `SecureStorable`.
    mutating func noteLocksmithConformance(_ path: [String], clause k: Int) {
        guard src.isPunct(k, UInt8(ascii: ":")) || src.isWord(k, "where") else { return }
        let limit = min(src.tokens.count, k + 64)
        var j = k
        while j < limit, !src.isPunct(j, UInt8(ascii: "{")), !src.isPunct(j, UInt8(ascii: ";")) {
            if src.tokens[j].kind == .identifier, src.text(j).hasSuffix("SecureStorable") {
                locksmithTypes.insert(path)
                return
            }
            j += 1
        }
    }

    /// Turns the `accessGroup` properties of Locksmith storable types into group sites: a stored
    /// `let`/`var accessGroup = VALUE` or a computed one returning VALUE. A property of any other
    /// type is some other API's and stays a plain definition; `nil` is "no group" and no site.
    /// Called once the file is read (a conformance may be declared in an extension below the
    /// type). Returns how many sites were added.
    mutating func addLocksmithSites() -> Int {
        var added = 0
        for property in accessGroupProperties where locksmithTypes.contains(property.path) {
            if case .unknown("nil") = property.value { continue }
            let t = src.tokens[property.token]
            result.groups.append(KeychainGroupSite(line: Int(t.line), column: Int(t.column), api: "Locksmith accessGroup property",
                                                   value: property.value))
            pending.append((.group(result.groups.count - 1), property.path, []))
            added += 1
        }
        return added
    }

    /// `request.group = VALUE` where `request` is a local of an enclosing function block that was
    /// bound to `LocksmithRequest(...)` (Locksmith 1.x).
    mutating func locksmithRequestGroup(_ i: Int) {
        guard src.isPunct(i - 1, UInt8(ascii: ".")), src.isPunct(i + 1, UInt8(ascii: "=")), i >= 2,
              src.tokens[i - 2].kind == .identifier else { return }
        let name = src.text(i - 2)
        // The innermost block that holds such a request, unless a local or parameter of the same
        // name is declared further in (within reach, not past a type block).
        guard let b = innermost(name, .request), b >= (innermost(name, .local) ?? -1) else { return }
        let extent = statementEnd(i + 2, conditional: false)
        addGroup(at: i, api: "Locksmith LocksmithRequest group", value: read(extent))
    }
}
