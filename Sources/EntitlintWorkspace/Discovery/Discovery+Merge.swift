import EntitlintCore

extension Discovery {
    /// Combines what several sources found, in the order of `LintOptions.discoverySources`.
    ///
    /// Precedence: an entitlements file belongs to the first source that forms a unit with it
    /// (its `claimed`); the units a later source forms with the same file are left out, with one
    /// notice per file naming both sources, so no file is checked twice with two sets of facts.
    /// Everything else (findings, notices, files read, folders, built products) is the union,
    /// in source order.
    public static func merge(_ parts: [(source: String, discovery: Discovery)], cwd: String) -> Discovery {
        guard parts.count > 1 else { return parts.first?.discovery ?? Discovery() }
        var merged = Discovery()
        var owner: [String: String] = [:]   // absolute entitlements path -> the source that claimed it
        var seenFiles = Set<String>()
        var mentionedTests: [@Sendable (String) -> Bool] = []
        for (source, part) in parts {
            let taken = part.claimed.filter { owner[$0] != nil }
            for abs in taken.sorted() {
                merged.notices.append(Notice(message: "this file is read from \(owner[abs]!), which comes first: what \(source) says of it is left out",
                                             path: Paths.display(abs, cwd: cwd)))
            }
            for abs in part.claimed where owner[abs] == nil { owner[abs] = source }
            merged.units += taken.isEmpty ? part.units : part.units.filter { u in
                guard let path = u.entitlementsPath else { return true }
                return !taken.contains(Paths.absolute(path, cwd: cwd))
            }
            merged.findings += part.findings
            merged.notices += part.notices
            merged.files += part.files.filter { seenFiles.insert($0).inserted }
            merged.claimed.formUnion(part.claimed)
            merged.projectFolders += part.projectFolders
            merged.mentioned.formUnion(part.mentioned)
            mentionedTests.append(part.isMentioned)
            merged.familyFolders += part.familyFolders
            merged.foreignFolders += part.foreignFolders
            merged.namedProfiles += part.namedProfiles
            merged.built.units += part.built.units
            merged.built.profiles += part.built.profiles
            merged.built.findings += part.built.findings
            merged.built.paths += part.built.paths
        }
        let tests = mentionedTests
        merged.isMentioned = { path in tests.contains { $0(path) } }
        return merged
    }
}
