/// Text-to-value conversions of the XML plist scalar elements, as CoreFoundation reads them.
enum PlistScalars {
    /// `<integer>`: optional sign, then decimal digits or `0x` hex digits; Int64, or UInt64 when
    /// positive and above Int64.max. As CoreFoundation: white space may come before the number
    /// and after the sign (`- 5`), never after the digits (checked against Foundation by the
    /// differential test, Tests/Fuzz/DIFFERENCES.md).
    static func integer(_ text: [UInt8]) -> PlistInteger? {
        var s = dropLeadingCFSpace(text[...])
        var negative = false
        if let f = s.first, f == UInt8(ascii: "-") || f == UInt8(ascii: "+") {
            negative = f == UInt8(ascii: "-")
            s = dropLeadingCFSpace(s.dropFirst())
        }
        var radix: UInt64 = 10
        if s.count > 2, s.first == UInt8(ascii: "0"), s.dropFirst().first == UInt8(ascii: "x") || s.dropFirst().first == UInt8(ascii: "X") {
            radix = 16
            s = s.dropFirst(2)
        }
        guard !s.isEmpty else { return nil }
        var magnitude: UInt64 = 0
        for c in s {
            let d: UInt64
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt64(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: d = UInt64(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: d = UInt64(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            let (m, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (a, o2) = m.addingReportingOverflow(d)
            if o1 || o2 { return nil }
            magnitude = a
        }
        if negative {
            if magnitude <= UInt64(Int64.max) { return .signed(-Int64(magnitude)) }
            if magnitude == UInt64(Int64.max) + 1 { return .signed(Int64.min) }
            return nil
        }
        if let v = Int64(exactly: magnitude) { return .signed(v) }
        return .unsigned(magnitude)
    }

    /// `<real>`: `nan`, `inf`, `infinity` (with an optional sign, any case, nothing around them),
    /// or a decimal number, which may have white space before it but not after (CoreFoundation's
    /// rules, checked against Foundation by the differential test).
    static func real(_ text: [UInt8]) -> Double? {
        switch String(decoding: text, as: UTF8.self).lowercased() {
        case "nan": return .nan
        case "inf", "infinity", "+inf", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        var t = text[...]
        while let f = t.first, isXMLSpace(f) { t = t.dropFirst() }
        let s = String(decoding: t, as: UTF8.self)
        guard !s.isEmpty else { return nil }
        // Only plain decimal forms: no hex floats.
        guard s.utf8.allSatisfy({ c in
            (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
                || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
        }) else { return nil }
        return Double(s)
    }

    /// `<date>`: exactly `YYYY-MM-DDTHH:MM:SSZ` (no white space around it, as CoreFoundation),
    /// with a real calendar date.
    static func date(_ text: [UInt8]) -> PlistDate? {
        let s = text
        guard s.count == 20, s[4] == UInt8(ascii: "-"), s[7] == UInt8(ascii: "-"), s[10] == UInt8(ascii: "T"),
              s[13] == UInt8(ascii: ":"), s[16] == UInt8(ascii: ":"), s[19] == UInt8(ascii: "Z") else { return nil }
        func num(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for i in from..<(from + count) {
                let c = s[i]
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int(c - UInt8(ascii: "0"))
            }
            return v
        }
        guard let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2),
              let mi = num(14, 2), let se = num(17, 2) else { return nil }
        guard (1...12).contains(mo), h < 24, mi < 60, se < 60 else { return nil }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]
        guard (1...days).contains(d) else { return nil }
        return PlistDate(year: y, month: mo, day: d, hour: h, minute: mi, second: se)
    }

    /// `<data>`: base64 as CoreFoundation decodes it. Characters outside the alphabet are
    /// skipped (keychain-access-groups.md section 5); `=` counts as a zero digit, so decoding goes on after it;
    /// each complete group of four digits gives three bytes, less one per `=` at the end of the
    /// text so far (white space does not break a run of `=`); an incomplete last group is dropped.
    static func base64(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var group: UInt32 = 0
        var digits = 0
        var padding = 0
        for c in text {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): v = 0
            default:
                if !isCSpace(c) { padding = 0 }
                continue
            }
            padding = c == UInt8(ascii: "=") ? padding + 1 : 0
            group = (group << 6) | v
            digits += 1
            if digits == 4 {
                out.append(UInt8((group >> 16) & 0xFF))
                if padding < 2 { out.append(UInt8((group >> 8) & 0xFF)) }
                if padding < 1 { out.append(UInt8(group & 0xFF)) }
                group = 0
                digits = 0
            }
        }
        return out
    }

    /// C's `isspace` in the "C" locale: space, \t, \n, \v, \f, \r.
    static func isCSpace(_ c: UInt8) -> Bool {
        c == 0x20 || (c >= 0x09 && c <= 0x0D)
    }

    /// Drops the white space CoreFoundation skips before a number: ASCII controls and space
    /// (only tab, LF and CR can occur in XML), DEL, and U+2000...U+200B, U+202F, U+205F, U+3000
    /// (U+00A0 is not among them).
    static func dropLeadingCFSpace(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while let f = s.first {
            if f < 0x21 || f == 0x7F {
                s = s.dropFirst()
                continue
            }
            let a = Array(s.prefix(3))
            guard a.count == 3 else { break }
            if (a[0] == 0xE2 && a[1] == 0x80 && a[2] >= 0x80 && a[2] <= 0x8B)
                || (a[0] == 0xE2 && a[1] == 0x80 && a[2] == 0xAF)
                || (a[0] == 0xE2 && a[1] == 0x81 && a[2] == 0x9F)
                || (a[0] == 0xE3 && a[1] == 0x80 && a[2] == 0x80) {
                s = s.dropFirst(3)
                continue
            }
            break
        }
        return s
    }

    /// A short, printable rendering of text for messages.
    static func shown<C: Collection>(_ text: C) -> String where C.Element == UInt8 {
        var s = String(decoding: text.prefix(40), as: UTF8.self)
        if text.count > 40 { s += "..." }
        return s.replacingNewlines()
    }
}
