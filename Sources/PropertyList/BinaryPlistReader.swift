/// Binary property lists (`bplist00`), as written by CoreFoundation and `plutil -convert binary1`.
///
/// Layout (format facts from CoreFoundation's CFBinaryPList.c):
///
///     "bplist00" | objects ... | offset table | 32-byte trailer
///
/// The trailer holds 5 unused bytes, `sortVersion`, `offsetIntSize`, `objectRefSize`, then
/// `numObjects`, `topObject` and `offsetTableOffset` as big-endian UInt64. The offset table has
/// `numObjects` big-endian unsigned integers of `offsetIntSize` bytes: the file offset of each
/// object. Containers refer to other objects by index (`objectRefSize` bytes, big-endian).
///
/// The reader trusts nothing in the file: every offset, count and length is checked against the
/// object area (the bytes between the header and the offset table) with overflow-checked
/// arithmetic before it is used, reference cycles are rejected, and nesting depth and the total
/// number of decoded values are bounded by `PlistLimits`. Containers are decoded with an explicit
/// stack, so even a very deep file (with a large `maxDepth`) cannot exhaust the thread's stack.
public enum BinaryPlistReader {
    static let magic: [UInt8] = Array("bplist00".utf8)
    static let headerSize = 8
    static let trailerSize = 32

    public static func isBinaryPlist(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 8 && Array(bytes[0..<8]) == magic
    }

    public static func parse(_ bytes: [UInt8], limits: PlistLimits = .default) throws(PlistError) -> PlistDocument {
        guard bytes.count <= limits.maxBytes else {
            throw PlistError(.tooLarge, "file is \(bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes", limit: .fileSize)
        }
        guard isBinaryPlist(bytes) else {
            throw PlistError(.invalidBinary, "binary property list does not start with \"bplist00\"")
        }
        var decoder = try BinaryPlistDecoder(bytes, limits: limits)
        let root = try decoder.decodeRoot()
        return PlistDocument(root: root, format: .binary, comments: [])
    }
}

/// The trailer fields, validated against the file.
struct BinaryPlistTrailer {
    var offsetIntSize: Int
    var objectRefSize: Int
    var numObjects: Int
    var topObject: Int
    /// Where the offset table starts; also the end (exclusive) of the object area.
    var offsetTableOffset: Int

