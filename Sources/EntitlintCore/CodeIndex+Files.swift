import SourceCode

/// Which files of a unit are lexed: those whose bytes hold a trigger word (`SourceFilter`), and
/// then, round by round, the other files that may define a name the lexed files' groups depend
/// on. A file that gives no site and defines none of those names cannot change any result, so it
/// is read (its bytes are checked) but never lexed.
extension CodeIndex {
    /// What reading one file gave.
    enum Loaded {
        case lexed(ScannedSource)
        /// Read, and no trigger word in it: it gives no site or save. Its bytes, while the unit
        /// keeps them (see `keptBytes`).
        case quiet([UInt8]?)
        case unreadable
    }

    /// The bytes of quiet files one unit keeps for the name rounds (beyond, they are read again).
    static let keptBytes = 64 << 20

    /// A file not yet lexed, waiting to be checked for names: its place in the unit's file list.
    struct QuietFile {
        var order: Int
        var path: String
        var bytes: [UInt8]?
    }

    /// Lexes, among `quiet`, the files that may define a name the groups of `files` depend on:
    /// the names their group expressions refer to, and those the definitions of such names refer
    /// to (all components: a type or alias name counts too). Each round checks the still-quiet
    /// files for the names not looked for before, lexes those that mention one, and looks again at
    /// what their definitions refer to. A round adds at least one file, and a chain of references
    /// deeper than `StringResolver.maxDepth` resolves to nothing, so at most that many rounds plus
    /// one are run. A quiet file that cannot be read again is unreadable.
    func addDefiningFiles(_ files: inout [(order: Int, path: String, source: ScannedSource)], quiet: [QuietFile],
                          unreadable: inout [(order: Int, path: String)]) {
        var quiet = quiet
        var searched = Set<String>()
        var rounds = 0
        while !quiet.isEmpty, rounds <= StringResolver.maxDepth {
            let needed = Self.neededNames(files.map(\.source)).subtracting(searched)
            guard !needed.isEmpty else { break }
            searched.formUnion(needed)
            rounds += 1
            var remaining: [QuietFile] = []
            let matcher = SourceFilter.NameMatcher(needed)
            for file in quiet {
                guard let bytes = file.bytes ?? readFile(file.path) else {
                    unreadable.append((file.order, displayPath(file.path)))
                    continue
                }
                if matcher.matches(bytes), let source = lex(file.path, bytes) {
                    files.append((file.order, displayPath(file.path), source))
                } else {
                    remaining.append(file)
                }
            }
            quiet = remaining
        }
    }

    /// The names the group expressions of `sources` depend on: every component of the names they
    /// refer to, and, for each such name, of the names its definitions (of any of `sources`)
    /// refer to. Each name and each definition is visited once.
    static func neededNames(_ sources: [ScannedSource]) -> Set<String> {
        var definitions: [String: [StringExpression]] = [:]
        for source in sources {
            for definition in source.definitions {
                if let name = definition.path.last {
                    definitions[name.hasSuffix("()") ? String(name.dropLast(2)) : name, default: []].append(definition.value)
                }
            }
            for alias in source.aliases {
                if let name = alias.path.last { definitions[name, default: []].append(.reference(alias.target)) }
            }
        }
        var names = Set<String>()
        var stack = sources.flatMap { $0.groups.map(\.value) }
        while let expression = stack.popLast() {
            for name in expression.referencedNames where names.insert(name).inserted {
                stack.append(contentsOf: definitions[name] ?? [])
            }
        }
        return names
    }
}
