import Foundation
import XCTest

/// Runs a reader of a format that is not Swift (Python's `html.parser` and `plistlib`, Graphviz's
/// `dot`), feeding it `input` on standard input. A tool that is not installed skips the test,
/// saying which package CI installs for it.
public enum ExternalTool {
    public static func run(_ arguments: [String], input: String, package: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        // Written from another thread: a large input and a large output would otherwise block
        // each other on full pipes.
        // A tool that is not installed exits at once (127): the write then fails with EPIPE,
        // which must neither kill the test process (SIGPIPE ignored) nor trap (the throwing write).
        signal(SIGPIPE, SIG_IGN)
        let data = Data(input.utf8)
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: data)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        if p.terminationStatus == 127 { throw XCTSkip("\(arguments[0]) is not installed (apt-get install -y \(package); CI installs it)") }
        guard p.terminationStatus == 0 else {
            throw ToolFailure(description: "\(arguments[0]) failed (\(p.terminationStatus)): \(String(decoding: err, as: UTF8.self))")
        }
        return String(decoding: out, as: UTF8.self)
    }

    public struct ToolFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Python's `html.parser` (character references decoded) on `html`: its events, in order,
    /// as `["start", tag, [[name, value], ...]]`, `["end", tag]`, `["data", text]` (adjacent
    /// text joined), `["other", kind, text]` for comments, declarations and processing
    /// instructions.
    public static func htmlEvents(_ html: String) throws -> [[Any]] {
        let script = """
        import sys, json
        from html.parser import HTMLParser
        class P(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.events = []
            def handle_starttag(self, tag, attrs): self.events.append(["start", tag, [[k, v] for k, v in attrs]])
            def handle_startendtag(self, tag, attrs): self.events.append(["start", tag, [[k, v] for k, v in attrs]]); self.events.append(["end", tag])
            def handle_endtag(self, tag): self.events.append(["end", tag])
            def handle_data(self, data):
                if self.events and self.events[-1][0] == "data": self.events[-1][1] += data
                else: self.events.append(["data", data])
            def handle_comment(self, data): self.events.append(["other", "comment", data])
            def handle_decl(self, data): self.events.append(["other", "decl", data])
            def handle_pi(self, data): self.events.append(["other", "pi", data])
            def unknown_decl(self, data): self.events.append(["other", "unknown", data])
        p = P()
        p.feed(sys.stdin.buffer.read().decode("utf-8"))
        p.close()
        sys.stdout.write(json.dumps(p.events))
        """
        let out = try run(["python3", "-c", script], input: html, package: "python3")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[Any]])
    }

    /// Python's `plistlib` on an XML plist: the value, as JSON (`plistlib` refuses a document
    /// that is not a well-formed plist).
    public static func plistlibValue(_ xml: String) throws -> Any {
        let script = """
        import sys, json, plistlib
        sys.stdout.write(json.dumps(plistlib.loads(sys.stdin.buffer.read()), ensure_ascii=False))
        """
        let out = try run(["python3", "-c", script], input: xml, package: "python3")
        return try JSONSerialization.jsonObject(with: Data(out.utf8), options: [.fragmentsAllowed])
    }

    /// Graphviz reading `dot` (`dot -Tjson`): each node's name and its `label` attribute as
    /// Graphviz stored it, and the number of edges.
    public static func graphvizNodes(_ dot: String) throws -> (nodes: [(name: String, label: String?)], edges: Int) {
        let out = try run(["dot", "-Tjson"], input: dot, package: "graphviz")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let objects = json["objects"] as? [[String: Any]] ?? []
        let nodes = objects.filter { $0["nodes"] == nil }.map { ($0["name"] as? String ?? "", $0["label"] as? String) }
        return (nodes, (json["edges"] as? [Any])?.count ?? 0)
    }
}
