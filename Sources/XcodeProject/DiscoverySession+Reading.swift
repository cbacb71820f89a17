import EntitlintCore
import EntitlintWorkspace

// Reading what was found: workspaces (the projects they name), then projects and specs (their
// units, each marked in scope or not).
extension DiscoverySession {
    mutating func readWorkspaces() {
        for (path, scope) in workspaces {
            let (workspace, found) = Workspace.read(bundlePath: path, files: files)
            problems += found
            guard let workspace else { unitless.insert(path); continue }
            readFiles[path, default: []].append(workspace.file)
            workspaceFolders[path] = workspace.folders
            for ref in workspace.projects {
                if files.isOutside(ref.path) {
                    problems.append(ProjectProblem(file: workspace.file, location: ref.location,
                                                   message: "the workspace names \(OutputText.reference(ref.written)), outside the project root (symbolic links resolved): not read"))
                    continue
                }
                var member = ref.path
                if files.kind(ProjectFiles.join(ref.path, "project.pbxproj")) != .file, files.kind(ref.path) == .missing,
                   let variant = files.caseVariant(of: ProjectFiles.join(ref.path, "project.pbxproj")) {
                    // Xcode on a case-insensitive volume (the macOS default) opens the member.
                    member = Paths.directoryName(variant)
                    problems.append(ProjectProblem(file: workspace.file, location: ref.location,
                                                   message: "the workspace names \(files.shown(ref.path)), but the project is \(files.shown(member)): the names differ only in case, which a case-insensitive volume (the macOS default) accepts; it breaks on a case-sensitive volume and on Linux, so write the name as it is",
                                                   severity: .note))
                }
                if files.kind(ProjectFiles.join(member, "project.pbxproj")) != .file {
                    if files.kind(ref.path) == .missing, let reason = MissingFileReason.generator(ofProject: ref.path, files: files)
                        ?? MissingFileReason.explain(ref.path, files: files) {
                        expectedMissing.append(ExpectedMissing(shown: files.shown(ref.path), referrer: workspace.file, location: ref.location,
                                                               reason: reason, settings: false))
                    } else if files.kind(ref.path) == .missing {
                        // A stale member (a dependency removed, its reference left): Xcode shows it
                        // in red and builds the rest; nothing is signed differently.
                        problems.append(ProjectProblem(file: workspace.file, location: ref.location,
                                                       message: "the workspace names \(files.shown(ref.path)), which is not here: a member left over from a removed dependency, or one a set-up step makes; its targets are not checked",
                                                       severity: .note))
                    } else {
                        problems.append(ProjectProblem(file: workspace.file, location: ref.location,
                                                       message: "the workspace names \(files.shown(ref.path)), which is not an Xcode project here (no project.pbxproj)"))
                    }
                    continue
                }
                let abs = Paths.absolute(member, cwd: cwd)
                if workspaceOf[abs] == nil { workspaceOf[abs] = path }
                add(project: member, scope: scope)
            }
        }
    }

    mutating func readProjects() {
        // A generated project beside its XcodeGen spec is read from the spec.
        var specs: [String: String] = [:]   // generated .xcodeproj (absolute) -> spec
        for (path, _) in projects where XcodeGenSpec.isSpecPath(path) {
            if let name = XcodeGenSpec.projectName(path, files: files) {
                specs[Paths.directoryName(path) + "/" + name + ".xcodeproj"] = path
            }
        }
        let includer = specsIncludedByOthers()
        for (path, scope) in projects where includer[path] != nil {
            mergeScope(includer[path]!, scope)
        }
        for (path, scope) in projects {
            if includer[path] != nil { continue }
            if let spec = specs[path] {
                if let i = projects.firstIndex(where: { $0.path == spec }), scope != projects[i].scope {
                    // Merge the scope into the spec's (already iterated or not, the union is what counts).
                    mergeScope(spec, scope)
                }
                continue
            }
            if superseded.contains(path) { continue }
            var found: [ProjectUnit] = []
            let generated = specs.first { $0.value == path }?.key
            let family = workspaceOf[path] ?? generated.flatMap { workspaceOf[$0] } ?? path
            familyOf[path] = family
            if XcodeGenSpec.isSpecPath(path) {
                let (units, issues, read) = XcodeGenSpec.units(specPath: path, files: files, xcconfigs: xcconfigs, entitlements: entitlements,
                                                             variables: request.variables, limits: request.reading.limits,
                                                             catalog: catalog)
                found = units
                problems += issues
                readFiles[path, default: []] += read
            } else {
                let (read, issues) = PBXProject.read(bundlePath: path, files: files, limits: request.reading.limits)
                problems += issues
                guard var project = read else { unitless.insert(path); continue }
                // A product whose package the project does not name may be a package of its workspace.
                project.packageFolders += workspaceOf[path].flatMap { workspaceFolders[$0] } ?? []
                readFiles[path, default: []].append(project.file)
                xcconfigs.projectFolder = project.directory
                var builder = ProjectUnitBuilder(project: project, files: files, xcconfigs: xcconfigs, entitlements: entitlements,
                                                 variables: request.variables, catalog: catalog)
                found = builder.build()
                problems += builder.problems
                // Entitlements files a setting names without any target choosing them in the
                // configurations read (`MAC_ENTITLEMENTS_YES = App/App.entitlements`, picked by a
                // per-developer setting): variants of a target, not unused files.
                // A name built from a setting (`App$(SUFFIX).entitlements`) names every file it can
                // make: a pattern, each reference any run of characters within one folder.
                for a in project.allSettings + xcconfigs.allAssignments where a.value.trimmed("\"").hasSuffix(".entitlements") {
                    let path = files.absolute(ProjectFiles.normalize(ProjectFiles.join(project.directory, a.value.trimmed("\""))))
                    if a.value.contains("$") {
                        if let pattern = Self.settingPattern(path) { mentionedPatterns.insert(pattern) }
                    } else {
                        mentioned.insert(path)
                    }
                }
                mentionTemplateEntitlements(projectDirectory: project.directory)
            }
            if found.isEmpty { unitless.insert(path) }
            for var u in found {
                u.unit.inScope = Self.inScope(u, scope: effectiveScope(path, scope))
                u.unit.family = family
                units.append(u)
            }
        }
    }

