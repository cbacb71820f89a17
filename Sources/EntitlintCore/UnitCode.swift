#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import SourceCode

/// One place where a unit's code hands the keychain an access group, resolved over the files
/// that unit compiles (constants of other files, its Info.plist).
public struct CodeGroupUse: Sendable, Hashable {
    /// The source file, as shown in findings.
    public var path: String
    public var line: Int
    public var column: Int
    /// How the group reaches the keychain (`kSecAttrAccessGroup`, `KeychainAccess accessGroup:`).
    public var api: String
    public var resolved: ResolvedString
}

/// One place where a unit's code saves a keychain item with a query that names no group.
public struct CodeSave: Sendable, Hashable {
    public var path: String
    public var line: Int
    public var column: Int
    public var api: String
    public var dataProtectionKeychain: Bool
}

/// What the code of one unit does with keychain access groups.
public struct UnitCode: Sendable, Hashable {
    public var groups: [CodeGroupUse] = []
    public var saves: [CodeSave] = []
    /// Source files read (each checked for trigger words; lexed when it holds one, or may define
    /// a name the others use).
    public var scannedFiles = 0
    /// Of those, the files lexed: the ones whose bytes hold a trigger word, and the ones that may
    /// define a name those use (`SourceFilter`).
    public var lexedFiles = 0
    /// Files of the unit that could not be read (too large, unreadable), as shown.
    public var unreadable: [String] = []
    /// Every file the unit compiles was found and read, nothing it links is out of reach, and
    /// every group its code passes was resolved: only then is "no code names this group" known.
    public var isComplete = false
}

/// Scans the sources of a run's units, each file once, and resolves each unit's groups once per
/// distinct set of sources (the configurations of a target share theirs). Thread-safe: project
/// rules of different app families may ask at the same time.
///
/// Resolving is bounded run-wide: every unit's index and resolution draw on one budget
/// (`StringResolver.runBudget`); a unit resolved once it is spent has every group unknown. Each
/// value left unknown at a bound (that budget, a value's step budget, an expression too long) is
/// counted, and `notices` says so once for the run. The rules ask for units in a fixed order, so
/// which units are cut does not depend on timing.
public final class CodeIndex: @unchecked Sendable {
    /// Reads a file (an absolute path the discovery confined to the project root); nil when it
    /// cannot be read.
    public typealias Reader = @Sendable (String) -> [UInt8]?
    private let read: Reader
    private let display: @Sendable (String) -> String
    private let lock = MutexLock()
    private var scanned: [String: ScannedSource?] = [:]
    /// Files read whose bytes hold no trigger word: not lexed (unless a name round needs them).
    private var quietPaths = Set<String>()
    /// Files read whose bytes hold `entitlint:` (`SourceFilter.mayHaveDirectives`).
    private var directivePaths = Set<String>()
    private var units: [UnitSources: UnitCode] = [:]
    /// The macro names each C-family file read defines (what decides its `#if`s with the settings).
    let macroTable = MacroNameTable()
    private var remainingWork: Int
    /// The places whose value was left unknown at a bound, with the bound (each place once).
    private var limited: [CodeSite: String] = [:]

    private struct CodeSite: Hashable, Comparable {
        var path: String
        var line: Int
        var column: Int

        static func < (a: CodeSite, b: CodeSite) -> Bool { (a.path, a.line, a.column) < (b.path, b.line, b.column) }
    }

    /// `budget`: the work the run may spend resolving code (`StringResolver.runBudget`).
    public init(read: @escaping Reader, display: @escaping @Sendable (String) -> String, budget: Int = StringResolver.runBudget) {
        self.read = read
        self.display = display
        remainingWork = budget
    }

    /// Reads `path` (nil: not a source file, or unreadable).
    func readFile(_ path: String) -> [UInt8]? {
        SourceLanguage(path: path) == nil ? nil : read(path)
    }

    func displayPath(_ path: String) -> String { display(path) }

    /// Reads any file as the run reads sources (its size limit, exclusions and virtual files):
    /// for the directives of a file that has findings (`FindingStage.finish`).
    public func readAny(_ path: String) -> [UInt8]? { read(path) }

    /// The files the scan has read so far whose bytes hold `entitlint:`, as shown, sorted: their
    /// directives are read even where the run found nothing (`FindingStage.finish`).
    public var filesWithDirectives: [String] {
        lock.lock()
        let paths = directivePaths
        lock.unlock()
        return paths.map(display).sorted()
    }

