// The decoder of one binary property list: its state, the checked low-level reads, and the tree
// walk that builds the nodes with an explicit stack (object headers: BinaryPlistDecoder+Objects).

/// The decoding state for one file.
struct BinaryPlistDecoder {
    let bytes: [UInt8]
    let limits: PlistLimits
    let trailer: BinaryPlistTrailer
    /// End (exclusive) of the bytes objects may occupy.
    let objectAreaEnd: Int

    /// Values decoded so far, counting every node each time it is reached (shared objects too).
    var decodedCount = 0
    /// Scalars already decoded, by object index, so a string shared by many references is built
    /// once and its storage shared (Swift strings and arrays are copy-on-write).
    var scalarCache: [Int: PlistValue] = [:]
    /// Containers on the path from the root to the one being decoded, for cycle detection.
    var onPath: Set<Int> = []

    init(_ bytes: [UInt8], limits: PlistLimits) throws(PlistError) {
        self.bytes = bytes
        self.limits = limits
        self.trailer = try BinaryPlistTrailer(bytes)
        self.objectAreaEnd = trailer.offsetTableOffset
    }

    // MARK: - Low-level reads

    /// Big-endian unsigned integer of `size` (1...8) bytes at `at`, which the caller has checked.
    func readUInt(at: Int, size: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in at..<(at + size) { v = v << 8 | UInt64(bytes[i]) }
        return v
    }

    /// The file offset of object `index` (< numObjects), checked to lie in the object area.
    func offset(of index: Int) throws(PlistError) -> Int {
        // index < numObjects and numObjects * offsetIntSize fits before the trailer: no overflow.
        let entry = trailer.offsetTableOffset + index * trailer.offsetIntSize
        let raw = readUInt(at: entry, size: trailer.offsetIntSize)
        guard let off = Int(exactly: raw), off >= BinaryPlistReader.headerSize, off < objectAreaEnd else {
            throw PlistError(.invalidBinary,
                "offset table: object \(index) is at offset \(raw), outside the object data (bytes 8..<\(objectAreaEnd))")
        }
        return off
    }

    /// The object index named by the reference at `at` (already bounds-checked).
    func reference(at: Int, from context: @autoclosure () -> String) throws(PlistError) -> Int {
        let raw = readUInt(at: at, size: trailer.objectRefSize)
        guard raw < UInt64(trailer.numObjects) else {
            throw PlistError(.invalidBinary,
                "\(context()): reference to object \(raw), but the file has only \(trailer.numObjects) objects")
        }
        return Int(raw)
    }

    mutating func countValue(_ context: @autoclosure () -> String) throws(PlistError) {
        decodedCount += 1
        if decodedCount > limits.maxElements {
            throw PlistError(.tooLarge,
                "\(context()): more than \(limits.maxElements) values (shared objects count at every reference)", limit: .elements)
        }
    }

    // MARK: - Tree

    /// A container being decoded.
    struct Frame {
        let index: Int
        let context: String
        let isDict: Bool
        let count: Int
        /// Where the value references start (after the key references for a dict).
        let valueRefsStart: Int
        var next = 0
        var items: [PlistNode] = []
        var keys: [String] = []
        /// A dict's entries: the first of each key (CoreFoundation's winner in a binary dict),
        /// and the later, dead repeats.
        var entries: [PlistDictionary.Entry] = []
        var repeats: [PlistDictionary.Entry] = []
        var seenKeys: Set<String> = []
    }

    /// Decodes object `index`, reached at `depth` (root = 1): a scalar is returned, a container
    /// becomes a new frame on `stack` and nil is returned.
    mutating func enter(_ index: Int, depth: Int, from parent: String?, stack: inout [Frame]) throws(PlistError) -> PlistNode? {
        if onPath.contains(index) {
            throw PlistError(.invalidBinary,
                "\(parent ?? "top object"): refers to object \(index), which contains it (reference cycle)")
        }
        try countValue(parent.map { "\($0): value object \(index)" } ?? "object \(index)")
        switch try object(index) {
        case .scalar(let v):
            return PlistNode(v, at: .unknown)
        case .array(let n, let refsStart, let ctx):
            try pushContainer(index: index, context: ctx, isDict: false, count: n, refsStart: refsStart,
                              depth: depth, stack: &stack)
            return nil
        case .dict(let n, let refsStart, let ctx):
            try pushContainer(index: index, context: ctx, isDict: true, count: n, refsStart: refsStart,
                              depth: depth, stack: &stack)
            return nil
        }
    }

