import EntitlintCore
import EntitlintWorkspace

/// Reads the targets of one Tuist `Project.swift` without running it: `Project(name:targets:
/// settings:)`, each `.target(...)` / `Target(...)` / `Target.target(...)` in `targets`, and
/// calls of helper functions of `Tuist/ProjectDescriptionHelpers` that return one (their
/// arguments bound to their parameters). Strings, constants and those helpers are resolved;
/// anything else is unknown and said so, never guessed.
struct TuistReader {
    let definitions: ManifestDefinitions
    /// The manifest (as shown), its folder and the Tuist root (absolute).
    let manifest: String
    let manifestFolder: String
    let root: String
    let files: ProjectFiles
    let xcconfigs: XCConfigLoader
    let family: String
    var notes: [ProjectProblem] = []
    /// The places building targets that need evaluation, said in one notice per file by the source.
    var unread = UnreadTargets()
    static let maxTargets = 512

    /// The targets of every `Project(...)` call of `file`, per configuration.
    mutating func targets(of file: TuistFile) -> [ManifestTarget] {
        var out: [ManifestTarget] = []
        for (located, bindings) in projects(of: file).prefix(4) {
            let project = located.value
            let projectName = project.arg("name").flatMap { definitions.resolve(Located(value: $0, file: located.file), bindings: bindings).value.stringValue } ?? "Project"
            let projectSettings = settings(project.arg("settings"), file: located.file, bindings: bindings, outer: nil)
            guard let list = project.arg("targets") else { continue }
            let resolved = definitions.resolve(Located(value: list, file: located.file), bindings: bindings)
            guard case .list(let items, _) = resolved.value else {
                // Said once where they are built: every project a helper builds shares it.
                if resolved.file != manifest {
                    unread.add(file: resolved.file, line: resolved.value.line, valueAt: resolved.place)
                } else {
                    note(line: project.line, "the targets of project \(projectName) need evaluation (\(resolved.place)): they are not read")
                }
                continue
            }
            for item in items.prefix(Self.maxTargets) {
                out += target(Located(value: item, file: resolved.file), bindings: bindings, projectName: projectName, projectSettings: projectSettings, depth: 0)
            }
        }
        return out
    }

    /// The `Project(...)` calls the manifest's project is: written there, or returned by a helper
    /// (`Project.app(name:targets:)` returning `.init(...)`), with the helper's arguments bound.
    private mutating func projects(of file: TuistFile) -> [(Located, [String: Located])] {
        var out: [(Located, [String: Located])] = []
        for value in file.projectValues() {
            let l = definitions.resolve(Located(value: value, file: manifest))
            guard case .call(let callee, _, let args, let line) = l.value else {
                note(line: value.line, "the project needs evaluation (\(l.place)): its targets are not read")
                continue
            }
            if callee == "Project" || callee == "init" { out.append((l, [:])); continue }
            guard let f = definitions.function(callee) else {
                note(line: line, "the project is built by \(callee) (\(l.place)), whose definition is not in the files read: its targets are not read")
                continue
            }
            for (result, bound) in definitions.expand(f, args: args, file: l.file, bindings: [:]) {
                if case .call(let c, _, _, _) = result.value, c == "Project" || c == "init" { out.append((result, bound)) }
                else { note(line: line, "the project built by \(callee) (\(l.place)) needs evaluation: its targets are not read") }
            }
        }
        return out
    }

    mutating func note(file: String? = nil, line: Int, _ message: String) {
        var p = ProjectProblem(file: file ?? manifest, location: .init(line: line, column: 0), message: message, severity: .note)
        p.isNotice = true
        notes.append(p)
    }

    /// One element of `targets:`: a target call, or a helper call returning one.
    private mutating func target(_ item: Located, bindings: [String: Located], projectName: String, projectSettings: TuistSettings, depth: Int) -> [ManifestTarget] {
        let l = definitions.resolve(item, bindings: bindings)
        guard case .call(let callee, _, let args, let line) = l.value, depth < 8 else {
            if l.file != manifest { unread.add(file: l.file, line: l.value.line, valueAt: l.place) }
            else { unread.add(file: manifest, line: item.value.line, valueAt: l.place) }
            return []
        }
        if callee == "target" || callee == "Target" {
            return read(l, bindings: bindings, projectName: projectName, projectSettings: projectSettings)
        }
        guard let f = definitions.function(callee) else {
            let elsewhere = l.place == "\(manifest):\(item.value.line)" ? "" : " (at \(l.place))"
            note(line: item.value.line, "the target built by \(callee)\(elsewhere) is not read: its definition is not in the files read")
            return []
        }
        var out: [ManifestTarget] = []
        for (result, bound) in definitions.expand(f, args: args, file: l.file, bindings: bindings) {
            var t = target(result, bindings: bound, projectName: projectName, projectSettings: projectSettings, depth: depth + 1)
            // The target is where the manifest calls the helper.
            for i in t.indices { t[i].line = line; t[i].place = "\(l.file):\(line)" }
            out += t
        }
        return out
    }

