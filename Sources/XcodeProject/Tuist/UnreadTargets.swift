import EntitlintCore
import EntitlintWorkspace
import PropertyList

/// The places of manifests and their helper files where targets are built in a way that needs
/// evaluation (a helper's result, a name computed at run time): those targets are not read. Said
/// in one notice per file, with the number of places and the first few lines, however many
/// manifests reach a place (a helper shared by every manifest is one place).
struct UnreadTargets {
    /// How many lines a notice lists before `and N more`.
    static let shownLines = 5
    /// One place: the file (as shown) and line written, and where the value that needs
    /// evaluation is, when elsewhere (`Project.swift:3`, a constant's line).
    struct Place: Hashable {
        var file: String
        var line: Int
        var valueAt: String?
    }

    private(set) var places: [Place] = []
    private var seen = Set<Place>()

    /// Adds the place at `line` of `file` whose value, resolved, is at `valueAt` (`file:line`).
    mutating func add(file: String, line: Int, valueAt: String) {
        let place = Place(file: file, line: line, valueAt: valueAt == "\(file):\(line)" ? nil : valueAt)
        if seen.insert(place).inserted { places.append(place) }
    }

    mutating func add(_ other: UnreadTargets) {
        for p in other.places where seen.insert(p).inserted { places.append(p) }
    }

    /// One notice per file, at its first place, in the order the files were met.
    func notices() -> [ProjectProblem] {
        var order: [String] = []
        var byFile: [String: [Place]] = [:]
        for p in places {
            if byFile[p.file] == nil { order.append(p.file) }
            byFile[p.file, default: []].append(p)
        }
        return order.map { file in
            let list = byFile[file]!.sorted { $0.line < $1.line }
            let lines = list.prefix(Self.shownLines).map { p in "\(p.line)" + (p.valueAt.map { " (its value at \($0))" } ?? "") }
            let more = list.count > Self.shownLines ? " and \(list.count - Self.shownLines) more" : ""
            let message = list.count == 1
                ? "a target built here needs evaluation\(list[0].valueAt.map { " (its value at \($0))" } ?? ""): it is not read"
                : "\(list.count) places in this file build targets that need evaluation: they are not read (lines \(lines.joined(separator: ", "))\(more))"
            var p = ProjectProblem(file: file, location: SourceLocation(line: list[0].line, column: 0), message: message, severity: .note)
            p.isNotice = true
            return p
        }
    }
}
