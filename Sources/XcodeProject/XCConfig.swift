import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// Build configuration files (`.xcconfig`), as Apple's "Configuration Settings File (xcconfig)
/// format" describes them: one setting per line, `NAME = value` or `NAME[sdk=...][arch=...][config=...] = value`;
/// `//` starts a comment anywhere on a line; a trailing `;` is ignored; `#include "path"` and
/// `#include? "path"` (optional: a missing file is fine) bring in another file, its path relative to
/// the including file's folder.
///
/// The loader flattens includes in order (Xcode 10 and later read `$(inherited)` in a later line as
/// the value of the earlier lines, so order is all that matters). What cannot be read becomes a
/// hole (`SettingAssignment.hole`) plus a problem naming the file and line: a missing file named
/// by `#include` or by a target's base configuration, an `#include` loop, a line that is not valid
/// xcconfig syntax (Xcode then ignores the file).
final class XCConfigLoader: @unchecked Sendable {
    static let maxIncludeDepth = 32
    /// Assignments one file gives at most, its includes flattened in: a file included twice
    /// (a diamond) is read once but counts twice, so 30 levels of diamonds would give 2^30. The
    /// rest of the file is a hole (its settings unknown) and a problem.
    static let maxAssignments = 10_000

    let files: ProjectFiles
    private(set) var problems: [ProjectProblem] = []
    /// Files read, as shown, in the order first read.
    private(set) var read: [String] = []
    private var cache: [String: [SettingAssignment]] = [:]
    /// Absolute path -> itself and every file it includes, transitively.
    private var fileSets: [String: Set<String>] = [:]
    private var problemKeys = Set<ProjectProblem>()
    /// Missing files already recorded as expected (one record per file, however often it is named).
    private var explainedMissing = Set<String>()
    /// The expected missing files, in the order first named: reported as notes, one per reason.
    private(set) var expectedMissing: [ExpectedMissing] = []
    /// The folder of the project being read: an `#include` that is not found beside the including
    /// file is looked for there, as Xcode does (element-ios's `Riot/Common.xcconfig` includes
    /// `Config/AppIdentifiers.xcconfig`, a path from the project folder).
    var projectFolder: String?

    init(files: ProjectFiles) { self.files = files }

    func report(_ p: ProjectProblem) {
        if problemKeys.insert(p).inserted { problems.append(p) }
    }

    /// The assignments of the xcconfig at `path` (usable from the current folder), includes
    /// flattened. `reference`: who names it (a base configuration reference in a project, or an
    /// `#include` line), for the problem when it is missing.
    func load(_ path: String, referencedFrom reference: (file: String, location: SourceLocation), optional: Bool = false) -> [SettingAssignment] {
        var stack: [String] = []
        return load(path, reference: reference, written: nil, optional: optional, stack: &stack)
    }

    /// Every assignment, of any setting, in the xcconfigs read so far.
    var allAssignments: [SettingAssignment] { cache.values.flatMap { $0.filter { $0.hole == nil } } }

    /// Every assignment of `name` in the xcconfigs read so far, in the order read.
    func assignments(named name: String) -> [SettingAssignment] {
        cache.values.flatMap { $0.filter { $0.name == name && $0.hole == nil } }.sorted { ($0.file, $0.location.line) < ($1.file, $1.location.line) }
    }

    /// All files the xcconfig at `path` reads (itself and its includes), absolute: for "the units
    /// that use this xcconfig". Call after `load`.
    func closure(of path: String) -> Set<String> {
        let abs = files.absolute(path)
        return fileSets[abs] ?? [abs]
    }

