import EntitlintCore
import PropertyList

// Where a file reference or group is: the group tree walked from child to parent, bounded in depth
// and cycle-safe.
extension PBXReader {
    /// Child -> parent, over every group kind.
    mutating func parentMap() -> [String: String] {
        if let parents { return parents }
        var map: [String: String] = [:]
        for entry in objects.entries {
            guard let dict = entry.value.dict, let isa = dict["isa"]?.string,
                  isa == "PBXGroup" || isa == "PBXVariantGroup" || isa == "XCVersionGroup" else { continue }
            for child in dict["children"]?.array ?? [] {
                if let id = child.string, map[id] == nil { map[id] = entry.key }
            }
        }
        parents = map
        return map
    }

    /// Where a file reference or group is, from the current folder, following `sourceTree`:
    /// `<group>` (the parent group's folder), `SOURCE_ROOT` (the project folder), `<absolute>`.
    ///
    /// The chain of parent groups is walked with a loop, not recursion (a project may nest
    /// groups 100,000 deep), and stops at a cycle or past `maxGroupDepth` levels; the
    /// components are joined once at the end, so the cost is linear in the depth.
    mutating func path(of id: String, directory: String) -> Result<String, ReadFailure> {
        var components: [String] = []
        var seen = Set<String>()
        var current = id
        while true {
            guard seen.insert(current).inserted else { return .failure(ReadFailure("the groups holding it form a cycle (a reference cycle)")) }
            guard seen.count <= Self.maxGroupDepth else {
                return .failure(ReadFailure("it is nested in more than \(Self.maxGroupDepth) groups"))
            }
            guard let dict = objects[current]?.dict else { return .failure(ReadFailure("object \(OutputText.excerpt(current)) does not exist")) }
            let own = dict["path"]?.string ?? ""
            let tree = dict["sourceTree"]?.string ?? "<group>"
            switch tree {
            case "<absolute>":
                return .success(Self.joined(own, components))
            case "SOURCE_ROOT":
                return .success(Self.joined(ProjectFiles.join(directory, own), components))
            case "<group>":
                components.append(own)
                guard let parent = parentMap()[current] else {
                    // The main group (or an orphan): relative to the project folder.
                    return .success(Self.joined(directory, components))
                }
                current = parent
            default:
                return .failure(ReadFailure("it is relative to \(OutputText.excerpt(tree)), which only exists during a build"))
            }
        }
    }

    /// Groups a file may be nested in: far more than any real project (a few dozen), few enough
    /// that the path they make stays short.
    static let maxGroupDepth = 1_000

    /// `base` joined with `innermostFirst` reversed, normalised once.
    static func joined(_ base: String, _ innermostFirst: [String]) -> String {
        var path = base
        for part in innermostFirst.reversed() { path = ProjectFiles.join(path, part) }
        return ProjectFiles.normalize(path)
    }
}
