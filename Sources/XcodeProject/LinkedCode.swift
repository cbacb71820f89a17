import EntitlintCore

/// The code of framework and library targets that a target links runs in the linking target's
/// process. A target links a framework or library target of its project when a frameworks phase
/// names its product, when a copy-files phase embeds it, or when it depends on it (Xcode links
/// the module of a dependency that the code imports: `import Kit` links Kit.framework without a
/// frameworks-phase entry, as app extensions often do with their app's framework). The keychain
/// grants a process the groups of the app's (or extension's) signed entitlements (keychain-access-groups.md
/// section 1), so the calls that code makes are checked against every target that links it.
enum LinkedCode {
    /// Product types whose code runs in the process of whatever links or embeds them. Bundles
    /// (loaded only on request), apps, extensions and tools (their own processes) are not.
    static let productTypes: Set<String> = [
        "com.apple.product-type.framework", "com.apple.product-type.framework.static",
        "com.apple.product-type.library.static", "com.apple.product-type.library.dynamic",
    ]

    /// At most this many linked targets are followed from one target (real projects: a few dozen).
    static let maxTargets = 1_000

    /// The targets `root` links, directly or through the linked targets themselves (a framework
    /// that links a static library carries its code), in breadth-first order, each once, `root`
    /// never: a cycle ends where it meets a target already taken. `links` gives a target's
    /// direct links, already narrowed to framework and library targets.
    static func closure(of root: String, links: (String) -> [String]) -> [String] {
        var out: [String] = []
        var seen: Set<String> = [root]
        var k = -1
        var current = root
        while out.count < maxTargets {
            for next in links(current) where seen.insert(next).inserted {
                out.append(next)
                if out.count == maxTargets { break }
            }
            k += 1
            guard k < out.count else { break }
            current = out[k]
        }
        return out
    }
}

extension SourceCatalog {
    /// A target's own list (made once, under `key`) followed by the own lists of the targets it
    /// links (each made once under its own key, whichever targets link it); the whole made once,
    /// under `key + "+linked"`. `linked` gives the keys and makers of the linked targets, in order.
    func withLinked(_ key: String, own: () -> CodeList, linked: () -> [(key: String, make: () -> CodeList)]) -> CodeList {
        target(key + "+linked") {
            var list = target(key, own)
            var seen = Set(list.files)
            for other in linked() { list.append(target(other.key, other.make), seen: &seen) }
            return list
        }
    }
}
