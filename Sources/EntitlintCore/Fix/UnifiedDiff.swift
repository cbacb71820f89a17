/// A unified diff (`diff -u` style, three lines of context) of two versions of one file, for
/// `lint --diff`. Lines keep their own line ends (a CR before LF stays part of the line). The
/// common-subsequence table is bounded: past `maxCells` cells the whole file is shown as one
/// hunk of removals and additions, still a correct diff.
public enum UnifiedDiff {
    static let maxCells = 4_000_000
    static let context = 3

    public static func render(_ old: [UInt8], _ new: [UInt8], oldName: String, newName: String) -> String {
        let a = lines(old), b = lines(new)
        guard a != b else { return "" }
        let script = operations(a, b)
        var out = "--- \(oldName)\n+++ \(newName)\n"
        // Hunks: runs of changes with up to `context` equal lines around them.
        var i = 0
        while i < script.count {
            guard let firstChange = script[i...].firstIndex(where: { $0.kind != " " }) else { break }
            let start = max(i, firstChange - context)
            var end = firstChange
            var k = firstChange
            while k < script.count {
                if script[k].kind != " " { end = k; k += 1; continue }
                // An equal run: the hunk goes on only if another change follows within 2 * context.
                var run = k
                while run < script.count && script[run].kind == " " { run += 1 }
                if run < script.count && run - k <= 2 * context { k = run } else { break }
            }
            let stop = min(script.count, end + 1 + context)
            let hunk = script[start..<stop]
            let oldStart = hunk.first!.oldLine, newStart = hunk.first!.newLine
            let oldCount = hunk.filter { $0.kind != "+" }.count, newCount = hunk.filter { $0.kind != "-" }.count
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for line in hunk {
                out += String(line.kind) + String(decoding: line.text, as: UTF8.self)
                if line.text.last != 0x0A { out += "\n\\ No newline at end of file\n" }
            }
            i = stop
        }
        return out
    }

    static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(count == 0 ? start - 1 : start),\(count)"
    }

    struct Line { var kind: Character; var text: [UInt8]; var oldLine: Int; var newLine: Int }

    static func lines(_ b: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var start = 0
        for (i, c) in b.enumerated() where c == 0x0A {
            out.append(Array(b[start...i]))
            start = i + 1
        }
        if start < b.count { out.append(Array(b[start...])) }
        return out
    }

    /// The edit script: equal lines, removals and additions, in order, each with the 1-based line
    /// numbers it stands at in the old and new file.
    static func operations(_ a: [[UInt8]], _ b: [[UInt8]]) -> [Line] {
        // Common head and tail first: a fix touches few lines.
        var head = 0
        while head < a.count && head < b.count && a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head && tail < b.count - head && a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        let midA = Array(a[head..<(a.count - tail)]), midB = Array(b[head..<(b.count - tail)])
        var kinds: [(Character, [UInt8])] = a[..<head].map { (" ", $0) }
        if midA.count * midB.count <= maxCells {
            var table = [[Int]](repeating: [Int](repeating: 0, count: midB.count + 1), count: midA.count + 1)
            for x in stride(from: midA.count - 1, through: 0, by: -1) {
                for y in stride(from: midB.count - 1, through: 0, by: -1) {
                    table[x][y] = midA[x] == midB[y] ? table[x + 1][y + 1] + 1 : max(table[x + 1][y], table[x][y + 1])
                }
            }
            var x = 0, y = 0
            while x < midA.count || y < midB.count {
                if x < midA.count, y < midB.count, midA[x] == midB[y] { kinds.append((" ", midA[x])); x += 1; y += 1 }
                else if x < midA.count && (y == midB.count || table[x + 1][y] >= table[x][y + 1]) { kinds.append(("-", midA[x])); x += 1 }
                else { kinds.append(("+", midB[y])); y += 1 }
            }
        } else {
            kinds += midA.map { ("-", $0) } + midB.map { ("+", $0) }
        }
        kinds += a[(a.count - tail)...].map { (" ", $0) }
        var out: [Line] = []
        var oldLine = 1, newLine = 1
        for (kind, text) in kinds {
            out.append(Line(kind: kind, text: text, oldLine: oldLine, newLine: newLine))
            if kind != "+" { oldLine += 1 }
            if kind != "-" { newLine += 1 }
        }
        return out
    }
}