    /// Threads for reading a unit's files (`Parallel.forEach`): 0 one per core, 1 none.
    public var jobs = 0
    /// Files read at a time: the bytes of at most this many files are held before the quiet
    /// ones are kept or dropped (`keptBytes`).
    static let loadChunk = 256

    /// `load` for each of `paths` on up to `jobs` threads, in the order of `paths`.
    func loadAll(_ paths: ArraySlice<String>) -> [Loaded] {
        let paths = Array(paths)
        return [Loaded](unsafeUninitializedCapacity: paths.count) { buffer, initialized in
            nonisolated(unsafe) let out = buffer
            Parallel.forEach(paths.count, jobs: jobs) { i in (out.baseAddress! + i).initialize(to: self.load(paths[i])) }
            initialized = paths.count
        }
    }

    /// Reads a file once per run: lexed when its bytes hold a trigger word, else left quiet (its
    /// bytes returned for the name rounds of `addDefiningFiles`).
    func load(_ path: String) -> Loaded {
        lock.lock()
        if let done = scanned[path] {
            lock.unlock()
            return done.map { .lexed($0) } ?? .unreadable
        }
        if quietPaths.contains(path) {
            lock.unlock()
            return .quiet(nil)
        }
        lock.unlock()
        guard let bytes = readFile(path) else {
            lock.lock()
            scanned[path] = .some(nil)
            lock.unlock()
            return .unreadable
        }
        if SourceFilter.mayHaveDirectives(bytes) {
            lock.lock()
            directivePaths.insert(path)
            lock.unlock()
        }
        macroTable.record(path, bytes)
        if SourceFilter.mayHaveSites(bytes) { return lex(path, bytes).map { .lexed($0) } ?? .unreadable }
        lock.lock()
        quietPaths.insert(path)
        lock.unlock()
        return .quiet(bytes)
    }

    /// Lexes and scans a file read as `bytes`, once per run.
    func lex(_ path: String, _ bytes: [UInt8]) -> ScannedSource? {
        lock.lock()
        if let done = scanned[path] {
            lock.unlock()
            return done
        }
        lock.unlock()
        let result = SourceLanguage(path: path).map { SourceScanner.scan(bytes, language: $0) }
        lock.lock()
        scanned[path] = result
        quietPaths.remove(path)
        lock.unlock()
        return result
    }

    /// Whether some file `sources` compiles contains `needle` (its UTF-8 bytes, as written): nil
    /// when that cannot be known (the project does not say everything the unit compiles, it
    /// compiles nothing, or a file cannot be read). Each file is read again: for rare questions.
    public func anyFile(of sources: UnitSources, contains needle: String) -> Bool? {
        guard sources.isComplete, !sources.files.isEmpty, !needle.isEmpty else { return nil }
        let n = Array(needle.utf8)
        for path in sources.files {
            guard let bytes = read(path) else { return nil }
            guard bytes.count >= n.count else { continue }
            for i in 0...(bytes.count - n.count) where bytes[i] == n[0] {
                if bytes[i..<(i + n.count)].elementsEqual(n) { return true }
            }
        }
        return false
    }

