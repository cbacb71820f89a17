// Searches and trims that FoundationEssentials does not have (they live in the whole of
// Foundation, which would link ICU's data into the binary). First occurrences and replacements
// use the standard library's `firstRange(of:)` and `replacing(_:with:)`.

extension StringProtocol {
    /// The range of the last occurrence of `needle` (compared by Character), or nil; nil for an
    /// empty needle. At most one comparison of `needle` per position of `self`.
    public func lastRange(of needle: some StringProtocol) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var i = endIndex
        while i > startIndex {
            i = index(before: i)
            if self[i...].starts(with: needle) { return i..<index(i, offsetBy: needle.count) }
        }
        return nil
    }

    /// The text without leading and trailing whitespace, line breaks included (Unicode's
    /// White_Space, as `Character.isWhitespace` says).
    public func trimmingWhitespace() -> String { trimming(where: \.isWhitespace) }

    /// The text without leading and trailing line breaks (LF, CR, CRLF, NEL, U+2028, U+2029, ...).
    public func trimmingNewlines() -> String { trimming(where: \.isNewline) }

    /// The text without the leading and trailing characters `drop` accepts.
    public func trimming(where drop: (Character) -> Bool) -> String {
        var s = self[...]
        while let c = s.first, drop(c) { s = s.dropFirst() }
        while let c = s.last, drop(c) { s = s.dropLast() }
        return String(s)
    }
}
