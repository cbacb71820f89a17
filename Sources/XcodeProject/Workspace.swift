import EntitlintCore
import PropertyList

/// An Xcode workspace: `X.xcworkspace/contents.xcworkspacedata`, a small XML file of `<FileRef
/// location = "...">` elements, possibly inside `<Group location = "...">` elements. A location is
/// `group:PATH` (relative to the enclosing group, at the top the workspace's folder), `container:PATH`
/// (relative to the folder holding the workspace), `absolute:PATH`, or `self:` (the project that
/// holds an embedded `project.xcworkspace`); other kinds (`developer:`) name nothing in the repository.
///
/// Read with a small scanner of our own (no XML library: only the `PropertyList` module uses
/// libxml2): elements and their attributes, the five predefined entities, comments; anything else
/// is skipped, never fetched.
struct Workspace {
    struct ProjectRef {
        /// `App.xcodeproj`, usable from the current folder.
        var path: String
        /// The `location` attribute as written (`group:../Other/Other.xcodeproj`).
        var written: String
        var location: SourceLocation
    }

    var file: String
    var projects: [ProjectRef]
    /// Folders it names that are not projects (`group:libraries/Core`), usable from the current
    /// folder: where the local Swift packages of its projects may be.
    var folders: [String] = []

    /// Group nesting read at most (real workspaces nest a few levels): each level's path is
    /// built from its parent's, so 100,000 levels would cost quadratic time.
    static let maxGroupDepth = 256
    /// PATH_MAX on Linux: a longer location names nothing that can be opened.
    static let maxPathLength = 4096

    /// Reads the workspace at `bundlePath` (`X.xcworkspace`); problems name the file and line.
    static func read(bundlePath: String, files: ProjectFiles) -> (Workspace?, [ProjectProblem]) {
        let dataPath = ProjectFiles.join(bundlePath, "contents.xcworkspacedata")
        let shown = files.shown(dataPath)
        let bytes: [UInt8]
        switch files.read(dataPath) {
        case .success(let b): bytes = b
        case .failure(let why): return (nil, [ProjectProblem(file: shown, location: .unknown, message: "cannot read the workspace: \(why)")])
        }
        let container = Paths.directoryName(bundlePath)
        var groups: [String] = [container]
        var projects: [ProjectRef] = []
        var folders: [String] = []
        var problems: [ProjectProblem] = []
        var sawWorkspace = false
        // Groups deeper than `maxGroupDepth`, still open: their paths are not resolved.
        var tooDeep = 0
        for element in XMLScanner.elements(bytes) {
            switch element.name {
            case "Workspace":
                sawWorkspace = true
            case "/Group":
                if tooDeep > 0 { tooDeep -= 1 } else if groups.count > 1 { groups.removeLast() }
            case "Group", "FileRef":
                if tooDeep > 0 || groups.count > Self.maxGroupDepth {
                    if element.name == "Group", !element.selfClosing {
                        if tooDeep == 0 {
                            problems.append(ProjectProblem(file: shown, location: element.location,
                                                           message: "groups nested deeper than \(Self.maxGroupDepth) levels: what they hold is not read"))
                        }
                        tooDeep += 1
                    }
                    continue
                }
                let base = groups.last ?? container
                let location = element.attributes["location"] ?? ""
                var resolved: String?
                if location.hasPrefix("group:") {
                    resolved = ProjectFiles.normalize(ProjectFiles.join(base, String(location.dropFirst(6))))
                } else if location.hasPrefix("container:") {
                    resolved = ProjectFiles.normalize(ProjectFiles.join(container, String(location.dropFirst(10))))
                } else if location.hasPrefix("absolute:") {
                    resolved = String(location.dropFirst(9))
                } else if location.hasPrefix("self:") {
                    resolved = nil
                } else if element.name == "FileRef", !location.isEmpty, !location.hasPrefix("developer:") {
                    problems.append(ProjectProblem(file: shown, location: element.location,
                                                   message: "workspace location \"\(OutputText.reference(location))\" is not one Entitlint can resolve"))
                }
                if let r = resolved, r.utf8.count > Self.maxPathLength {
                    // Longer than any path the system opens (PATH_MAX): nested groups can only
                    // make it longer, so it is a problem here and its group resolves to nothing.
                    problems.append(ProjectProblem(file: shown, location: element.location,
                                                   message: "a location longer than \(Self.maxPathLength) bytes"))
                    resolved = nil
                }
                if element.name == "Group" {
                    if !element.selfClosing { groups.append(resolved ?? base) }
                } else if let resolved, resolved.hasSuffix(".xcodeproj") {
                    projects.append(ProjectRef(path: resolved, written: location, location: element.location))
                } else if let resolved, !Paths.baseName(resolved).contains("."), folders.count < 10_000 {
                    folders.append(resolved)
                }
            default:
                continue
            }
        }
        if !sawWorkspace {
            problems.append(ProjectProblem(file: shown, location: SourceLocation(line: 1, column: 1),
                                           message: "not a workspace: no <Workspace> element"))
            return (nil, problems)
        }
        return (Workspace(file: shown, projects: projects, folders: folders), problems)
    }
}

