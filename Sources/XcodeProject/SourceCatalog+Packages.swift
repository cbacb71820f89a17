import EntitlintCore
import EntitlintWorkspace

// The files of a local Swift package's targets: the targets a product needs, transitively, their
// folders, and the products of other local packages they depend on.
extension SourceCatalog {
    /// The files of `names` and of the targets they depend on, transitively.
    func targets(_ names: [String], of m: PackageManifest, in folder: String, depth: Int) -> CodeList {
        var list = CodeList()
        var seen = Set<String>()
        var queue = names
        var visited = Set<String>()
        var k = 0
        while k < queue.count {
            let name = queue[k]
            k += 1
            guard visited.insert(name).inserted else { continue }
            // The run-wide budget of targets listed: past it, what the rest compile is unknown.
            guard spendTarget(folder) else {
                list.addUnscanned(targetBudgetText)
                break
            }
            guard let t = m.target(named: name) else {
                list.addUnscanned("Swift package target \(name): not declared by Package.swift of \(files.shown(folder))")
                continue
            }
            switch t.kind {
            case "testTarget", "plugin", "macro", "systemLibrary": continue
            case "binaryTarget":
                list.addUnscanned("binary target \(name) of \(files.shown(folder))")
                continue
            default: break
            }
            targetFiles(t, in: folder, to: &list, seen: &seen)
            for d in t.dependencies {
                switch d {
                case .target(let n): queue.append(n)
                case .byName(let n):
                    if m.target(named: n) != nil {
                        queue.append(n)
                    } else {
                        list.append(dependency(product: n, package: n, of: m, in: folder, depth: depth), seen: &seen)
                    }
                case .product(let n, let p):
                    list.append(dependency(product: n, package: p, of: m, in: folder, depth: depth), seen: &seen)
                }
            }
        }
        return list
    }

    /// A product of another package that a target of `m` depends on.
    func dependency(product: String, package: String, of m: PackageManifest, in folder: String, depth: Int) -> CodeList {
        guard let dep = m.dependency(identity: package) else {
            return CodeList(unscanned: ["Swift package product \(product): its package \(package) is not among the dependencies of Package.swift of \(files.shown(folder))"])
        }
        guard let path = dep.path else { return CodeList(unscanned: ["remote Swift package \(dep.identity)"]) }
        return self.product(product, package: ProjectFiles.normalize(ProjectFiles.join(folder, path)), depth: depth + 1)
    }

    /// A package target's files: its folder (`path:`, else `Sources/<name>` or SwiftPM's other
    /// default folders), narrowed to `sources:`, without `exclude:`.
    func targetFiles(_ t: PackageManifest.Target, in folder: String, to list: inout CodeList, seen: inout Set<String>) {
        var root: String
        if let path = t.path {
            root = ProjectFiles.normalize(ProjectFiles.join(folder, path))
        } else {
            let defaults = (t.kind == "testTarget" ? ["Tests"] : ["Sources", "Source", "src", "srcs"])
                .map { ProjectFiles.normalize(ProjectFiles.join(folder, $0 + "/" + t.name)) }
            root = defaults.first { !files.isOutside($0) && files.kind($0) == .directory } ?? defaults[0]
        }
        let excluded = Exclusions(t.exclude.map { files.absolute(ProjectFiles.normalize(ProjectFiles.join(root, $0))) })
        guard let sources = t.sources else {
            add(folder: root, excluded: excluded, to: &list, seen: &seen)
            return
        }
        for s in sources {
            let p = ProjectFiles.normalize(ProjectFiles.join(root, s))
            if files.kind(p) == .directory, !files.isOutside(p) {
                add(folder: p, excluded: excluded, to: &list, seen: &seen)
            } else if Self.isCode(p) {
                if !excluded.excludes(files.absolute(p)) { add(file: p, to: &list, seen: &seen) }
            }
        }
    }
}

extension SourceCatalog {
    /// A local package linked by product alone from a project whose synchronised folders hold it
    /// (Xcode 16: the product dependency names no `XCLocalSwiftPackageReference`): the one folder
    /// below `roots`, at most three levels down, whose `Package.swift` declares `product`; nil
    /// when none or several do. At most 64 manifests are looked at per root.
    func packageBelow(_ roots: [String], declaring product: String) -> String? {
        var found: [String] = []
        for root in roots where !files.isOutside(root) && files.kind(root) == .directory {
            let abs = files.absolute(root)
            let prefix = abs.hasSuffix("/") ? abs : abs + "/"
            let key = "Package.swift@" + abs
            let manifests = walks[key] ?? files.walk(abs) { path in
                Paths.baseName(path) == "Package.swift" && path.hasPrefix(prefix) && path.dropFirst(prefix.count).split(separator: "/").count <= 4
            }.prefix(64).map { $0 }
            walks[key] = manifests
            for path in manifests {
                let folder = Paths.directoryName(path)
                if case .found(let m) = manifest(folder), m.product(named: product) != nil, !found.contains(folder) { found.append(folder) }
            }
        }
        return found.count == 1 ? found[0] : nil
    }
}
