import EntitlintCore
import EntitlintWorkspace

/// Reads the rules_apple targets of one `BUILD` file: its top-level bundle rules, and the bundle
/// rules of the macros it calls (their arguments bound to the macro's parameters). Each
/// `select()` key of `bundle_id`, `entitlements` or `provisioning_profile` is a configuration
/// (`//conditions:default` is `default`); a target with no `select()` has the one configuration
/// `default`. A value that needs evaluation (`glob`, a computed string, an `@repo//` label, a
/// label of a rule's output) is unknown, said in a notice, never guessed.
struct BazelReader {
    let file: BazelFile
    /// The package folder and the workspace root (absolute; nil: not found, `//` labels unknown).
    let package: String
    let root: String?
    let files: ProjectFiles
    var definitions = ManifestDefinitions()
    var notes: [ProjectProblem] = []
    static let maxTargets = 4096

    init(file: BazelFile, package: String, root: String?, files: ProjectFiles) {
        self.file = file
        self.package = package
        self.root = root
        self.files = files
    }

    /// The file a label names (absolute): `file`, `:file`, `sub/file`, `//pkg:file`, `//pkg/file`
    /// (from `root`); nil for `@repo//` labels and `//` labels without a known root.
    static func resolve(label: String, package: String, root: String?, files: ProjectFiles) -> String? {
        guard !label.hasPrefix("@"), !label.isEmpty else { return nil }
        var base = package
        var rest = Substring(label)
        if rest.hasPrefix("//") {
            guard let root else { return nil }
            base = root
            rest = rest.dropFirst(2)
        }
        if rest.hasPrefix(":") { rest = rest.dropFirst() }
        let relative = rest.replacingOccurrencesOfColon()
        let path = files.absolute(ProjectFiles.normalize(ProjectFiles.join(base, relative)))
        if let root, !(path == root || path.hasPrefix(root + "/")) { return nil }
        return path
    }

    /// `//pkg:name`, `:name`, `name` -> the key `//pkg:name` (package relative to the root).
    func key(_ label: String) -> String {
        let pkg: String
        if let root, package.hasPrefix(root) { pkg = String(package.dropFirst(root.count)).drop { $0 == "/" }.description } else { pkg = file.shown }
        if label.hasPrefix("//") { return label.contains(":") ? label : label + ":" + (label.split(separator: "/").last.map(String.init) ?? "") }
        return "//\(pkg):" + (label.hasPrefix(":") ? String(label.dropFirst()) : label)
    }

    mutating func note(_ line: Int, _ message: String) {
        var p = ProjectProblem(file: file.shown, location: .init(line: line, column: 0), message: message, severity: .note)
        p.isNotice = true
        notes.append(p)
    }

    mutating func targets() -> [ManifestTarget] {
        var out: [ManifestTarget] = []
        for call in file.calls.prefix(Self.maxTargets) {
            guard case .call(let name, nil, let args, let line) = call else { continue }
            if let rule = BazelRule(name) {
                out += targets(rule, Located(value: call, file: file.shown), bindings: [:], calledAt: line)
            } else if let macro = definitions.function(name) {
                for (result, bound) in definitions.expand(macro, args: args, file: file.shown, bindings: [:]) {
                    guard case .call(let ruleName, _, _, _) = result.value, let rule = BazelRule(ruleName) else { continue }
                    out += targets(rule, result, bindings: bound, calledAt: line)
                }
            }
        }
        return out
    }
}

extension Substring {
    fileprivate func replacingOccurrencesOfColon() -> String { String(map { $0 == ":" ? "/" : $0 }) }
}