    func string(_ v: ManifestValue?, file: String, bindings: [String: Located]) -> ManifestFact {
        guard let v else { return .unset }
        let r = definitions.resolve(Located(value: v, file: file), bindings: bindings)
        switch r.value {
        case .string(let s, _):
            return s.contains("$(") || s.contains("${") ? .unknown("\(s) needs build settings", place: r.place) : .known(s, place: r.place)
        case .unknown(let why, _): return .unknown(why, place: r.place)
        default: return .unknown("a value that needs evaluation", place: r.place)
        }
    }

    /// A path as Tuist writes one: `"App/App.entitlements"` (from the manifest's folder),
    /// `.relativeToManifest("...")`, `.relativeToRoot("...")`, `.path("...")`; absolute.
    func path(_ v: ManifestValue, file: String, bindings: [String: Located]) -> String? {
        let r = definitions.resolve(Located(value: v, file: file), bindings: bindings)
        var base = manifestFolder
        var text: String?
        switch r.value {
        case .string(let s, _): text = s
        case .call(let name, nil, let args, _) where ["relativeToManifest", "relativeToRoot", "path", "relativeToCurrentFile"].contains(name):
            if name == "relativeToRoot" { base = root }
            if name == "relativeToCurrentFile" { base = files.absolute(Paths.directoryName(r.file)) }
            text = args.first.flatMap { definitions.resolve(Located(value: $0.value, file: r.file), bindings: bindings).value.stringValue }
        default: break
        }
        guard var t = text, !t.contains("$("), !t.contains("${") || t.hasPrefix("$(SRCROOT)/") else { return nil }
        if t.hasPrefix("$(SRCROOT)/") { t = String(t.dropFirst("$(SRCROOT)/".count)) }
        return files.absolute(ProjectFiles.normalize(t.hasPrefix("/") ? t : ProjectFiles.join(base, t)))
    }

    /// The entitlements argument: a path (string, `.file(path:)`, `Entitlements(stringLiteral:)`),
    /// or a literal `.dictionary([...])` (`written`, the fact then `.unset`); a dictionary that is
    /// not literal and `.variable(...)` are unknown.
    func entitlements(_ v: ManifestValue?, file: String, bindings: [String: Located]) -> (ManifestFact, written: WrittenEntitlements?) {
        guard let v else { return (.unset, nil) }
        let r = definitions.resolve(Located(value: v, file: file), bindings: bindings)
        guard case .call("dictionary", _, let args, _) = r.value else { return (entitlementsPath(r, bindings: bindings), nil) }
        guard args.count == 1, args[0].label == nil else {
            return (.unknown("entitlements written as a dictionary that is not a literal", place: r.place), nil)
        }
        switch TuistEntitlementsDictionary.document(args[0].value) {
        case .success(let document): return (.unset, WrittenEntitlements(document: document, file: r.file, place: r.place))
        case .failure(let u): return (.unknown(u.reason, place: "\(r.file):\(u.line)"), nil)
        }
    }

    private func entitlementsPath(_ r: Located, bindings: [String: Located]) -> ManifestFact {
        switch r.value {
        case .none: return .unset
        case .call(let name, _, let args, _) where name == "file" || name == "Entitlements" || name == "init":
            guard let p = (r.value.arg("path") ?? r.value.arg("stringLiteral") ?? args.first?.value) else { break }
            if let abs = path(p, file: r.file, bindings: bindings) { return .known(abs, place: r.place) }
        default:
            if let abs = path(r.value, file: r.file, bindings: bindings) { return .known(abs, place: r.place) }
        }
        return .unknown("an entitlements path that needs evaluation", place: r.place)
    }
}