    /// `written`: the path as an `#include` line writes it (nil for a base configuration).
    private func load(_ path: String, reference: (file: String, location: SourceLocation), written: String?, optional: Bool,
                      stack: inout [String]) -> [SettingAssignment] {
        let abs = files.absolute(path)
        let shown = files.shown(abs)
        if let i = stack.firstIndex(of: abs) {
            let loop = (stack[i...].map { files.shown($0) } + [shown]).joined(separator: " -> ")
            report(ProjectProblem(file: reference.file, location: reference.location, message: "#include loop: \(loop)"))
            return [.hole("#include loop: \(loop)", file: reference.file, location: reference.location)]
        }
        if let cached = cache[abs] { return cached }
        guard stack.count < Self.maxIncludeDepth else {
            let why = "#include nested deeper than \(Self.maxIncludeDepth) files"
            report(ProjectProblem(file: reference.file, location: reference.location, message: why))
            return [.hole(why, file: reference.file, location: reference.location)]
        }
        if files.isOutside(abs) {
            // Never read, and never probed further (no case variant, no template beside it): the
            // finding names the reference as written, nothing of the file. An optional
            // `#include?` outside is taken as absent, silently, as a missing one is (an override
            // file kept above the project, like Loop's `../LoopConfigOverride.xcconfig`).
            if optional {
                return [.missingFileHole(shown, reason: "an optional #include? outside the project root", file: reference.file, location: reference.location)]
            }
            let referrer = reference.file.isEmpty ? shown : reference.file
            let what = written.map { "#include \"\(OutputText.reference($0))\" names a file" } ?? "the base configuration \(shown) is"
            report(ProjectProblem(file: referrer, location: reference.location,
                                  message: "\(what) outside the project root (symbolic links resolved): not read; the settings it would give are unknown"))
            return [.hole("an xcconfig outside the project root", file: referrer, location: reference.location)]
        }
        let bytes: [UInt8]
        switch files.kind(abs) == .missing ? .failure(.missing) : files.read(abs) {
        case .success(let b):
            bytes = b
        case .failure(let why):
            let referrer = reference.file.isEmpty ? shown : reference.file
            if optional && why == .missing {
                // Optional by design (a per-developer override): said only when the entitlements
                // need a setting that only it could give.
                let reason = MissingFileReason.explain(path, files: files) ?? "optional (`#include?`), and not in the repository"
                if explainedMissing.insert(abs).inserted {
                    expectedMissing.append(ExpectedMissing(shown: shown, referrer: referrer, location: reference.location, reason: reason, onlyIfNeeded: true))
                }
                return [.missingFileHole(shown, reason: reason, file: referrer, location: reference.location, templateSettings: templateSettings(path))]
            }
            if why == .missing, let variant = files.caseVariant(of: path) {
                report(ProjectProblem(file: referrer, location: reference.location,
                                      message: "\(shown) does not exist, but \(files.shown(variant)) does: the names differ only in case, which a case-insensitive volume (the macOS default) accepts; it breaks on a case-sensitive volume and on Linux, so write the name as it is", severity: .note))
                return load(variant, reference: reference, written: written, optional: optional, stack: &stack)
            }
            if why == .missing {
                // Xcode warns about a missing xcconfig and builds on; whether the file is ignored,
                // generated or just not committed, the settings only it could give are unknown.
                let reason = MissingFileReason.explain(path, files: files)
                    ?? "not committed (a file a build step makes, or one the repository lacks)"
                if explainedMissing.insert(abs).inserted {
                    expectedMissing.append(ExpectedMissing(shown: shown, referrer: referrer, location: reference.location, reason: reason))
                }
                return [.missingFileHole(shown, reason: reason, file: referrer, location: reference.location, templateSettings: templateSettings(path))]
            }
            let what = reference.file.isEmpty ? shown : "\(shown) (named here)"
            report(ProjectProblem(file: referrer, location: reference.location,
                                  message: "cannot read the xcconfig \(what): \(why); the settings it would give are unknown"))
            return [.hole("\(shown) cannot be read", file: referrer, location: reference.location)]
        }
        if !read.contains(shown) { read.append(shown) }
        stack.append(abs)
        defer { stack.removeLast() }
        let folder = Paths.directoryName(path)
        // Text of the file is quoted in a problem only when the file is named as an xcconfig: a
        // file of another kind that an `#include` names (a `KEY=VALUE` file, binary data) is not.
        let quotes = Paths.baseName(abs).lowercased().hasSuffix(".xcconfig")
        func quoted(_ text: Substring, or instead: String) -> String { quotes ? "\"\(OutputText.excerpt(text))\"" : instead }
        var out: [SettingAssignment] = []
        var includes: Set<String> = [abs]
        var lineNumber = 0
        for rawLine in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.last == "\r" { line = line.dropLast() }
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            let text = line.dropFirst(indent)
            if text.isEmpty || text.hasPrefix("//") { continue }
            let loc = SourceLocation(line: lineNumber, column: indent + 1)
            if text.hasPrefix("#include") {
                var rest = text.dropFirst("#include".count)
                let isOptional = rest.first == "?"
                if isOptional { rest = rest.dropFirst() }
                rest = rest.drop { $0 == " " || $0 == "\t" }
                guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else {
                    report(ProjectProblem(file: shown, location: loc, message: "malformed #include: the path must be in double quotes"))
                    out.append(.hole("malformed #include", file: shown, location: loc))
                    continue
                }
                let target = String(rest[rest.index(after: rest.startIndex)..<close])
                if target.hasPrefix("<") || target.contains("$(") || target.contains("${") {
                    if !isOptional {
                        let include = "#include \(quoted(Substring(target), or: "line"))"
                        report(ProjectProblem(file: shown, location: loc, message: "\(include) names a path Entitlint cannot resolve; the settings it would give are unknown"))
                        out.append(.hole(include, file: shown, location: loc))
                    }
                    continue
                }
                var includePath = ProjectFiles.normalize(ProjectFiles.join(folder, target))
                if files.kind(includePath) == .missing, let root = projectFolder {
                    let fromProject = ProjectFiles.normalize(ProjectFiles.join(root, target))
                    if files.kind(fromProject) == .file { includePath = fromProject }
                }
                let included = load(includePath, reference: (shown, loc), written: target, optional: isOptional, stack: &stack)
                guard out.count + included.count < Self.maxAssignments else {
                    tooMany(shown, loc, &out)
                    break
                }
                out += included
                includes.formUnion(fileSets[files.absolute(includePath)] ?? [files.absolute(includePath)])
                continue
            }
            // The `=` after the name and its conditions (`NAME[sdk=iphoneos*] = value`).
            var depth = 0
            let eqIndex = text.firstIndex { c in
                if c == "[" { depth += 1 } else if c == "]" { depth -= 1 }
                return c == "=" && depth <= 0
            }
            guard let eq = eqIndex else {
                report(ProjectProblem(file: shown, location: loc, message: "not an xcconfig line (expected NAME = value, #include or a // comment)\(quotes ? ": " + OutputText.excerpt(text) : "")"))
                out.append(.hole("a line that is not xcconfig syntax", file: shown, location: loc))
                continue
            }
            let key = text[..<eq].trimmed(" \t")
            guard let (name, conditions) = SettingAssignment.splitKey(key) else {
                report(ProjectProblem(file: shown, location: loc, message: "\(quoted(Substring(key), or: "the name before =")) is not a build setting name"))
                out.append(.hole("a line that is not xcconfig syntax", file: shown, location: loc))
                continue
            }
            var value = text[text.index(after: eq)...]
            if let comment = value.firstRange(of: "//") { value = value[..<comment.lowerBound] }
            var v = value.trimmed(" \t")
            if v.hasSuffix(";") { v = String(v.dropLast()).trimmed(" \t") }
            guard out.count + 1 < Self.maxAssignments else {
                tooMany(shown, loc, &out)
                break
            }
            out.append(SettingAssignment(name: name, conditions: conditions, value: v, file: shown, location: loc))
        }
        cache[abs] = out
        fileSets[abs] = includes
        return out
    }

    /// The settings the template committed beside the missing xcconfig at `path` sets
    /// (`Local.xcconfig.sample`), read as an xcconfig of its own (its includes are not followed);
    /// empty when there is none.
    func templateSettings(_ path: String) -> Set<String> {
        guard let template = MissingFileReason.template(beside: path, files: files),
              case .success(let bytes) = files.read(template) else { return [] }
        var names = Set<String>()
        for line in String(decoding: bytes.prefix(256 << 10), as: UTF8.self).split(separator: "\n") {
            let text = line.drop { $0 == " " || $0 == "\t" }
            guard !text.hasPrefix("//"), !text.hasPrefix("#"), let eq = text.firstIndex(of: "=") else { continue }
            if let (name, _) = SettingAssignment.splitKey(text[..<eq].trimmed(" \t")) { names.insert(name) }
        }
        return names
    }

    /// Ends `out` with a hole: the line at `loc` would take the file past `maxAssignments`.
    private func tooMany(_ shown: String, _ loc: SourceLocation, _ out: inout [SettingAssignment]) {
        let why = "this file and the files it includes give more than \(Self.maxAssignments) settings (a file included many times?); the settings from here on are unknown"
        report(ProjectProblem(file: shown, location: loc, message: why))
        out.append(.hole("more than \(Self.maxAssignments) settings", file: shown, location: loc))
    }
}

