public import PropertyList
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What time-dependent rules compare against, fixed once per run so that a run (and a test) is
/// deterministic: "now", and how close an expiry must be to be reported.
public struct CheckSettings: Sendable, Hashable {
    /// The date of the run (UTC). Default: `ENTITLINT_NOW` when set (see `environmentNow`), else
    /// the system clock.
    public var now: PlistDate
    /// `profile-expiring` reports a profile that expires within this many days (default 30).
    public var expiringWithinDays: Int
    /// Groups shared with apps outside the project (the configuration's `external-groups`), as
    /// written or expanded; a trailing `*` matches any rest.
    public var externalGroups: [String] = []
    /// The folder relative paths are resolved against and shown relative to. The core asks the
    /// system nothing, so a run over files sets it to the process's current folder; the default,
    /// `UnitFormer.inMemoryFolder`, suits in-memory units, whose relative paths then stay as written.
    public var workingDirectory = UnitFormer.inMemoryFolder

    /// Whether `entry` is a group the configuration says is shared outside the project.
    public func isExternal(value: String, raw: String) -> Bool {
        externalGroups.contains { pattern in
            if pattern.hasSuffix("*") {
                let stem = pattern.dropLast()
                return value.hasPrefix(stem) || raw.hasPrefix(stem)
            }
            return value == pattern || raw == pattern
        }
    }

    public init(now: PlistDate = CheckSettings.currentDate(), expiringWithinDays: Int = 30) {
        self.now = now
        self.expiringWithinDays = expiringWithinDays
    }

    /// `ENTITLINT_NOW` if it holds a valid date, else the system clock.
    public static func currentDate() -> PlistDate {
        if let raw = getenv("ENTITLINT_NOW"), let date = parseDate(String(cString: raw)) { return date }
        return PlistDate(secondsSince1970: Int64(time(nil)))
    }

    /// `YYYY-MM-DD` (midnight UTC) or a plist date `YYYY-MM-DDTHH:MM:SSZ`; nil otherwise.
    public static func parseDate(_ text: String) -> PlistDate? {
        let full = text.utf8.count == 10 ? text + "T00:00:00Z" : text
        let b = Array(full.utf8)
        guard b.count == 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "Z") else { return nil }
        func num(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for i in from..<(from + count) {
                guard b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int(b[i] - UInt8(ascii: "0"))
            }
            return v
        }
        guard let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2), let mi = num(14, 2),
              let s = num(17, 2), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 60 else { return nil }
        return PlistDate(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    }
}

extension PlistDate {
    /// Whole days from `self` to `later` (negative when `later` is earlier), rounded down.
    public func days(until later: PlistDate) -> Int {
        let seconds = later.secondsSince1970 - secondsSince1970
        return Int(seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400))
    }

    /// `2026-01-05` (the date part).
    public var dayText: String { String(description.prefix(10)) }
}
