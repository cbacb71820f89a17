public import PropertyList

/// Compares two value trees by value, ignoring source locations, dict key order and dead
/// duplicate keys (the winning value counts, as CoreFoundation reads it). Used to compare a
/// binary's XML and DER entitlements, and a profile's plist with its `DER-Encoded-Profile`.
public enum PlistComparison {
    /// One difference: where (`keychain-access-groups[1]`, empty for the root) and what.
    public struct Difference: Sendable, Hashable {
        public var path: String
        /// The top-level key the difference is under (nil at the root).
        public var topLevelKey: String?
        public var description: String
    }

    /// Whether the two trees hold the same values.
    public static func equal(_ a: PlistNode, _ b: PlistNode) -> Bool {
        differences(a, b, limit: 1).isEmpty
    }

    /// Up to `limit` differences, depth first, in the key order of `a` then the extra keys of `b`.
    /// `aName` and `bName` name the two sides in descriptions ("slot 5", "slot 7").
    public static func differences(_ a: PlistNode, _ b: PlistNode, aName: String = "the first", bName: String = "the second",
                                   limit: Int = 20) -> [Difference] {
        var out: [Difference] = []
        func add(_ path: String, _ top: String?, _ text: String) {
            if out.count < limit { out.append(Difference(path: path, topLevelKey: top, description: text)) }
        }
        func walk(_ x: PlistNode, _ y: PlistNode, _ path: String, _ top: String?) {
            guard out.count < limit else { return }
            switch (x.value, y.value) {
            case (.dict(let dx), .dict(let dy)):
                let kx = dx.keys, ky = dy.keys
                let setY = Set(ky), setX = Set(kx)
                for k in kx {
                    let p = path.isEmpty ? k : "\(path).\(k)"
                    let t = top ?? k
                    if setY.contains(k) { walk(dx[k]!, dy[k]!, p, t) } else { add(p, t, "\(p) is in \(aName) but not in \(bName)") }
                }
                for k in ky where !setX.contains(k) {
                    let p = path.isEmpty ? k : "\(path).\(k)"
                    add(p, top ?? k, "\(p) is in \(bName) but not in \(aName)")
                }
            case (.array(let ax), .array(let ay)):
                if ax.count != ay.count {
                    add(path, top, "\(path.isEmpty ? "the root" : path) has \(ax.count) element\(ax.count == 1 ? "" : "s") in \(aName) but \(ay.count) in \(bName)")
                    return
                }
                for (i, (ex, ey)) in zip(ax, ay).enumerated() { walk(ex, ey, "\(path)[\(i)]", top) }
            default:
                if !scalarEqual(x.value, y.value) {
                    add(path, top, "\(path.isEmpty ? "the root" : path) is \(render(x.value)) in \(aName) but \(render(y.value)) in \(bName)")
                }
            }
        }
        walk(a, b, "", nil)
        return out
    }

    static func scalarEqual(_ a: PlistValue, _ b: PlistValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x.description == y.description
        default: return a == b
        }
    }

    /// A short rendering of a value for messages: `"text"`, `true`, `42`, `<data 12 bytes>`, `<array of 3>`.
    public static func render(_ value: PlistValue) -> String {
        switch value {
        case .string(let s): return "\"\(s.count > 80 ? String(s.prefix(77)) + "..." : s)\""
        case .integer(let i): return i.description
        case .real(let r): return "<real \(r)>"
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return "<date \(d)>"
        case .data(let d): return "<data, \(d.count) bytes>"
        case .array(let a): return "an array of \(a.count)"
        case .dict(let d): return "a dict of \(d.count) key\(d.count == 1 ? "" : "s")"
        }
    }
}
