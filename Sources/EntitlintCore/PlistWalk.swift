public import PropertyList

/// The elements of a parsed plist in document order, without recursion (a walk's stack grows
/// with the document, never the thread's): each value, and each dict entry (its `<key>`) just
/// before its value. Start lines never decrease along the walk, since the elements of a file
/// come in the order they are written.
public enum PlistWalk {
    public enum Element {
        case value(PlistNode)
        case entry(PlistDictionary.Entry)

        /// Where the element starts: the value's element, or the entry's `<key>`.
        public var location: SourceLocation {
            switch self {
            case .value(let n): return n.location
            case .entry(let e): return e.keyLocation
            }
        }

        /// The value the element stands for (an entry: its value).
        public var node: PlistNode {
            switch self {
            case .value(let n): return n
            case .entry(let e): return e.value
            }
        }

        /// The line of the last element that starts inside this one (itself when it holds
        /// none): found by following last children, so the cost is the nesting depth.
        public var lastLine: Int {
            var line = location.line
            var n = node
            while true {
                line = max(line, n.location.line)
                switch n.value {
                case .array(let items) where !items.isEmpty:
                    n = items[items.count - 1]
                case .dict(let d) where !d.entries.isEmpty:
                    n = d.entries[d.entries.count - 1].value
                default:
                    return line
                }
            }
        }
    }

    /// Calls `visit` on every element of `root` in document order until it returns false.
    public static func forEach(_ root: PlistNode, _ visit: (Element) -> Bool) {
        var stack: [Element] = [.value(root)]
        while let element = stack.popLast() {
            guard visit(element) else { return }
            switch element {
            case .entry(let e):
                stack.append(.value(e.value))
            case .value(let n):
                switch n.value {
                case .array(let items): for item in items.reversed() { stack.append(.value(item)) }
                case .dict(let d): for e in d.entries.reversed() { stack.append(.entry(e)) }
                default: break
                }
            }
        }
    }
}