    /// The code of a unit that compiles `sources`.
    public func code(for sources: UnitSources) -> UnitCode {
        lock.lock()
        if let done = units[sources] {
            lock.unlock()
            return done
        }
        lock.unlock()
        var code = UnitCode()
        var lexed: [(order: Int, path: String, source: ScannedSource)] = []
        var quiet: [QuietFile] = []
        var unreadable: [(order: Int, path: String)] = []
        var kept = 0
        var loads: [Loaded] = []
        for (order, path) in sources.files.enumerated() {
            // Read, filtered and lexed a chunk at a time on `jobs` threads, then taken in order.
            if order % Self.loadChunk == 0 { loads = loadAll(sources.files[order..<min(sources.files.count, order + Self.loadChunk)]) }
            switch loads[order % Self.loadChunk] {
            case .lexed(let source):
                lexed.append((order, display(path), source))
            case .quiet(let bytes):
                let keep = bytes.flatMap { kept + $0.count <= Self.keptBytes ? $0 : nil }
                kept += keep?.count ?? 0
                quiet.append(QuietFile(order: order, path: path, bytes: keep))
            case .unreadable:
                unreadable.append((order, display(path)))
            }
        }
        addDefiningFiles(&lexed, quiet: quiet, unreadable: &unreadable)
        // In the project's order, as if every file were lexed.
        let files = lexed.sorted { $0.order < $1.order }.map { (path: $0.path, source: $0.source) }
        code.unreadable = unreadable.sorted { $0.order < $1.order }.map(\.path)
        code.scannedFiles = sources.files.count - code.unreadable.count
        code.lexedFiles = files.count
        lock.lock()
        let allowance = remainingWork
        lock.unlock()
        // Once the budget is spent, no index is built: every group is unknown, at that bound.
        let facts = conditionFacts(sources)
        let resolver = allowance > 0 ? StringResolver(files: files, infoPlist: sources.infoPlist, facts: facts) : nil
        var resolution = resolver.map { StringResolution($0, allowance: allowance - $0.buildWork) }
        var allResolved = true
        var cut: [CodeSite: String] = [:]
        for (path, source) in files {
            let fileFacts = resolver?.conditions(in: path) ?? facts.forFile(path)
            for site in source.groups {
                // A place under an `#if` whose condition is false here is not compiled.
                if site.condition?.holds(fileFacts) == false { continue }
                var whole = resolution?.resolve(site.value, in: path, line: site.line)
                    ?? ResolvedString(value: nil, unknown: StringResolution.exhausted, usesInfoPlist: false, isLiteralAtSite: false,
                                      steps: [], limit: StringResolution.exhausted)
                if let c = site.condition { whole.compiledUnder(c, undecided: c.holds(fileFacts) == nil ? c.text : nil) }
                // A value set: one use per possible value, at the same place.
                for var r in whole.alternatives.isEmpty ? [whole] : whole.alternatives {
                    if let limit = r.limit { cut[CodeSite(path: path, line: site.line, column: site.column)] = limit }
                    if site.api.hasPrefix("MSAL "), let name = r.value, AccessGroupList.splitPrefix(name).prefix == nil {
                        // MSAL takes the group without its prefix and puts the App ID prefix (read
                        // from the keychain at run time) before it, as Xcode does in the entitlements.
                        r.value = "$(AppIdentifierPrefix)" + name
                        r.steps.append("MSAL puts the App ID prefix before it")
                    }
                    if r.value == nil { allResolved = false }
                    code.groups.append(CodeGroupUse(path: path, line: site.line, column: site.column, api: site.api, resolved: r))
                }
            }
            for save in source.saves {
                code.saves.append(CodeSave(path: path, line: save.line, column: save.column, api: save.api,
                                           dataProtectionKeychain: save.dataProtectionKeychain))
            }
        }
        // A unit that compiles no file at all is one whose code lies elsewhere (a hand-written or
        // generated project, code in a framework): not a unit whose code is known to be empty.
        code.isComplete = sources.isComplete && code.unreadable.isEmpty && allResolved && code.scannedFiles > 0
        lock.lock()
        remainingWork -= (resolver?.buildWork ?? 0) + (resolution?.work ?? 0)
        limited.merge(cut) { first, _ in first }
        units[sources] = code
        lock.unlock()
        return code
    }

    /// One notice for the run when some group passed in code was left unknown at a bound: at the
    /// first such place (in path order), with how many there are.
    public var notices: [Notice] {
        lock.lock()
        defer { lock.unlock() }
        guard let first = limited.keys.min() else { return [] }
        let others = limited.count - 1
        let more = others == 0 ? "" : " (and at \(others) other place\(others == 1 ? "" : "s") in the code)"
        return [Notice(message: "an access group passed in code is not checked\(more): \(limited[first]!), so it was left unresolved rather than guessed",
                       path: first.path, line: first.line, column: first.column)]
    }
}

extension AccessGroupList {
    /// `ABCDE12345.com.example` -> (`ABCDE12345`, `com.example`); `$(AppIdentifierPrefix)com.example`
    /// -> (`$(AppIdentifierPrefix)`, `com.example`); anything else -> (nil, whole).
    public static func splitPrefix(_ s: String) -> (prefix: String?, name: String) {
        for symbol in ["$(AppIdentifierPrefix)", "$(TeamIdentifierPrefix)", "${AppIdentifierPrefix}", "${TeamIdentifierPrefix}"]
        where s.hasPrefix(symbol) {
            return (symbol, String(s.dropFirst(symbol.count)))
        }
        if let dot = s.firstIndex(of: "."), String(s[..<dot]).isTeamIDLike {
            return (String(s[..<dot]), String(s[s.index(after: dot)...]))
        }
        return (nil, s)
    }
}
