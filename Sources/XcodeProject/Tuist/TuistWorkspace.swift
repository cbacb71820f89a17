import EntitlintCore
import EntitlintWorkspace

/// A Tuist `Workspace.swift`, read without running it: `Workspace(name:projects:...)`, whose
/// `projects:` are the folders holding the workspace's `Project.swift` manifests, written as
/// strings (`"App"`, from the workspace's folder) or paths (`.relativeToRoot("App")`), globs
/// (`"Modules/**"`, `"Features/*"`) expanded inside the project root only. A folder listed
/// without a `Project.swift`, and a glob matching none, is a note; a list or an element that
/// needs evaluation is a notice, never guessed.
struct TuistWorkspace {
    static let maxListed = 256
    /// Each glob walks the folder before its first wildcard: at most this many per workspace.
    static let maxGlobs = 16
    static let maxPatternLength = 1024
    /// The workspace file (absolute) and its name, and where `Workspace(` is written, as shown.
    let path: String
    var name = "Workspace"
    var place: String
    /// The manifests (absolute) it lists, in order, each once.
    var manifests: [String] = []
    var notes: [ProjectProblem] = []

    /// Nil when the file cannot be read or writes no `Workspace(...)` call.
    init?(path: String, files: ProjectFiles, definitions: ManifestDefinitions) {
        guard case .success(let bytes) = files.read(path) else { return nil }
        let shown = files.shown(path)
        let file = TuistFile(bytes: bytes, shown: shown)
        var definitions = definitions
        file.define(into: &definitions)
        guard let call = file.calls("Workspace").first else { return nil }
        self.path = path
        place = "\(shown):\(call.line)"
        let folder = files.absolute(Paths.directoryName(path))
        // Paths are read as a target's are: from the workspace's folder, which is the Tuist root.
        let reader = TuistReader(definitions: definitions, manifest: shown, manifestFolder: folder, root: folder,
                                 files: files, xcconfigs: XCConfigLoader(files: files), family: path)
        if let n = call.arg("name").flatMap({ definitions.resolve(Located(value: $0, file: shown)).value.stringValue }) { name = n }
        guard let listed = call.arg("projects") else { return }
        let list = definitions.resolve(Located(value: listed, file: shown))
        guard case .list(let items, _) = list.value else {
            note(shown, line: call.line, "the projects of workspace \(name) need evaluation (\(list.place)): they are not read")
            return
        }
        var globs = 0
        for item in items.prefix(Self.maxListed) {
            let r = definitions.resolve(Located(value: item, file: shown))
            guard let abs = reader.path(item, file: shown, bindings: [:]) else {
                note(shown, line: item.line, "a project of workspace \(name) needs evaluation (\(r.place)): it is not read")
                continue
            }
            let written = r.value.stringValue ?? r.value.arg("path")?.stringValue ?? r.value.positional(0)?.stringValue ?? files.shown(abs)
            // Wildcards are those written: the folders above may hold `*` or `?` in their names.
            let relative = ProjectFiles.normalize(written).split(separator: "/")
            if relative.contains(where: { $0.contains("*") || $0.contains("?") }) {
                globs += 1
                guard globs <= Self.maxGlobs else {
                    note(shown, line: item.line, "workspace \(name) lists more than \(Self.maxGlobs) globs: \(OutputText.reference(written)) is not read")
                    continue
                }
                let found = Self.expand(abs, wildcardsIn: relative.count, files: files)
                if found.isEmpty { note(shown, line: item.line, "workspace \(name) lists \(OutputText.reference(written)), which matches no folder holding a Project.swift inside the project root") }
                for m in found where !manifests.contains(m) { manifests.append(m) }
                continue
            }
            let manifest = ProjectFiles.join(abs, "Project.swift")
            if files.isOutside(manifest) {
                note(shown, line: item.line, "workspace \(name) lists \(OutputText.reference(written)), outside the project root (symbolic links resolved): not read")
            } else if files.kind(manifest) != .file {
                note(shown, line: item.line, "workspace \(name) lists \(OutputText.reference(written)), which holds no Project.swift: not read")
            } else if !manifests.contains(manifest) {
                manifests.append(manifest)
            }
        }
    }

    private mutating func note(_ file: String, line: Int, _ message: String) {
        var p = ProjectProblem(file: file, location: .init(line: line, column: 0), message: message, severity: .note)
        p.isNotice = true
        notes.append(p)
    }

    /// The `Project.swift` manifests (absolute) in the folders `pattern` (absolute, normalized)
    /// matches: `*` and `?` within one folder name, `**` any number of folders (none included);
    /// wildcards only in its last `wildcardsIn` components (those written).
    /// Only the folder before the first wildcard is walked, inside the project root; at most
    /// `TuistSource.maxManifests` found.
    static func expand(_ pattern: String, wildcardsIn written: Int, files: ProjectFiles) -> [String] {
        guard pattern.count <= maxPatternLength else { return [] }
        let parts = pattern.split(separator: "/").map(String.init)
        let start = max(0, parts.count - written)
        guard let first = parts[start...].firstIndex(where: { $0.contains("*") || $0.contains("?") }) else { return [] }
        let base = "/" + parts[..<first].joined(separator: "/")
        guard !files.isOutside(base), files.kind(base) == .directory else { return [] }
        let rest = Array(parts[first...])
        let found = files.walk(base) { Paths.baseName($0) == "Project.swift" }.sorted()
        var out: [String] = []
        for manifest in found where out.count < TuistSource.maxManifests {
            let folder = files.absolute(Paths.directoryName(manifest))
            guard folder.hasPrefix(base == "/" ? "/" : base + "/") else { continue }
            let relative = folder.dropFirst(base == "/" ? 1 : base.count + 1).split(separator: "/").map(String.init)
            if matches(rest, relative) { out.append(files.absolute(manifest)) }
        }
        return out
    }

    /// Whether folder names `names` match pattern components `pattern` (`**` spans any number).
    /// Dynamic programming over both: quadratic in their lengths, no backtracking.
    static func matches(_ pattern: [String], _ names: [String]) -> Bool {
        var can = Array(repeating: Array(repeating: false, count: names.count + 1), count: pattern.count + 1)
        can[pattern.count][names.count] = true
        for i in stride(from: pattern.count - 1, through: 0, by: -1) {
            for j in stride(from: names.count, through: 0, by: -1) {
                if pattern[i] == "**" {
                    can[i][j] = can[i + 1][j] || (j < names.count && can[i][j + 1])
                } else {
                    can[i][j] = j < names.count && matches(name: Array(pattern[i]), Array(names[j])) && can[i + 1][j + 1]
                }
            }
        }
        return can[0][0]
    }

    /// One folder name against one component: `*` any characters, `?` one.
    static func matches(name pattern: [Character], _ name: [Character]) -> Bool {
        var can = Array(repeating: Array(repeating: false, count: name.count + 1), count: pattern.count + 1)
        can[pattern.count][name.count] = true
        for i in stride(from: pattern.count - 1, through: 0, by: -1) {
            for j in stride(from: name.count, through: 0, by: -1) {
                switch pattern[i] {
                case "*": can[i][j] = can[i + 1][j] || (j < name.count && can[i][j + 1])
                case "?": can[i][j] = j < name.count && can[i + 1][j + 1]
                default: can[i][j] = j < name.count && name[j] == pattern[i] && can[i + 1][j + 1]
                }
            }
        }
        return can[0][0]
    }
}
