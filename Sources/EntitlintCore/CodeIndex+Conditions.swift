import SourceCode

/// The macro names each C-family file read `#define`s or `#undef`s and the headers it includes
/// with quotes (`SourceFilter.preprocessorNames`), recorded when the file is first read, lexed or
/// not. Thread-safe.
final class MacroNameTable: @unchecked Sendable {
    private let lock = MutexLock()
    private var names: [String: (defined: Set<String>, included: Set<String>)] = [:]

    func record(_ path: String, _ bytes: [UInt8]) {
        guard SourceLanguage(path: path) == .objectiveC else { return }
        let found = SourceFilter.preprocessorNames(bytes)
        lock.lock()
        names[path] = found
        lock.unlock()
    }

    /// The names the C-family files of `files` define; nil when that is not known: one of them
    /// was not read, or one includes (with quotes) a header whose file name is none of `files`'
    /// (a header a sources build phase does not list, found by the compiler's header map).
    func names(in files: [String]) -> Set<String>? {
        var out = Set<String>()
        var included = Set<String>()
        lock.lock()
        for path in files where SourceLanguage(path: path) == .objectiveC {
            guard let found = names[path] else {
                lock.unlock()
                return nil
            }
            out.formUnion(found.defined)
            included.formUnion(found.included)
        }
        lock.unlock()
        guard !included.isEmpty else { return out }
        let listed = Set(files.map { Paths.baseName($0) })
        return included.isSubset(of: listed) ? out : nil
    }
}

extension CodeIndex {
    /// What decides the `#if`s of the code of `sources` in its configuration: its Swift
    /// conditions, its preprocessor macros (C and C++ apart), and the macro names its C-family files define (not
    /// known when a file was not read or the project does not say everything the unit compiles:
    /// a header out of sight may define any name).
    func conditionFacts(_ sources: UnitSources) -> ConditionFacts {
        ConditionFacts(swift: sources.compilationConditions, macros: sources.preprocessorMacros,
                       codeMacros: sources.isComplete ? macroTable.names(in: sources.files) : nil,
                       cplusplusMacros: .some(sources.cplusplusMacros))
    }
}
