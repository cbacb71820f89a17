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
                if files.kind(ProjectFiles.join(ref.path, "project.pbxproj")) != .file {
                    if files.kind(ref.path) == .missing, let reason = MissingFileReason.explain(ref.path, files: files) {
                        expectedMissing.append(ExpectedMissing(shown: files.shown(ref.path), referrer: workspace.file, location: ref.location,
                                                               reason: reason, settings: false))
                    } else {
                        problems.append(ProjectProblem(file: workspace.file, location: ref.location,
                                                       message: "the workspace names \(files.shown(ref.path)), which is not an Xcode project here (no project.pbxproj)"))
                    }
                    continue
                }
                let abs = Paths.absolute(ref.path, cwd: cwd)
                if workspaceOf[abs] == nil { workspaceOf[abs] = path }
                add(project: ref.path, scope: scope)
            }
        }
    }

    mutating func readProjects() {
        // A generated project beside its XcodeGen spec is read from the spec.
        var specs: [String: String] = [:]   // generated .xcodeproj (absolute) -> spec
        for (path, _) in projects where path.hasSuffix("project.yml") {
            if let name = XcodeGenSpec.projectName(path, files: files) {
                specs[Paths.directoryName(path) + "/" + name + ".xcodeproj"] = path
            }
        }
        for (path, scope) in projects {
            if let spec = specs[path] {
                if let i = projects.firstIndex(where: { $0.path == spec }), scope != projects[i].scope {
                    // Merge the scope into the spec's (already iterated or not, the union is what counts).
                    mergeScope(spec, scope)
                }
                continue
            }
            var found: [ProjectUnit] = []
            let generated = specs.first { $0.value == path }?.key
            let family = workspaceOf[path] ?? generated.flatMap { workspaceOf[$0] } ?? path
            familyOf[path] = family
            if path.hasSuffix("project.yml") {
                let (units, issues, read) = XcodeGenSpec.units(specPath: path, files: files, xcconfigs: xcconfigs, entitlements: entitlements,
                                                             variables: options.configuration?.variables ?? [:], limits: options.limits,
                                                             catalog: catalog)
                found = units
                problems += issues
                readFiles[path, default: []] += read
            } else {
                let (read, issues) = PBXProject.read(bundlePath: path, files: files, limits: options.limits)
                problems += issues
                guard var project = read else { unitless.insert(path); continue }
                // A product whose package the project does not name may be a package of its workspace.
                project.packageFolders += workspaceOf[path].flatMap { workspaceFolders[$0] } ?? []
                readFiles[path, default: []].append(project.file)
                xcconfigs.projectFolder = project.directory
                var builder = ProjectUnitBuilder(project: project, files: files, xcconfigs: xcconfigs, entitlements: entitlements,
                                                 variables: options.configuration?.variables ?? [:], catalog: catalog)
                found = builder.build()
                problems += builder.problems
                // Entitlements files a setting names without any target choosing them in the
                // configurations read (`MAC_ENTITLEMENTS_YES = App/App.entitlements`, picked by a
                // per-developer setting): variants of a target, not unused files.
                for a in project.allSettings + xcconfigs.allAssignments where a.value.hasSuffix(".entitlements") && !a.value.contains("$") {
                    mentioned.insert(files.absolute(ProjectFiles.normalize(ProjectFiles.join(project.directory, a.value.trimmed("\"")))))
                }
            }
            if found.isEmpty { unitless.insert(path) }
            for var u in found {
                u.unit.inScope = Self.inScope(u, scope: effectiveScope(path, scope))
                u.unit.family = family
                units.append(u)
            }
        }
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
