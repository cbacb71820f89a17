import EntitlintCore
import PropertyList

extension UnitContext {
    /// The string elements of the array entitlement `key` (non-strings skipped).
    func strings(of key: String) -> [StringItem] {
        if key == "keychain-access-groups" { return keychainGroups }
        if key == "com.apple.security.application-groups" { return appGroups }
        return StringItem.items(of: key, in: unit.entitlements)
    }

    /// Where the entitlement `key` is written (its `<key>`), or the root dict.
    func keyLocation(_ key: String) -> SourceLocation {
        unit.entitlements.entry(key)?.keyLocation ?? unit.document.root.location
    }

    /// A location that always exists: `loc` when known, else the root element.
    func located(_ loc: SourceLocation) -> SourceLocation {
        loc.isKnown ? loc : unit.document.root.location
    }
}

/// The standard header of an entitlements file, for docs.
enum ExampleText {
    static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>

    """
    static let footer = "\n</dict>\n</plist>\n"
}

/// One step of a plist key path.
enum PathComponent {
    case key(String)
    case index(Int)

    /// `a.b[2].c`
    static func render(_ components: [PathComponent]) -> String {
        var s = ""
        for c in components {
            switch c {
            case .key(let k): s += s.isEmpty ? k : "." + k
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }
}

/// Visits every node of a plist, depth first, with its path (rendered only by a visitor that
/// needs it: most nodes produce no finding).
func walkPlist(_ root: PlistNode, _ visit: (PlistNode, [PathComponent]) -> Void) {
    var path: [PathComponent] = []
    func go(_ node: PlistNode) {
        visit(node, path)
        switch node.value {
        case .array(let items):
            for (i, n) in items.enumerated() {
                path.append(.index(i))
                go(n)
                path.removeLast()
            }
        case .dict(let d):
            for e in d.entries {
                path.append(.key(e.key))
                go(e.value)
                path.removeLast()
            }
        default:
            return
        }
    }
    go(root)
}