/// A file a project names that a fresh clone is expected to lack (`MissingFileReason`).
struct ExpectedMissing {
    var shown: String
    var referrer: String
    var location: SourceLocation
    var reason: String
    /// Whether the settings the file could give were taken as unset (an xcconfig), or nothing is
    /// lost (a project a workspace names).
    var settings = true
    /// An optional `#include?`: said only when the entitlements need a setting only it could give.
    var onlyIfNeeded = false

    /// One notice for the missing files that share a reason (a `pod install` not yet run leaves a
    /// dozen xcconfigs missing: one cause, one notice), at the first reference. `needed`: for a
    /// missing file (as shown), the settings that entitlements use and that no committed file
    /// sets in some configuration reading it: they are unknown, and the notice names them.
    static func notes(_ all: [ExpectedMissing], needed: [String: Set<String>] = [:]) -> [ProjectProblem] {
        var order: [String] = []
        var groups: [String: [ExpectedMissing]] = [:]
        for m in all where !m.onlyIfNeeded || !(needed[m.shown] ?? []).isEmpty {
            if groups[m.reason] == nil { order.append(m.reason) }
            groups[m.reason, default: []].append(m)
        }
        return order.map { reason in
            // One file named by several references (two workspaces name one submodule project) is one file.
            var seenShown = Set<String>()
            let g = groups[reason]!.filter { seenShown.insert($0.shown).inserted }
            let first = g[0]
            var names = Set<String>()
            for m in g { names.formUnion(needed[m.shown] ?? []) }
            let shownNames = names.sorted().prefix(6).map { "$(\($0))" }.joined(separator: ", ") + (names.count > 6 ? " and \(names.count - 6) more" : "")
            let unset = !g.contains { $0.settings } ? ""
                : names.isEmpty
                ? ". Until \(g.count == 1 ? "it is" : "they are"), the settings only \(g.count == 1 ? "it" : "they") could set (no committed file sets them, or a committed template does) are unknown, and checks that need one stay silent"
                : ". Until \(g.count == 1 ? "it is" : "they are"), the settings only \(g.count == 1 ? "it" : "they") could set (no committed file sets them, or a committed template does) are unknown, and so \(names.count == 1 ? "is" : "are") \(shownNames) in the entitlements: the checks that need \(names.count == 1 ? "it" : "them") stay silent"
            let what: String
            if g.count == 1 {
                what = "\(first.shown) is not here, as expected of a fresh clone: \(reason)"
            } else {
                let named = g.prefix(2).map(\.shown).joined(separator: ", ")
                let more = g.count > 2 ? " and \(g.count - 2) more" : ""
                what = "\(g.count) files are not here, as expected of a fresh clone: \(reason) (\(named)\(more))"
            }
            var p = ProjectProblem(file: first.referrer, location: first.location, message: what + unset, severity: .note)
            p.isNotice = true
            return p
        }
    }
}