    /// `path` with each `$(...)` / `${...}` reference written `*` (the glob of `globMatches`); nil
    /// when a reference is not closed or the pattern has more than 8 of them.
    static func settingPattern(_ path: String) -> String? {
        var out = ""
        var rest = Substring(path)
        var references = 0
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            guard let open = after.first, open == "(" || open == "{" else { out += "$"; rest = after; continue }
            var depth = 0
            var end: Substring.Index?
            for i in after.indices {
                let c = after[i]
                if c == "(" || c == "{" { depth += 1 } else if c == ")" || c == "}" { depth -= 1; if depth == 0 { end = i; break } }
            }
            guard let close = end else { return nil }
            references += 1
            guard references <= 8 else { return nil }
            out += "*"
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }

    /// Entitlements files that the committed template of a missing per-developer xcconfig names
    /// (`CodeSigning.xcconfig.sample`: `CODE_SIGN_ENTITLEMENTS = App/App.entitlements`): a developer
    /// who makes the file from it signs with them, so they are not unused. At most 64 KiB of each
    /// template is read.
    mutating func mentionTemplateEntitlements(projectDirectory: String) {
        for m in xcconfigs.expectedMissing {
            guard let template = MissingFileReason.template(beside: files.absolute(m.shown), files: files),
                  case .success(let bytes) = files.read(template) else { continue }
            for line in String(decoding: bytes.prefix(64 << 10), as: UTF8.self).split(separator: "\n") {
                let text = line.drop { $0 == " " || $0 == "\t" }
                guard !text.hasPrefix("//"), let eq = text.firstIndex(of: "=") else { continue }
                var value = text[text.index(after: eq)...]
                if let comment = value.firstRange(of: "//") { value = value[..<comment.lowerBound] }
                let v = value.trimmed(" \t;\r\"")
                guard v.hasSuffix(".entitlements"), !v.contains("$") else { continue }
                mentioned.insert(files.absolute(ProjectFiles.normalize(ProjectFiles.join(projectDirectory, v))))
            }
        }
    }

    /// Specs of the run that another spec of the run includes (absolute) -> the including spec
    /// that no other spec of the run includes: XcodeGen merges an included spec into the
    /// including one, so its targets are that spec's units, not units of their own as well. Specs
    /// that include each other with no such root are all kept. Asked only when the run has two
    /// specs or more; each spec's includes are loaded once more, within the same budgets.
    func specsIncludedByOthers() -> [String: String] {
        let specs = projects.map(\.path).filter(XcodeGenSpec.isSpecPath)
        guard specs.count > 1 else { return [:] }
        var includes: [String: Set<String>] = [:]
        for spec in specs {
            var ignored: [ProjectProblem] = []
            var read: [String] = []
            _ = XcodeGenSpec.load(spec, files: files, problems: &ignored, read: &read)
            includes[spec] = Set(read.map(files.absolute)).subtracting([spec])
        }
        let included = Set(includes.values.flatMap { $0 })
        var out: [String: String] = [:]
        for spec in specs where included.contains(spec) {
            if let root = specs.first(where: { !included.contains($0) && includes[$0]?.contains(spec) == true }) { out[spec] = root }
        }
        return out
    }

    mutating func mergeScope(_ spec: String, _ scope: Scope) { mergedScopes[spec] = (mergedScopes[spec] ?? scope).union(scope) }
    func effectiveScope(_ path: String, _ scope: Scope) -> Scope { mergedScopes[path].map { $0.union(scope) } ?? scope }

    static func inScope(_ u: ProjectUnit, scope: Scope) -> Bool {
        switch scope {
        case .all: return true
        case .using(let used):
            // A changed source file concerns the targets that compile it (their code is checked).
            return !used.isDisjoint(with: u.uses) || u.unit.origin.sources?.files.contains(where: used.contains) == true
        case .below(let folders):
            guard let e = u.entitlements else { return false }
            return folders.contains { e.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
    }
}
