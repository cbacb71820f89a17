/// A tiny `bplist00` writer used only by the tests to build inputs, valid and hostile.
///
/// Objects are added one by one (`add…` returns the new object's index); containers hold object
/// indexes, so a test can build cycles, shared objects and dangling references on purpose.
/// `build` lays out header, objects, offset table and trailer; any trailer field can be
/// overridden to produce a broken file.
struct BinaryPlistTestWriter {
    enum Object {
        case raw([UInt8])
        case array([Int])
        case dict(keys: [Int], values: [Int])
    }

    /// A value tree to encode with `add(_:)`.
    indirect enum Value {
        case string(String)
        case int(Int64)
        case uint(UInt64)
        case real(Double)
        case float(Float)
        case bool(Bool)
        case date(Double)   // seconds since 2001-01-01T00:00:00Z
        case data([UInt8])
        case array([Value])
        case dict([(String, Value)])
    }

    var objects: [Object] = []
    /// nil: the smallest size that can name every object.
    var objectRefSize: Int?
    var refSize: Int { objectRefSize ?? Self.sizeFor(max(objects.count - 1, 0)) }

    // MARK: Adding objects

    @discardableResult
    mutating func addRaw(_ bytes: [UInt8]) -> Int {
        objects.append(.raw(bytes))
        return objects.count - 1
    }

    /// Adds an empty array and returns its index; fill it later with `setArray`.
    @discardableResult
    mutating func addArray(_ refs: [Int] = []) -> Int {
        objects.append(.array(refs))
        return objects.count - 1
    }

    mutating func setArray(_ index: Int, _ refs: [Int]) { objects[index] = .array(refs) }

    @discardableResult
    mutating func addDict(keys: [Int], values: [Int]) -> Int {
        objects.append(.dict(keys: keys, values: values))
        return objects.count - 1
    }

    /// Adds `value` (and, for containers, its children after it) and returns its index.
    @discardableResult
    mutating func add(_ value: Value) -> Int {
        switch value {
        case .string(let s): return addRaw(Self.string(s))
        case .int(let v): return addRaw(Self.int(v))
        case .uint(let v): return addRaw(Self.uint(v))
        case .real(let d): return addRaw([0x23] + Self.be(d.bitPattern, 8))
        case .float(let f): return addRaw([0x22] + Self.be(UInt64(f.bitPattern), 4))
        case .bool(let b): return addRaw([b ? 0x09 : 0x08])
        case .date(let d): return addRaw([0x33] + Self.be(d.bitPattern, 8))
        case .data(let d): return addRaw(Self.header(0x4, d.count) + d)
        case .array(let items):
            let me = addArray()
            let refs = items.map { add($0) }
            setArray(me, refs)
            return me
        case .dict(let entries):
            let me = addArray()
            let keys = entries.map { add(.string($0.0)) }
            let values = entries.map { add($0.1) }
            objects[me] = .dict(keys: keys, values: values)
            return me
        }
    }

    // MARK: Encoding helpers

    static func be(_ v: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64(size - 1 - $0))) }
    }

    /// Marker with the count in its low nibble, or 0xF plus an integer object.
    static func header(_ type: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [type << 4 | UInt8(count)] : [type << 4 | 0xF] + uint(UInt64(count))
    }

    static func int(_ v: Int64) -> [UInt8] {
        v < 0 ? [0x13] + be(UInt64(bitPattern: v), 8) : uint(UInt64(v))
    }

    static func uint(_ v: UInt64) -> [UInt8] {
        switch v {
        case ...0xFF: return [0x10] + be(v, 1)
        case ...0xFFFF: return [0x11] + be(v, 2)
        case ...0xFFFF_FFFF: return [0x12] + be(v, 4)
        case ...UInt64(Int64.max): return [0x13] + be(v, 8)
        default: return [0x14] + be(0, 8) + be(v, 8)
        }
    }

    static func string(_ s: String) -> [UInt8] {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return header(0x5, s.utf8.count) + Array(s.utf8) }
        let units = Array(s.utf16)
        return header(0x6, units.count) + units.flatMap { be(UInt64($0), 2) }
    }

    static func sizeFor(_ v: Int) -> Int {
        var size = 1
        while size < 8 && UInt64(v) >> UInt64(8 * size) != 0 { size += 1 }
        return size
    }

    func encode(_ object: Object) -> [UInt8] {
        switch object {
        case .raw(let b): return b
        case .array(let refs):
            return Self.header(0xA, refs.count) + refs.flatMap { Self.be(UInt64($0), refSize) }
        case .dict(let keys, let values):
            return Self.header(0xD, keys.count)
                + keys.flatMap { Self.be(UInt64($0), refSize) }
                + values.flatMap { Self.be(UInt64($0), refSize) }
        }
    }

    // MARK: Building

    /// The whole file. `nil` overrides mean "the correct value".
    func build(top: Int = 0,
               offsetIntSize: Int? = nil,
               objectRefSize refSizeOverride: Int? = nil,
               numObjects: UInt64? = nil,
               topObject: UInt64? = nil,
               offsetTableOffset: UInt64? = nil,
               offsets offsetOverrides: [Int: UInt64] = [:]) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects {
            offsets.append(out.count)
            out += encode(o)
        }
        let tableOffset = out.count
        let intSize = offsetIntSize ?? Self.sizeFor(max(tableOffset, 1))
        for (i, off) in offsets.enumerated() {
            out += Self.be(offsetOverrides[i] ?? UInt64(off), intSize)
        }
        out += [0, 0, 0, 0, 0, 0]   // 5 unused bytes + sortVersion
        out.append(UInt8(truncatingIfNeeded: intSize))
        out.append(UInt8(truncatingIfNeeded: refSizeOverride ?? refSize))
        out += Self.be(numObjects ?? UInt64(objects.count), 8)
        out += Self.be(topObject ?? UInt64(top), 8)
        out += Self.be(offsetTableOffset ?? UInt64(tableOffset), 8)
        return out
    }

    /// One value encoded as a whole file.
    static func file(_ value: Value) -> [UInt8] {
        var w = BinaryPlistTestWriter()
        let top = w.add(value)
        return w.build(top: top)
    }
}