    init(_ bytes: [UInt8]) throws(PlistError) {
        let headerSize = BinaryPlistReader.headerSize
        let trailerSize = BinaryPlistReader.trailerSize
        guard bytes.count >= headerSize + trailerSize else {
            throw PlistError(.invalidBinary,
                "binary property list is \(bytes.count) bytes, too short for the 8-byte header and 32-byte trailer")
        }
        let t = bytes.count - trailerSize
        func u64(_ at: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in at..<(at + 8) { v = v << 8 | UInt64(bytes[i]) }
            return v
        }
        offsetIntSize = Int(bytes[t + 6])
        objectRefSize = Int(bytes[t + 7])
        let rawNumObjects = u64(t + 8)
        let rawTopObject = u64(t + 16)
        let rawTableOffset = u64(t + 24)

        guard (1...8).contains(offsetIntSize) else {
            throw PlistError(.invalidBinary, "trailer: offset size \(offsetIntSize) is not between 1 and 8 bytes")
        }
        guard (1...8).contains(objectRefSize) else {
            throw PlistError(.invalidBinary, "trailer: object reference size \(objectRefSize) is not between 1 and 8 bytes")
        }
        guard rawNumObjects >= 1 else {
            throw PlistError(.invalidBinary, "trailer: the file declares no objects")
        }
        guard rawTopObject < rawNumObjects else {
            throw PlistError(.invalidBinary,
                "trailer: top object \(rawTopObject) is not one of the \(rawNumObjects) objects")
        }
        // An object reference of objectRefSize bytes must be able to name every object.
        if objectRefSize < 8, (rawNumObjects - 1) >> UInt64(objectRefSize * 8) != 0 {
            throw PlistError(.invalidBinary,
                "trailer: \(rawNumObjects) objects cannot be named with \(objectRefSize)-byte object references")
        }
        guard let tableOffset = Int(exactly: rawTableOffset), tableOffset >= headerSize + 1, tableOffset <= t else {
            throw PlistError(.invalidBinary,
                "trailer: offset table offset \(rawTableOffset) is outside the file (objects span bytes 8..<\(t))")
        }
        let tableRoom = t - tableOffset
        guard let n = Int(exactly: rawNumObjects) else {
            throw PlistError(.invalidBinary, "trailer: object count \(rawNumObjects) is too large")
        }
        let (tableSize, overflow) = n.multipliedReportingOverflow(by: offsetIntSize)
        guard !overflow, tableSize <= tableRoom else {
            throw PlistError(.invalidBinary,
                "trailer: offset table of \(rawNumObjects) \(offsetIntSize)-byte entries at offset \(tableOffset) runs past the trailer at offset \(t)")
        }
        // CoreFoundation rejects bytes between the offset table and the trailer (checked against
        // Foundation by the differential test).
        guard tableSize == tableRoom else {
            throw PlistError(.invalidBinary,
                "trailer: offset table at offset \(tableOffset) ends at \(tableOffset + tableSize), not where the trailer starts (offset \(t))")
        }
        numObjects = n
        topObject = Int(rawTopObject)   // < numObjects, which fits Int
        offsetTableOffset = tableOffset
    }
}

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

    // MARK: - Object headers

    enum Kind {
        case scalar(PlistValue)
        /// `refsStart` is the first reference; a dict has `count` key references, then `count`
        /// value references.
        case array(count: Int, refsStart: Int, context: String)
        case dict(count: Int, refsStart: Int, context: String)
    }

    static func describe(_ index: Int, _ offset: Int) -> String { "object \(index) at offset \(offset)" }

    /// The length that follows a marker with low nibble `nibble` at `offset`: the nibble itself,
    /// or for 0xF an integer object right after the marker. Returns the count and where the
    /// content starts.
    func count(nibble: UInt8, markerAt offset: Int, context: String) throws(PlistError) -> (count: Int, start: Int) {
        if nibble != 0xF { return (Int(nibble), offset + 1) }
        let intAt = offset + 1
        guard intAt < objectAreaEnd else {
            throw PlistError(.invalidBinary, "\(context): length marker runs past the end of the object data at offset \(objectAreaEnd)")
        }
        let m = bytes[intAt]
        guard m >> 4 == 0x1, m & 0xF <= 3 else {
            throw PlistError(.invalidBinary,
                "\(context): length must be a 1, 2, 4 or 8-byte integer object, found marker 0x\(hex(m))")
        }
        let size = 1 << Int(m & 0xF)
        let start = intAt + 1 + size   // small numbers: no overflow (offsets are < bytes.count)
        guard start <= objectAreaEnd else {
            throw PlistError(.invalidBinary,
                "\(context): \(size)-byte length runs past the end of the object data at offset \(objectAreaEnd)")
        }
        let raw = readUInt(at: intAt + 1, size: size)
        guard let n = Int(exactly: raw) else {
            throw PlistError(.invalidBinary, "\(context): length \(Int64(bitPattern: raw)) is negative or too large")
        }
        return (n, start)
    }

    /// Checks that `count` items of `unit` bytes starting at `start` fit in the object area.
    func checkFits(count: Int, unit: Int, start: Int, what: String, context: String) throws(PlistError) {
        let (length, o1) = count.multipliedReportingOverflow(by: unit)
        let (end, o2) = start.addingReportingOverflow(o1 ? 0 : length)
        guard !o1, !o2, end <= objectAreaEnd else {
            throw PlistError(.invalidBinary,
                "\(context): \(what) count \(count) runs past the end of the object data at offset \(objectAreaEnd)")
        }
    }

    /// Decodes the header of object `index`; scalars are decoded completely.
    mutating func object(_ index: Int) throws(PlistError) -> Kind {
        if let cached = scalarCache[index] { return .scalar(cached) }
        let off = try offset(of: index)
        let ctx = Self.describe(index, off)
        let marker = bytes[off]
        let type = marker >> 4, nibble = marker & 0xF

        func need(_ size: Int, _ what: String) throws(PlistError) {
            // off < objectAreaEnd <= bytes.count and size <= 16: no overflow.
            guard off + 1 + size <= objectAreaEnd else {
                throw PlistError(.invalidBinary,
                    "\(ctx): \(what) runs past the end of the object data at offset \(objectAreaEnd)")
            }
        }

        let value: PlistValue
        switch type {
        case 0x0:
            switch nibble {
            case 0x8: value = .bool(false)
            case 0x9: value = .bool(true)
            case 0x0: throw PlistError(.invalidBinary, "\(ctx): null object (0x00) is not a property-list value")
            case 0xF: throw PlistError(.invalidBinary, "\(ctx): fill byte (0x0F) is not a property-list value")
            default: throw PlistError(.invalidBinary, "\(ctx): unknown object marker 0x\(hex(marker))")
            }
        case 0x1:
            value = .integer(try integer(nibble: nibble, at: off, context: ctx))
        case 0x2:
            switch nibble {
            case 2:
                try need(4, "4-byte real")
                value = .real(Double(Float(bitPattern: UInt32(readUInt(at: off + 1, size: 4)))))
            case 3:
                try need(8, "8-byte real")
                value = .real(Double(bitPattern: readUInt(at: off + 1, size: 8)))
            default:
                throw PlistError(.invalidBinary, "\(ctx): real of \(1 << Int(nibble)) bytes; only 4 and 8 are valid")
            }
        case 0x3:
            guard nibble == 3 else {
                throw PlistError(.invalidBinary, "\(ctx): unknown object marker 0x\(hex(marker)) (a date is 0x33)")
            }
            try need(8, "date")
            value = .date(try date(Double(bitPattern: readUInt(at: off + 1, size: 8)), context: ctx))
        case 0x4:
            let (n, start) = try count(nibble: nibble, markerAt: off, context: ctx)
            try checkFits(count: n, unit: 1, start: start, what: "data", context: ctx)
            value = .data(Array(bytes[start..<(start + n)]))
        case 0x5:
            let (n, start) = try count(nibble: nibble, markerAt: off, context: ctx)
            try checkFits(count: n, unit: 1, start: start, what: "ASCII string", context: ctx)
            let slice = bytes[start..<(start + n)]
            if let bad = slice.firstIndex(where: { $0 >= 0x80 }) {
                throw PlistError(.invalidBinary,
                    "\(ctx): ASCII string has non-ASCII byte 0x\(hex(bytes[bad])) at offset \(bad)")
            }
            value = .string(String(decoding: slice, as: UTF8.self))
        case 0x6:
            let (n, start) = try count(nibble: nibble, markerAt: off, context: ctx)
            try checkFits(count: n, unit: 2, start: start, what: "UTF-16 string", context: ctx)
            value = .string(try utf16String(units: n, at: start, context: ctx))
        case 0x8:
            throw PlistError(.invalidBinary,
                "\(ctx): UID object (keyed-archiver reference) is not valid in an entitlements property list")
        case 0xA:
            let (n, start) = try count(nibble: nibble, markerAt: off, context: ctx)
            try checkFits(count: n, unit: trailer.objectRefSize, start: start, what: "array", context: ctx)
            return .array(count: n, refsStart: start, context: ctx)
        case 0xB, 0xC:
            throw PlistError(.invalidBinary,
                "\(ctx): \(type == 0xB ? "ordered set" : "set") object is not a property-list value")
        case 0xD:
            let (n, start) = try count(nibble: nibble, markerAt: off, context: ctx)
            // Keys then values: 2 * objectRefSize bytes per entry (at most 16: no overflow).
            try checkFits(count: n, unit: 2 * trailer.objectRefSize, start: start, what: "dict", context: ctx)
            return .dict(count: n, refsStart: start, context: ctx)
        default:
            throw PlistError(.invalidBinary, "\(ctx): unknown object marker 0x\(hex(marker))")
        }
        scalarCache[index] = value
        return .scalar(value)
    }

    func integer(nibble: UInt8, at off: Int, context ctx: String) throws(PlistError) -> PlistInteger {
        guard nibble <= 4 else {
            throw PlistError(.invalidBinary,
                "\(ctx): integer of \(1 << Int(nibble)) bytes; only 1, 2, 4, 8 and 16 are valid")
        }
        let size = 1 << Int(nibble)
        guard off + 1 + size <= objectAreaEnd else {
            throw PlistError(.invalidBinary,
                "\(ctx): \(size)-byte integer runs past the end of the object data at offset \(objectAreaEnd)")
        }
        switch size {
        case 1, 2, 4:
            return .signed(Int64(readUInt(at: off + 1, size: size)))
        case 8:
            return .signed(Int64(bitPattern: readUInt(at: off + 1, size: 8)))
        default: // 16
            let high = readUInt(at: off + 1, size: 8)
            let low = readUInt(at: off + 9, size: 8)
            guard high == 0 else {
                throw PlistError(.invalidBinary,
                    "\(ctx): 16-byte integer does not fit in 64 bits (only unsigned values up to \(UInt64.max) are supported)")
            }
            if let s = Int64(exactly: low) { return .signed(s) }
            return .unsigned(low)
        }
    }

    /// Seconds since 2001-01-01T00:00:00Z of the earliest and latest dates an XML plist can
    /// write (0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z).
    static let referenceDate1970: Int64 = 978_307_200
    static let earliestDate = PlistDate(year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0).secondsSince1970 - referenceDate1970
    static let latestDate = PlistDate(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59).secondsSince1970 - referenceDate1970

    func date(_ seconds: Double, context ctx: String) throws(PlistError) -> PlistDate {
        guard seconds.isFinite else {
            throw PlistError(.invalidBinary, "\(ctx): date is \(seconds), not a finite number of seconds")
        }
        // Whole seconds, rounding towards the past like a calendar would.
        let whole = seconds.rounded(.down)
        guard whole >= Double(Self.earliestDate), whole <= Double(Self.latestDate) else {
            throw PlistError(.invalidBinary,
                "\(ctx): date \(seconds) seconds after 2001-01-01 is outside the years 1 to 9999")
        }
        return PlistDate(secondsSince1970: Int64(whole) + Self.referenceDate1970)
    }

    func utf16String(units n: Int, at start: Int, context ctx: String) throws(PlistError) -> String {
        var scalars = String.UnicodeScalarView()
        var i = 0
        func unit(_ k: Int) -> UInt32 { UInt32(bytes[start + 2 * k]) << 8 | UInt32(bytes[start + 2 * k + 1]) }
        while i < n {
            let u = unit(i)
            var scalarValue = u
            if (0xD800...0xDBFF).contains(u) {
                guard i + 1 < n, (0xDC00...0xDFFF).contains(unit(i + 1)) else {
                    throw PlistError(.invalidBinary,
                        "\(ctx): UTF-16 string has an unpaired high surrogate 0x\(hex(u)) at unit \(i)")
                }
                scalarValue = 0x10000 + ((u - 0xD800) << 10) + (unit(i + 1) - 0xDC00)
                i += 1
            } else if (0xDC00...0xDFFF).contains(u) {
                throw PlistError(.invalidBinary,
                    "\(ctx): UTF-16 string has an unpaired low surrogate 0x\(hex(u)) at unit \(i)")
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw PlistError(.invalidBinary, "\(ctx): UTF-16 string has an invalid code point at unit \(i)")
            }
            scalars.append(scalar)
            i += 1
        }
        return String(scalars)
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

private func hex<T: BinaryInteger>(_ v: T) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return s.count % 2 == 1 ? "0" + s : s
}
