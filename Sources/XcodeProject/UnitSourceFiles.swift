import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// What one target of an Xcode project compiles, as its `project.pbxproj` lists it (paths usable
/// from the current folder, not yet checked on disk).
struct TargetCode: Sendable {
    /// Files of its sources build phases with a code extension, located through the group tree.
    var files: [String] = []
    /// Its file-system synchronised folders (Xcode 16).
    var folders: [String] = []
    /// The Swift package products it links.
    var products: [PackageProductReference] = []
    /// A `[CP]` build phase: CocoaPods builds part of what it links.
    var cocoaPods = false
    /// Source files whose place cannot be known (a group cycle, groups nested too deep), by name.
    var unlocatable: [String] = []
    /// IDs of the targets whose products its frameworks and copy-files phases name, in phase order.
    var linkedTargets: [String] = []
    /// What of it is not read (more package products than `PBXReader.maxPackageProducts`).
    var unscanned: [String] = []
}

struct PackageProductReference: Sendable, Hashable {
    enum Package: Sendable, Hashable {
        /// The package folder, usable from the current folder.
        case local(String)
        /// The remote package's name (the last component of its URL).
        case remote(String)
        /// A product whose package the project does not name (a package of the workspace, or one
        /// added as a folder reference).
        case unnamed
    }
    var product: String
    var package: Package
}

/// The code one unit's target compiles, before the per-unit parts (the Info.plist, the base
/// configuration) are added; shared by every configuration of the target.
struct CodeList: Sendable {
    var files: [String] = []
    private(set) var missing: [String] = []
    private(set) var unscanned: [String] = []
    /// What `missing` and `unscanned` hold, so that adding one is not a search of the list.
    private var listed = Set<String>()

    init(files: [String] = [], missing: [String] = [], unscanned: [String] = []) {
        self.files = files
        for m in missing { addMissing(m) }
        for u in unscanned { addUnscanned(u) }
    }

    mutating func addMissing(_ shown: String) {
        if listed.insert("m" + shown).inserted { missing.append(shown) }
    }

    mutating func addUnscanned(_ what: String) {
        if listed.insert("u" + what).inserted { unscanned.append(what) }
    }

    /// Adds `other`'s entries not already listed, keeping the order.
    mutating func append(_ other: CodeList, seen: inout Set<String>) {
        for f in other.files where seen.insert(f).inserted { files.append(f) }
        for m in other.missing { addMissing(m) }
        for u in other.unscanned { addUnscanned(u) }
    }
}

/// Absolute paths of files and folders left out: a path is excluded when it or one of its parent
/// folders is listed (one lookup per path component, whatever the number of exclusions).
struct Exclusions {
    let paths: Set<String>
    init(_ paths: [String]) { self.paths = Set(paths) }

    func excludes(_ path: String) -> Bool {
        guard !paths.isEmpty else { return false }
        var p = Substring(path)
        while true {
            if paths.contains(String(p)) { return true }
            guard let slash = p.lastIndex(of: "/"), slash != p.startIndex else { return false }
            p = p[..<slash]
        }
    }
}
