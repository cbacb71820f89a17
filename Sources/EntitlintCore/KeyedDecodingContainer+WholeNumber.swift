#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeyedDecodingContainer {
    /// An integer field of a record file (a baseline, the lock file), checked at load: a value
    /// outside `range` is an error at the field's key, and so is a number that is no `Int` at
    /// all (`1e300`, `1.5`, 2^64), which Foundation's decoder reports only as "not valid JSON".
    /// What passes is in `range`, so no later arithmetic on it can trap.
    func decodeWholeNumber(forKey key: Key, in range: ClosedRange<Int>, what: String) throws -> Int {
        let n: Int
        do {
            n = try decode(Int.self, forKey: key)
        } catch let e as DecodingError {
            // A string, null or collection where a number belongs: "wrong type at KEY".
            guard case .dataCorrupted = e else { throw e }
            throw notWhole(key, range, what)
        } catch {
            // Foundation's own error for a number no Int holds, which the decoder's caller
            // would otherwise see as "not valid JSON" with no key.
            throw notWhole(key, range, what)
        }
        guard range.contains(n) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key],
                                                    debugDescription: "\(n) is not \(what) (a whole number from \(range.lowerBound) to \(range.upperBound))"))
        }
        return n
    }

    /// `decodeWholeNumber` for a field that may be absent or null.
    func decodeWholeNumberIfPresent(forKey key: Key, in range: ClosedRange<Int>, what: String) throws -> Int? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeWholeNumber(forKey: key, in: range, what: what)
    }

    private func notWhole(_ key: Key, _ range: ClosedRange<Int>, _ what: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath + [key],
                             debugDescription: "\(Self.numberText(self, key)) is not \(what) (a whole number from \(range.lowerBound) to \(range.upperBound))"))
    }

    /// The number as written, as far as a `Double` holds it, for the message; "the number" when
    /// not even that.
    private static func numberText(_ container: Self, _ key: Key) -> String {
        guard let d = try? container.decode(Double.self, forKey: key), d.isFinite else { return "the number" }
        return "\(d)"
    }
}
