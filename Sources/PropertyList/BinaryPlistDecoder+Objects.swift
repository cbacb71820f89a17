// Object headers and scalars of a binary property list: every marker, count and length checked
// against the object area before a byte is read.

extension BinaryPlistDecoder {
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
}

private func hex<T: BinaryInteger>(_ v: T) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return s.count % 2 == 1 ? "0" + s : s
}
