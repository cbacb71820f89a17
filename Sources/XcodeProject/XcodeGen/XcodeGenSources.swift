import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// What XcodeGen targets compile, from their `sources` and `dependencies`: static helpers of
/// `XcodeGenSpec`'s unit reading, kept apart because they read files, not the spec's settings.
enum XcodeGenSources {
    typealias YNode = XcodeGenSpec.YNode

    /// What an XcodeGen target compiles: its `sources` (a path, a list of paths, or of
    /// `{path:, excludes:, includes:, buildPhase:, type:}`; paths relative to the spec that declares
    /// the target; a folder is walked, its files kept when they match an `includes` glob, if any,
    /// and no `excludes` glob, each matched against the path below the source folder and each of
    /// its parent folders), and its `dependencies` on Swift packages (`package:` with `product:`,
    /// defaulting to the package's name) from the top-level `packages` (`path:`: local; `url:` or
    /// `github:`: remote) or `localPackages`. Carthage frameworks are not scanned.
    static func code(target: YNode, spec: YNode, specPath: String, catalog: SourceCatalog) -> CodeList {
        let files = catalog.files
        func relative(_ node: YNode) -> String {
            let folder = Paths.directoryName(node.file.isEmpty ? specPath : node.file)
            return ProjectFiles.normalize(ProjectFiles.join(folder, node.string ?? ""))
        }
        var list = CodeList()
        var seen = Set<String>()
        let sourcesNode = target["sources"]
        let items = sourcesNode.map { $0.items.isEmpty ? [$0] : $0.items } ?? []
        for item in items.prefix(SourceCatalog.maxFiles) {
            guard let pathNode = item.string != nil ? item : item["path"], pathNode.string != nil else { continue }
            // Only what goes to the sources phase is compiled: not a folder reference, not resources.
            if let type = item["type"]?.string, type == "folder" { continue }
            if let phase = item["buildPhase"]?.string, phase != "sources" { continue }
            let path = relative(pathNode)
            let excludes = (item["excludes"]?.items ?? []).compactMap(\.string).prefix(maxSourceGlobs).map(Glob.init)
            let includes = (item["includes"]?.items ?? []).compactMap(\.string).prefix(maxSourceGlobs).map(Glob.init)
            if files.kind(path) == .directory, !files.isOutside(path) {
                let keep: ((String) -> Bool)? = excludes.isEmpty && includes.isEmpty ? nil : { rel in
                    !excludes.contains { matchesPathOrParent($0, rel) } && (includes.isEmpty || includes.contains { matchesPathOrParent($0, rel) })
                }
                catalog.add(folder: path, keep: keep, to: &list, seen: &seen)
            } else if SourceCatalog.isCode(path) || files.kind(path) == .missing || files.isOutside(path) {
                catalog.add(file: path, to: &list, seen: &seen)
            }
        }
        for dep in (target["dependencies"]?.items ?? []).prefix(1_000) {
            if let name = dep["carthage"]?.string {
                list.append(CodeList(unscanned: ["Carthage framework \(name)"]), seen: &seen)
                continue
            }
            guard let package = dep["package"]?.string else { continue }
            let products = dep["products"]?.items.compactMap(\.string) ?? [dep["product"]?.string ?? package]
            if let local = spec["packages"]?[package], local["path"]?.string != nil {
                let folder = relative(local["path"]!)
                for product in products { list.append(catalog.product(product, package: folder), seen: &seen) }
            } else if let listed = spec["localPackages"]?.items.first(where: { $0.string.map(PackageManifest.lastComponent) == package }) {
                let folder = relative(listed)
                for product in products { list.append(catalog.product(product, package: folder), seen: &seen) }
            } else if spec["packages"]?[package] != nil {
                list.append(CodeList(unscanned: ["remote Swift package \(package)"]), seen: &seen)
            } else {
                list.append(CodeList(unscanned: ["Swift package \(package): not declared under `packages` of the spec"]), seen: &seen)
            }
        }
        return list
    }

    /// The framework and library targets of the spec that `target` links: its `dependencies`
    /// entries `target: NAME` (XcodeGen links a framework or library dependency unless the entry
    /// says `link: false`).
    static func linkedTargets(_ target: YNode?, productType: (String) -> String?) -> [String] {
        var out: [String] = []
        for dep in (target?["dependencies"]?.items ?? []).prefix(1_000) {
            guard let name = dep["target"]?.string, LinkedCode.productTypes.contains(productType(name) ?? "") else { continue }
            if let link = dep["link"]?.string, ["false", "no", "NO", "False", "FALSE"].contains(link) { continue }
            out.append(name)
        }
        return out
    }

    /// Globs read per source entry (real specs: a handful): each file of the folder is matched
    /// against each.
    static let maxSourceGlobs = 100

    /// Whether `glob` matches `relative` (a path below a source folder) or one of its parent folders.
    static func matchesPathOrParent(_ glob: Glob, _ relative: String) -> Bool {
        if glob.matches(relative) { return true }
        var path = Substring(relative)
        while let slash = path.lastIndex(of: "/") {
            path = path[..<slash]
            if glob.matches(String(path)) { return true }
        }
        return false
    }

    /// The unit's sources: its target's list, and its Info.plist: `info.path` (XcodeGen writes it
    /// from `info.properties` when the file is not there, and sets `INFOPLIST_FILE` to it), else
    /// `INFOPLIST_FILE` from the project folder.
    static func unitSources(_ list: CodeList, target: YNode, specPath: String, settings: SettingsEvaluator, catalog: SourceCatalog,
                            entitlements: EntitlementsCache) -> UnitSources {
        let files = catalog.files
        var sources = UnitSources(files: list.files, missing: list.missing, unscanned: list.unscanned)
        let info = target["info"]
        if let pathNode = info?["path"], pathNode.string != nil {
            let folder = Paths.directoryName(pathNode.file.isEmpty ? specPath : pathNode.file)
            let path = ProjectFiles.normalize(ProjectFiles.join(folder, pathNode.string!))
            if let properties = info?["properties"], !files.isOutside(path), files.kind(path) == .missing {
                sources.infoPlistPath = files.shown(path)
                sources.infoPlist = SourceCatalog.infoPlist(XcodeGenSpec.document(properties)) { SourceCatalog.evaluate($0, settings: settings) }
            } else {
                catalog.addInfoPlist(path, entitlements: entitlements, settings: settings, to: &sources)
            }
        } else if let raw = settings.resolveForSigning(KeySetting.infoPlist, structural: true).value?.trimmed(" \t"), !raw.isEmpty {
            let path = ProjectFiles.normalize(ProjectFiles.join(Paths.directoryName(specPath), raw))
            catalog.addInfoPlist(path, entitlements: entitlements, settings: settings, to: &sources)
        }
        return sources
    }
}