    mutating func pushContainer(index: Int, context ctx: String, isDict: Bool, count n: Int, refsStart: Int,
                                depth: Int, stack: inout [Frame]) throws(PlistError) {
        guard depth <= limits.depthBound else {
            throw limits.tooDeep { "\(ctx): \(isDict ? "dict" : "array") nested \(depth) deep, more than the limit of \($0)" }
        }
        // Every child will be counted; refuse before allocating anything for them.
        let children = isDict ? 2 * n : n   // n * 2 * refSize fits in the file: no overflow
        guard children <= limits.maxElements - decodedCount else {
            throw PlistError(.tooLarge,
                "\(ctx): \(isDict ? "dict" : "array") of \(n) entries would exceed the limit of \(limits.maxElements) values (shared objects count at every reference)", limit: .elements)
        }
        let refSize = trailer.objectRefSize
        var frame = Frame(index: index, context: ctx, isDict: isDict, count: n,
                          valueRefsStart: isDict ? refsStart + n * refSize : refsStart)
        if isDict {
            frame.keys.reserveCapacity(n)
            for k in 0..<n {
                let keyIndex = try reference(at: refsStart + k * refSize, from: "\(ctx): key \(k)")
                try countValue("\(ctx): key object \(keyIndex)")
                // Decoding a key never recurses: a container is reported, not entered.
                let key = try object(keyIndex)
                guard case .scalar(.string(let s)) = key else {
                    let what: String
                    switch key {
                    case .scalar(.integer): what = "an integer"
                    case .scalar(.bool): what = "a boolean"
                    case .scalar(let v): what = "a \(v.typeName)"
                    case .array: what = "an array"
                    case .dict: what = "a dict"
                    }
                    throw PlistError(.invalidBinary,
                        "\(ctx): key \(k) refers to object \(keyIndex), \(what); dict keys must be strings")
                }
                frame.keys.append(s)
            }
        } else {
            frame.items.reserveCapacity(n)
        }
        onPath.insert(index)
        stack.append(frame)
    }

    mutating func decodeRoot() throws(PlistError) -> PlistNode {
        var stack: [Frame] = []
        if let node = try enter(trailer.topObject, depth: 1, from: nil, stack: &stack) { return node }
        // Frames are read and changed in place (never copied out with `stack.last`): a copy
        // would share the children's buffer and make every append copy it.
        while !stack.isEmpty {
            let t = stack.count - 1
            let node: PlistNode
            if stack[t].next < stack[t].count {
                let position = stack[t].next
                stack[t].next += 1
                let ctx = stack[t].context
                let ref = try reference(at: stack[t].valueRefsStart + position * trailer.objectRefSize,
                                        from: "\(ctx): \(stack[t].isDict ? "value" : "element") \(position)")
                guard let child = try enter(ref, depth: stack.count + 1, from: ctx, stack: &stack) else {
                    continue   // a container: its frame is now on top
                }
                node = child
            } else {
                let done = stack.removeLast()
                onPath.remove(done.index)
                // The repeats go first, so that the first value of a key is the last entry, which
                // is the one `PlistDictionary` looks up.
                node = PlistNode(done.isDict ? .dict(PlistDictionary(done.repeats + done.entries)) : .array(done.items), at: .unknown)
                if stack.isEmpty { return node }
            }
            // Attach `node` to the container now on top.
            let p = stack.count - 1
            if stack[p].isDict {
                let key = stack[p].keys[stack[p].next - 1]
                // In a binary dict CoreFoundation keeps the FIRST value of a repeated key (in XML
                // the last); found by differential testing. Later values are kept as dead entries.
                let entry = PlistDictionary.Entry(key: key, keyLocation: .unknown, value: node)
                if stack[p].seenKeys.insert(key).inserted {
                    stack[p].entries.append(entry)
                } else {
                    stack[p].repeats.append(entry)
                }
            } else {
                stack[p].items.append(node)
            }
        }
        // Unreachable: the loop returns when the root frame is popped.
        throw PlistError(.invalidBinary, "internal error: no top object decoded")
    }
}
