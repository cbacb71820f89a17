public import PropertyList

/// An inline suppression in an XML plist: a comment
/// `<!-- entitlint:disable-next-line RULE[, RULE...]: reason -->` or
/// `<!-- entitlint:disable-file RULE[, RULE...]: reason -->`.
///
/// A comment whose text (after leading white space) starts with `entitlint:` is a directive,
/// well formed or not, and never a `comment-in-plist` finding. Rule ids are separated by commas
/// or white space and end at the first `:`; what follows is the reason, for reviewers: it is
/// optional, never parsed further and never shown. There is no `all`: a directive names the
/// rules it silences, so a new kind of problem at the same place is still reported.
public struct SuppressionDirective: Sendable, Hashable {
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        /// The next element after the comment (see `SuppressionSet`).
        case nextLine = "disable-next-line"
        /// The whole file.
        case file = "disable-file"
    }

    public static let prefix = "entitlint:"
    /// Directives read per file; later ones are not read (one finding says so).
    public static let maxPerFile = 100
    /// Rule ids read per directive; later ones are not read (the finding says so).
    public static let maxRules = 32
    /// Longer rule ids are cut to this many characters (no rule id is that long).
    public static let maxRuleLength = 64

    /// Nil when the word after `entitlint:` is no known scope.
    public var scope: Scope?
    /// The word after `entitlint:`, cut to `maxRuleLength` characters, for messages.
    public var command: String
    /// The rule ids as written, at most `maxRules`, each at most `maxRuleLength` + 1 characters.
    public var rules: [String]
    /// Whether more than `maxRules` ids were written.
    public var tooManyRules = false
    /// Where the comment starts (`<!--`).
    public var location: SourceLocation
    /// The comment's last line.
    public var endLine: Int

    /// Whether a comment's text is a directive: `entitlint:` after optional white space.
    public static func isDirective(_ text: String) -> Bool {
        var rest = text.utf8[...]
        while let b = rest.first, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { rest = rest.dropFirst() }
        return rest.starts(with: prefix.utf8)
    }

    /// The directive a comment holds; nil when it is an ordinary comment. One pass over the
    /// text up to the reason, and one to count its lines.
    public static func parse(_ comment: PlistDocument.Comment) -> SuppressionDirective? {
        parse(text: comment.text, at: comment.location)
    }

    /// The directive a comment's text holds (`at`: where the comment starts); nil when it is an
    /// ordinary comment. Its last line is `at`'s line plus the line breaks in `text`.
    public static func parse(text commentText: String, at location: SourceLocation) -> SuppressionDirective? {
        guard isDirective(commentText) else { return nil }
        let text = commentText.drop { $0.isWhitespace }.dropFirst(prefix.count)
        let commandEnd = text.firstIndex { $0.isWhitespace || $0 == ":" } ?? text.endIndex
        let command = String(text[..<commandEnd].prefix(maxRuleLength))
        var directive = SuppressionDirective(scope: Scope(rawValue: command), command: command, rules: [],
                                             location: location,
                                             endLine: location.line + commentText.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
        var current = ""
        func flush() {
            guard !current.isEmpty else { return }
            if directive.rules.count == maxRules { directive.tooManyRules = true } else { directive.rules.append(current) }
            current = ""
        }
        for ch in text[commandEnd...] {
            if ch == ":" { break }
            if ch == "," || ch.isWhitespace {
                flush()
                if directive.tooManyRules { break }
            } else if current.count <= maxRuleLength {
                current.append(ch)
            }
        }
        flush()
        return directive
    }
}

/// The directives of one file and what each covers.
///
/// `disable-next-line` covers the next element that starts on a line after the comment's last
/// line, with everything inside it; for a `<key>`, its value too. It covers the lines from that
/// element's start to the start of the last element inside it, so a finding at the key, at the
/// value or at any item of an array value is covered. An ordinary comment there is the element
/// covered (its own line). With nothing after it, a directive covers nothing.
public struct SuppressionSet: Sendable {
    public var directives: [SuppressionDirective]
    /// For each directive, the lines a `disable-next-line` covers (nil: a file-wide directive,
    /// or nothing follows).
    public var covered: [ClosedRange<Int>?]
    /// Directives past `SuppressionDirective.maxPerFile`: not read, and where the first one is.
    public var dropped = 0
    public var firstDropped: SourceLocation?

    /// Nil when the document holds no directive. The walk of the document (only for a file with
    /// a `disable-next-line`) stops once every directive has found its element.
    public init?(document: PlistDocument) {
        var directives: [SuppressionDirective] = []
        var ordinaryComments: [Int] = []
        var dropped = 0
        var firstDropped: SourceLocation?
        for c in document.comments {
            guard let d = SuppressionDirective.parse(c) else { ordinaryComments.append(c.location.line); continue }
            if directives.count < SuppressionDirective.maxPerFile {
                directives.append(d)
            } else {
                dropped += 1
                if firstDropped == nil { firstDropped = d.location }
            }
        }
        guard !directives.isEmpty || dropped > 0 else { return nil }
        self.directives = directives
        self.dropped = dropped
        self.firstDropped = firstDropped
        covered = Self.coverage(directives, root: document.root, comments: ordinaryComments)
    }

    static func coverage(_ directives: [SuppressionDirective], root: PlistNode, comments: [Int]) -> [ClosedRange<Int>?] {
        var covered = [ClosedRange<Int>?](repeating: nil, count: directives.count)
        // Directives waiting for their element, by their last line.
        let pending = directives.indices.filter { directives[$0].scope == .nextLine }.sorted { directives[$0].endLine < directives[$1].endLine }
        guard !pending.isEmpty else { return covered }
        var next = 0
        var commentIndex = 0
        PlistWalk.forEach(root) { element in
            let line = element.location.line
            while next < pending.count, directives[pending[next]].endLine < line {
                let after = directives[pending[next]].endLine
                // An ordinary comment between the directive and this element comes first.
                while commentIndex < comments.count, comments[commentIndex] <= after { commentIndex += 1 }
                if commentIndex < comments.count, comments[commentIndex] < line {
                    covered[pending[next]] = comments[commentIndex]...comments[commentIndex]
                } else {
                    covered[pending[next]] = line...element.lastLine
                }
                next += 1
            }
            return next < pending.count
        }
        // Directives after the last element: only a comment may follow.
        while next < pending.count {
            let after = directives[pending[next]].endLine
            if let c = comments.first(where: { $0 > after }) { covered[pending[next]] = c...c }
            next += 1
        }
        return covered
    }

    /// The index of the directive that suppresses `finding`, if any: one naming its rule that
    /// covers the whole file, or its line. A tool finding (`ToolFindings`) is never suppressed.
    public func directive(suppressing finding: Finding) -> Int? {
        guard !ToolFindings.contains(finding.rule) else { return nil }
        for (i, d) in directives.enumerated() where d.scope != nil && d.rules.contains(finding.rule) {
            if d.scope == .file { return i }
            if finding.line > 0, let range = covered[i], range.contains(finding.line) { return i }
        }
        return nil
    }
}
