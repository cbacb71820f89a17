import EntitlintCore
import EntitlintWorkspace
import PropertyList

// What a unit compiles: its target's code list and those of the targets it links, CocoaPods and
// the Info.plist.
extension ProjectUnitBuilder {
    /// What the unit compiles: its target's list (made once for all its configurations) and those
    /// of the framework and library targets it links, embeds or depends on (LinkedCode.swift), plus
    /// CocoaPods when this configuration's base xcconfig is a `Pods-*.xcconfig`, and its Info.plist.
    func unitSources(_ target: PBXProject.Target, _ config: PBXProject.BuildConfiguration, settings: SettingsEvaluator,
                     infoPlist: String?) -> UnitSources {
        let key = files.absolute(project.file) + "#"
        let byID = targetsByID
        let list = catalog.withLinked(key + target.id, own: { codeList(target) }, linked: {
            LinkedCode.closure(of: target.id) { id in
                guard let t = byID[id] else { return [] }
                return (t.code.linkedTargets + t.dependsOn).filter { LinkedCode.productTypes.contains(byID[$0]?.productType ?? "") }
            }.compactMap { id in byID[id].map { t in (key: key + id, make: { codeList(t) }) } }
        })
        var sources = UnitSources(files: list.files, missing: list.missing, unscanned: list.unscanned)
        sources.compilationConditions = CompilationFlags.swiftConditions(settings)
        sources.preprocessorMacros = CompilationFlags.preprocessorMacros(settings)
        sources.cplusplusMacros = CompilationFlags.preprocessorMacros(settings, flags: "OTHER_CPLUSPLUSFLAGS")
        if let base = config.baseConfiguration, Paths.baseName(base).hasPrefix("Pods-"), !target.code.cocoaPods {
            sources.unscanned.append("CocoaPods (\(Paths.baseName(base)))")
        }
        if let raw = infoPlist {
            catalog.addInfoPlist(ProjectFiles.normalize(ProjectFiles.join(project.directory, raw)), entitlements: entitlements,
                                 settings: settings, to: &sources)
        }
        return sources
    }

    /// The files a target's sources phases, synchronised folders and package products give.
    func codeList(_ target: PBXProject.Target) -> CodeList {
        var list = CodeList()
        var seen = Set<String>()
        for f in target.code.files { catalog.add(file: f, to: &list, seen: &seen) }
        for name in target.code.unlocatable { list.addMissing(name) }
        let excluded = Exclusions(target.excludedFiles.map(files.absolute))
        for folder in target.code.folders { catalog.add(folder: folder, excluded: excluded, to: &list, seen: &seen) }
        for p in target.code.products {
            switch p.package {
            case .local(let folder):
                list.append(catalog.product(p.product, package: folder), seen: &seen)
            case .remote(let name):
                list.append(CodeList(unscanned: ["remote Swift package \(name)"]), seen: &seen)
            case .unnamed:
                // A package added as a folder reference: the one whose manifest declares the
                // product; else, when a folder of the product's name has no Package.swift here,
                // that manifest is what is missing.
                var found: CodeList?
                for folder in project.packageFolders {
                    if case .found(let m) = catalog.manifest(folder), m.product(named: p.product) != nil {
                        found = catalog.product(p.product, package: folder)
                        break
                    }
                }
                if found == nil, let folder = catalog.packageBelow(project.synchronizedRoots, declaring: p.product) {
                    found = catalog.product(p.product, package: folder)
                }
                if found == nil, let folder = project.packageFolders.first(where: { Paths.baseName($0) == p.product }),
                   case .missing(let shown) = catalog.manifest(folder) {
                    found = CodeList(missing: [shown])
                }
                list.append(found ?? CodeList(unscanned: ["Swift package product \(p.product): its package is not named by the project"]), seen: &seen)
            }
        }
        if target.code.cocoaPods { list.append(CodeList(unscanned: ["CocoaPods"]), seen: &seen) }
        for u in target.code.unscanned { list.addUnscanned(u) }
        return list
    }
}