/// Elements of a small, well-behaved XML file: start tags (with attributes), end tags as `/name`.
enum XMLScanner {
    struct Element {
        var name: String
        var attributes: [String: String]
        var selfClosing: Bool
        var location: SourceLocation
    }

    static let maxElements = 100_000

    static func elements(_ b: [UInt8]) -> [Element] {
        var out: [Element] = []
        var i = 0
        var line = 1
        var lineStart = 0
        func advance() {
            if b[i] == 0x0A { line += 1; lineStart = i + 1 }
            i += 1
        }
        while i < b.count, out.count < maxElements {
            guard b[i] == UInt8(ascii: "<") else { advance(); continue }
            let loc = SourceLocation(line: line, column: i - lineStart + 1)
            // Comments, declarations, processing instructions: skipped.
            if i + 3 < b.count, b[i + 1] == UInt8(ascii: "!"), b[i + 2] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: "-") {
                while i < b.count, !(b[i] == UInt8(ascii: ">") && i >= 2 && b[i - 1] == UInt8(ascii: "-") && b[i - 2] == UInt8(ascii: "-")) { advance() }
                if i < b.count { advance() }
                continue
            }
            if i + 1 < b.count, b[i + 1] == UInt8(ascii: "?") || b[i + 1] == UInt8(ascii: "!") {
                while i < b.count, b[i] != UInt8(ascii: ">") { advance() }
                if i < b.count { advance() }
                continue
            }
            advance()
            var name: [UInt8] = []
            if i < b.count, b[i] == UInt8(ascii: "/") { name.append(b[i]); advance() }
            while i < b.count, b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/"), !isSpace(b[i]) { name.append(b[i]); advance() }
            var attributes: [String: String] = [:]
            var selfClosing = false
            while i < b.count, b[i] != UInt8(ascii: ">") {
                if b[i] == UInt8(ascii: "/") { selfClosing = true; advance(); continue }
                if isSpace(b[i]) { advance(); continue }
                var key: [UInt8] = []
                while i < b.count, b[i] != UInt8(ascii: "="), b[i] != UInt8(ascii: ">"), !isSpace(b[i]) { key.append(b[i]); advance() }
                while i < b.count, isSpace(b[i]) { advance() }
                guard i < b.count, b[i] == UInt8(ascii: "=") else { continue }
                advance()
                while i < b.count, isSpace(b[i]) { advance() }
                guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else { continue }
                let quote = b[i]
                advance()
                var value: [UInt8] = []
                while i < b.count, b[i] != quote { value.append(b[i]); advance() }
                if i < b.count { advance() }
                attributes[String(decoding: key, as: UTF8.self)] = unescape(String(decoding: value, as: UTF8.self))
            }
            if i < b.count { advance() }
            out.append(Element(name: String(decoding: name, as: UTF8.self), attributes: attributes, selfClosing: selfClosing, location: loc))
        }
        return out
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    static func unescape(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let semi = rest.firstIndex(of: ";"), rest.distance(from: rest.startIndex, to: semi) <= 10 else { out += "&"; rest = rest.dropFirst(); continue }
            switch rest[rest.index(after: rest.startIndex)..<semi] {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default: out += rest[...semi]
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
