import EntitlintCore
import EntitlintWorkspace

/// Build files scanned for the entitlements and profiles they name: CMake
/// (`XCODE_ATTRIBUTE_CODE_SIGN_ENTITLEMENTS`) and MSBuild, which Entitlint does not read as
/// projects, and Bazel's rules_apple (`entitlements = ...` in `BUILD` files) and Tuist
/// (`entitlements:` in `Project.swift`), which `BazelSource` and `TuistSource` read: the scan keeps
/// a file one of those names in a way they cannot evaluate from being called unused.
///
/// From that, and only when a build file of the kind names at least one entitlements file:
/// - an entitlements file a build file names is a variant of a target (checked only by the rules
///   that need no facts, never called unused);
/// - an entitlements file below the kind's folder (the folder holding all its build files that
///   name entitlements) that none names and no Xcode project uses is unused;
/// - the run says once, in a notice, that the kind is not read and its targets' facts are unknown
///   (CMake and MSBuild only).
///
/// The provisioning profiles a build file names (`provisioning_profile = "App.mobileprovision"`) are
/// checked by the profile rules as profiles the user named (an expired one cannot sign).
///
/// Reading is bounded: at most `maxFiles` build files of `maxBytes` each; names are found by a
/// linear scan for `.entitlements`.
struct ForeignBuildFiles {
    static let maxFiles = 4096
    static let maxBytes = 1 << 20

    enum Kind: String, CaseIterable {
        case cmake = "CMake"
        case bazel = "Bazel"
        case tuist = "Tuist"
        case msbuild = ".NET (MSBuild)"

        init?(path: String) {
            let base = Paths.baseName(path)
            if base == "CMakeLists.txt" || base.hasSuffix(".cmake") { self = .cmake }
            else if base == "BUILD" || base == "BUILD.bazel" { self = .bazel }
            else if base == "Project.swift" { self = .tuist }
            else if base.hasSuffix(".csproj") { self = .msbuild }
            else { return nil }
        }
    }

    /// Per kind: the build files (as shown) that name entitlements files (or, for MSBuild, set
    /// `CodesignEntitlements`, usually an `Entitlements.plist`).
    /// Keyed by `Kind.rawValue`: a dictionary keyed by the enum itself costs a run-time
    /// conformance lookup (about a millisecond) on every run, read or not.
    private(set) var naming: [String: [String]] = [:]
    /// The kinds whose build files name `.entitlements` files: their folders decide which loose files are unused.
    private(set) var namingEntitlementsFiles = Set<String>()
    /// Absolute paths of the entitlements files named, and patterns (`globMatches`) for names
    /// built from a variable.
    private(set) var named = Set<String>()
    private(set) var namedPatterns = Set<String>()
    /// Absolute paths of the provisioning profiles a build file names (rules_apple's
    /// `provisioning_profile = "App.mobileprovision"`): checked as profiles the user named.
    private(set) var namedProfiles = Set<String>()
    /// Notes about names that match a file only case-insensitively (`existing`).
    private(set) var caseNotes: [ProjectProblem] = []

    /// Whether `path` is a build file of a kind read here (a cheap name check).
    static func isBuildFile(_ path: String) -> Bool { Kind(path: path) != nil }

    mutating func read(_ paths: [String], files: ProjectFiles) {
        for path in paths.prefix(Self.maxFiles) {
            guard let kind = Kind(path: path), case .success(let bytes) = files.read(path) else { continue }
            let text = String(decoding: bytes.prefix(Self.maxBytes), as: UTF8.self)
            let folder = files.absolute(Paths.directoryName(path))
            for suffix in [".mobileprovision", ".provisionprofile"] {
                for name in Self.names(endingWith: suffix, in: text) where !name.contains("$") && !name.contains("{") {
                    var relative = name.hasPrefix(":") ? String(name.dropFirst()) : name
                    if kind == .bazel, relative.hasPrefix("//") { continue }   // the workspace root is not known here
                    relative = relative.replacingAll(":", with: "/")
                    let named = files.absolute(ProjectFiles.normalize(relative.hasPrefix("/") ? relative : ProjectFiles.join(folder, relative)))
                    namedProfiles.insert(existing(named, buildFile: path, files: files))
                }
            }
            let names = Self.entitlementsNames(in: text)
            if kind == .msbuild, names.isEmpty, text.contains("<CodesignEntitlements>") {
                naming[kind.rawValue, default: []].append(files.shown(path))
                continue
            }
            guard !names.isEmpty else { continue }
            naming[kind.rawValue, default: []].append(files.shown(path))
            namingEntitlementsFiles.insert(kind.rawValue)
            for name in names { resolve(name, kind: kind, buildFile: path, folder: folder, files: files) }
        }
    }

    /// The folder of each kind that names entitlements: the deepest folder holding all its
    /// build files that do (absolute).
    func folders(files: ProjectFiles) -> [(kind: Kind, folder: String)] {
        namingEntitlementsFiles.sorted().compactMap { name in
            guard let kind = Kind(rawValue: name) else { return nil }
            let dirs = naming[name]!.map { files.absolute(Paths.directoryName($0)) }
            var common = dirs[0].split(separator: "/", omittingEmptySubsequences: true)
            for d in dirs.dropFirst() {
                let parts = d.split(separator: "/", omittingEmptySubsequences: true)
                var n = 0
                while n < min(common.count, parts.count) && common[n] == parts[n] { n += 1 }
                common = Array(common.prefix(n))
            }
            return (kind, "/" + common.joined(separator: "/"))
        }
    }

