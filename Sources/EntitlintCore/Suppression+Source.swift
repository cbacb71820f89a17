import PropertyList

/// How directives are written in the inputs other than XML plists whose findings they may
/// suppress: `// entitlint:...` in Swift, Objective-C and xcconfig files (`/* entitlint:... */`
/// in Swift and Objective-C too), `# entitlint:...` in YAML (XcodeGen specs, configuration).
///
/// The comment must be alone on its line (white space before it only): a directive after code
/// on the same line is not read. That is what keeps a string literal holding the text out: a
/// one-line literal always has its opening quote before it. Inside a Swift multi-line string
/// (`"""`), lines are never directives; the scanner tells those lines by counting `"""` on each
/// line, so a `"""` written inside a one-line string or a comment after code confuses it (the
/// lines up to the next `"""` are then taken for the other kind). YAML block scalars (`|`, `>`)
/// are not told apart: a line of one that starts with `# entitlint:` is read as a directive.
/// A pbxproj is not a kind: Xcode rewrites that file and drops the comments it did not write.
public enum DirectiveSyntax: Sendable, Hashable {
    /// `//` line comments; `/* */` too when `blockComments`; Swift's `"""` strings when
    /// `multilineStrings`.
    case slashes(blockComments: Bool, multilineStrings: Bool)
    /// `#` line comments.
    case hash

    /// The syntax of a file by its name's ending; nil for a kind without directives of this form.
    public init?(path: String) {
        let name = Paths.baseName(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "swift": self = .slashes(blockComments: true, multilineStrings: true)
        case "m", "mm", "h": self = .slashes(blockComments: true, multilineStrings: false)
        case "xcconfig": self = .slashes(blockComments: false, multilineStrings: false)
        case "yml", "yaml": self = .hash
        default: return nil
        }
    }
}

extension SuppressionSet {
    /// The directives of a source, xcconfig or YAML file's bytes; nil when it holds none. One
    /// pass over the lines (bounded by the bytes the run read), at most
    /// `SuppressionDirective.maxPerFile` directives kept.
    ///
    /// `disable-next-line` covers the next line holding anything but white space or another
    /// directive (an ordinary comment line is that line); `disable-file` the whole file.
    public init?(bytes: [UInt8], syntax: DirectiveSyntax) {
        guard Self.mentionsPrefix(bytes) else { return nil }
        var directives: [SuppressionDirective] = []
        var covered: [ClosedRange<Int>?] = []
        var dropped = 0
        var firstDropped: SourceLocation?
        var waiting: [Int] = []
        var inString = false
        // An open block comment that is a directive: its text so far and where it started.
        var block: (text: [UInt8], start: SourceLocation, isDirective: Bool)?
        var line = 0
        var start = 0
        func add(_ d: SuppressionDirective) {
            if directives.count < SuppressionDirective.maxPerFile {
                directives.append(d)
                covered.append(nil)
                if d.scope == .nextLine { waiting.append(directives.count - 1) }
            } else {
                dropped += 1
                if firstDropped == nil { firstDropped = d.location }
            }
        }
        func content(_ line: Int) {
            for i in waiting { covered[i] = line...line }
            waiting.removeAll()
        }
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            line += 1
            var text = bytes[start..<end]
            if text.last == 0x0D { text = text.dropLast() }
            defer { start = end + 1 }
            if var open = block {
                // Inside a block comment: it ends at `*/`.
                let close = Self.find([0x2A, 0x2F], in: text)
                if open.isDirective {
                    open.text.append(0x0A)
                    open.text.append(contentsOf: close.map { text[..<$0] } ?? text)
                }
                if close != nil {
                    block = nil
                    if open.isDirective, let d = SuppressionDirective.parse(text: String(decoding: open.text, as: UTF8.self), at: open.start) { add(d) } else { content(line) }
                } else {
                    block = open
                    if !open.isDirective { content(line) }
                }
                continue
            }
            let indent = text.prefix { $0 == 0x20 || $0 == 0x09 }.count
            let body = text.dropFirst(indent)
            if inString || body.isEmpty {
                if case .slashes(_, true) = syntax, Self.count([0x22, 0x22, 0x22], in: body) % 2 == 1 { inString.toggle() }
                if !body.isEmpty { content(line) }
                continue
            }
            let at = SourceLocation(line: line, column: indent + 1)
            switch syntax {
            case .hash where body.first == 0x23:
                if let d = SuppressionDirective.parse(text: String(decoding: body.dropFirst(), as: UTF8.self), at: at) { add(d) } else { content(line) }
                continue
            case .slashes where body.starts(with: [0x2F, 0x2F]):
                if let d = SuppressionDirective.parse(text: String(decoding: body.dropFirst(2), as: UTF8.self), at: at) { add(d) } else { content(line) }
                continue
            case .slashes(true, _) where body.starts(with: [0x2F, 0x2A]):
                let inner = body.dropFirst(2)
                if let close = Self.find([0x2A, 0x2F], in: inner) {
                    let after = inner[(close + 2)...].allSatisfy { $0 == 0x20 || $0 == 0x09 }
                    if after, let d = SuppressionDirective.parse(text: String(decoding: inner[..<close], as: UTF8.self), at: at) { add(d) } else { content(line) }
                } else {
                    block = (Array(inner), at, SuppressionDirective.isDirective(String(decoding: inner, as: UTF8.self)))
                    if block?.isDirective == false { content(line) }
                }
                continue
            default:
                break
            }
            if case .slashes(_, true) = syntax, Self.count([0x22, 0x22, 0x22], in: body) % 2 == 1 { inString = true }
            content(line)
        }
        guard !directives.isEmpty || dropped > 0 else { return nil }
        self.directives = directives
        self.covered = covered
        self.dropped = dropped
        self.firstDropped = firstDropped
    }

    /// Whether `entitlint:` occurs in `bytes` at all: a file without it is not scanned by line.
    static func mentionsPrefix(_ bytes: [UInt8]) -> Bool {
        find(Array(SuppressionDirective.prefix.utf8), in: bytes[...]) != nil
    }

    /// The index of the first occurrence of `needle` in `hay`.
    static func find(_ needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        var i = hay.startIndex
        while i <= hay.endIndex - needle.count {
            if hay[i] == needle[0], hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// How many times `needle` occurs in `hay`, not overlapping.
    static func count(_ needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int {
        var n = 0
        var rest = hay
        while let i = find(needle, in: rest) {
            n += 1
            rest = rest[(i + needle.count)...]
        }
        return n
    }
}
