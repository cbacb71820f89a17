// The document grammar of an old-style property list: dicts, arrays and values parsed with an
// explicit stack of open containers and a small state machine, so that no depth exhausts the stack.

extension OpenStepParser {
    enum Frame {
        case array([PlistNode], SourceLocation)
        case dict(PlistDictionary, SourceLocation, key: String, keyLocation: SourceLocation)
    }

    enum State { case value, dictKey, afterKey, afterArrayElement, afterDictValue }

    mutating func parseDocument() throws(PlistError) -> PlistNode {
        skipSpace()
        guard i < b.count else { throw PlistError(.empty, "the file holds no property list", at: location) }
        var stack: [Frame] = []
        var state = State.value
        var arrayMayClose = false
        var root: PlistNode?

        func eof(_ stack: [Frame]) -> PlistError {
            switch stack.last {
            case .array(_, let loc)?:
                return error("unexpected end of file: the array opened at line \(loc.line) is not closed")
            case .dict(_, let loc, _, _)?:
                return error("unexpected end of file: the dictionary opened at line \(loc.line) is not closed")
            case nil:
                return error("unexpected end of file")
            }
        }

        // Hands a finished value to its container; sets `root` when it is the root.
        func deliver(_ node: PlistNode, _ stack: inout [Frame], _ state: inout State) {
            switch stack.popLast() {
            case nil:
                root = node
            case .array(var items, let loc)?:
                items.append(node)
                stack.append(.array(items, loc))
                state = .afterArrayElement
            case .dict(var dict, let loc, let key, let keyLocation)?:
                dict.append(PlistDictionary.Entry(key: key, keyLocation: keyLocation, value: node))
                stack.append(.dict(dict, loc, key: "", keyLocation: .unknown))
                state = .afterDictValue
            }
        }

        while root == nil {
            skipSpace()
            guard i < b.count else { throw eof(stack) }
            let c = b[i]
            let loc = location
            switch state {
            case .value:
                if c == UInt8(ascii: ")"), arrayMayClose, case .array(let items, let aloc)? = stack.last {
                    i += 1
                    stack.removeLast()
                    deliver(PlistNode(.array(items), at: aloc), &stack, &state)
                } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "(") {
                    guard stack.count < limits.depthBound else {
                        throw limits.tooDeep(at: loc) { "nesting deeper than \($0) levels" }
                    }
                    try count()
                    i += 1
                    if c == UInt8(ascii: "{") {
                        stack.append(.dict(PlistDictionary(), loc, key: "", keyLocation: .unknown))
                        state = .dictKey
                    } else {
                        stack.append(.array([], loc))
                        arrayMayClose = true
                    }
                } else if c == UInt8(ascii: "<") {
                    try count()
                    let d = try data()
                    deliver(PlistNode(.data(d), at: loc), &stack, &state)
                } else if let s = try stringToken() {
                    try count()
                    deliver(PlistNode(.string(s), at: loc), &stack, &state)
                } else {
                    throw error("unexpected \(shownByte()): expected a string, '{', '(' or '<'")
                }
            case .dictKey:
                if c == UInt8(ascii: "}") {
                    i += 1
                    guard case .dict(let dict, let dloc, _, _)? = stack.popLast() else { throw error("internal: no dictionary") }
                    deliver(PlistNode(.dict(dict), at: dloc), &stack, &state)
                } else if let key = try stringToken() {
                    guard case .dict(let dict, let dloc, _, _)? = stack.popLast() else { throw error("internal: no dictionary") }
                    stack.append(.dict(dict, dloc, key: key, keyLocation: loc))
                    state = .afterKey
                } else {
                    throw error("unexpected \(shownByte()): expected a key or '}'")
                }
            case .afterKey:
                if c == UInt8(ascii: "=") {
                    i += 1
                    state = .value
                    arrayMayClose = false
                } else if c == UInt8(ascii: ";"), case .dict(_, _, let key, let keyLocation)? = stack.last {
                    // The strings-file shortcut `key;`: the value is the key itself.
                    try count()
                    deliver(PlistNode(.string(key), at: keyLocation), &stack, &state)
                } else {
                    throw error("unexpected \(shownByte()): expected '=' after the key")
                }
            case .afterArrayElement:
                if c == UInt8(ascii: ",") {
                    i += 1
                    state = .value
                    arrayMayClose = true
                } else if c == UInt8(ascii: ")") {
                    i += 1
                    guard case .array(let items, let aloc)? = stack.popLast() else { throw error("internal: no array") }
                    deliver(PlistNode(.array(items), at: aloc), &stack, &state)
                } else {
                    throw error("unexpected \(shownByte()): expected ',' or ')' in the array")
                }
            case .afterDictValue:
                if c == UInt8(ascii: ";") {
                    i += 1
                    state = .dictKey
                } else {
                    throw error("missing ';' after a dictionary value (found \(shownByte()))")
                }
            }
        }
        skipSpace()
        guard i >= b.count else {
            throw error("unexpected \(shownByte()) after the end of the property list")
        }
        return root!
    }
}