    /// Whether the entitlements file at `absolutePath` is named by a build file.
    func names(_ absolutePath: String) -> Bool {
        named.contains(absolutePath) || namedPatterns.contains { globMatches($0, absolutePath) }
    }

    /// The notes about case, then one notice per kind: it is not read, so its targets' facts are unknown.
    func notices() -> [ProjectProblem] {
        caseNotes + naming.keys.sorted().compactMap { name in
            // Bazel and Tuist are read by sources of their own (`BazelSource`, `TuistSource`).
            guard let kind = Kind(rawValue: name), kind != .bazel, kind != .tuist else { return nil }
            let list = naming[name]!
            let more = list.count > 1 ? " and \(list.count - 1) more" : ""
            if !namingEntitlementsFiles.contains(name) {
                var p = ProjectProblem(file: list[0], location: .unknown,
                                       message: "this \(kind.rawValue) build (\(list[0])\(more)) signs with its own entitlements (CodesignEntitlements); Entitlint does not read \(kind.rawValue) projects yet, so their targets are not checked",
                                       severity: .note)
                p.isNotice = true
                return p
            }
            var p = ProjectProblem(file: list[0], location: .unknown,
                                   message: "this \(kind.rawValue) build (\(list[0])\(more)) signs with entitlements files; Entitlint does not read \(kind.rawValue) yet, so its targets' bundle IDs, teams and settings are unknown: the files it names are checked only by the rules that need none, and the entitlements files below it that it does not name are reported unused",
                                   severity: .note)
            p.isNotice = true
            return p
        }
    }

    /// Tokens ending in `.entitlements` (quotes and CMake/Bazel/Swift delimiters around them dropped).
    static func entitlementsNames(in text: String) -> [String] { names(endingWith: ".entitlements", in: text) }

    /// Tokens ending in `suffix` (an ASCII file extension with its dot).
    static func names(endingWith ending: String, in text: String) -> [String] {
        let bytes = Array(text.utf8)
        let suffix = Array(ending.utf8)
        var out: [String] = []
        var i = 0
        while i + suffix.count <= bytes.count {
            guard bytes[i] == UInt8(ascii: "."), Array(bytes[i..<(i + suffix.count)]) == suffix else { i += 1; continue }
            let end = i + suffix.count
            var start = i
            while start > 0 {
                let c = bytes[start - 1]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: " ") || c == UInt8(ascii: "\t")
                    || c == UInt8(ascii: "\n") || c == UInt8(ascii: "(") || c == UInt8(ascii: "=") || c == UInt8(ascii: ",") || c == UInt8(ascii: "[") { break }
                start -= 1
            }
            if end - start > suffix.count { out.append(String(decoding: bytes[start..<end], as: UTF8.self)) }
            i = end
        }
        return out
    }

    /// Records what `name` (as a build file of `kind` at `buildFile` in `folder` writes it) names.
    private mutating func resolve(_ name: String, kind: Kind, buildFile: String, folder: String, files: ProjectFiles) {
        var path = name
        switch kind {
        case .bazel:
            // Labels: `//pkg:file`, `:file`, `file` (the package is the BUILD file's folder).
            if path.hasPrefix("//") {
                // The workspace root is not known here: match the package path as a suffix.
                path = "*/" + String(path.dropFirst(2)).replacingAll(":", with: "/")
                namedPatterns.insert(path)
                return
            }
            if path.hasPrefix(":") { path.removeFirst() }
            path = path.replacingAll(":", with: "/")
        case .cmake:
            // The folder of the file being processed is known for CMakeLists.txt (and for a
            // .cmake file's own CMAKE_CURRENT_LIST_DIR); a .cmake file's CMAKE_CURRENT_SOURCE_DIR
            // is the including file's, unknown here.
            let ownFolderVariables = Paths.baseName(buildFile) == "CMakeLists.txt"
                ? ["${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/"] : ["${CMAKE_CURRENT_LIST_DIR}/"]
            for v in ownFolderVariables where path.hasPrefix(v) { path = String(path.dropFirst(v.count)); break }
        case .tuist, .msbuild:
            break
        }
        if path.contains("$") || path.contains("{") {
            // A name built from a variable: what follows the last variable names the file.
            if let last = path.lastRange(of: "}") ?? path.lastRange(of: ")") {
                let rest = path[last.upperBound...].drop { $0 == "/" }
                if !rest.isEmpty { namedPatterns.insert("*/" + rest) }
            }
            return
        }
        named.insert(existing(files.absolute(ProjectFiles.normalize(path.hasPrefix("/") ? path : ProjectFiles.join(folder, path))),
                              buildFile: buildFile, files: files))
    }

    /// `path` (absolute) when it exists or nothing matches it; else the file whose name differs
    /// only in case, which a case-insensitive volume (the macOS default) opens, with a note.
    private mutating func existing(_ path: String, buildFile: String, files: ProjectFiles) -> String {
        guard files.kind(path) == .missing, !files.isOutside(path), let variant = files.caseVariant(of: path) else { return path }
        caseNotes.append(ProjectProblem(file: files.shown(buildFile), location: .unknown,
                                        message: "\(files.shown(buildFile)) names \(files.shown(path)), but the file is \(files.shown(variant)): the names differ only in case, which a case-insensitive volume (the macOS default) accepts; it breaks on a case-sensitive volume and on Linux, so write the name as it is",
                                        severity: .note))
        return variant
    }
}
