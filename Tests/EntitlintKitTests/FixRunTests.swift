import XCTest
import EntitlintCore
import EntitlintWorkspace
import PropertyList
import TestSupport
@testable import EntitlintKit

/// `lint --fix` in the library: fixes written in place byte for byte, verified by linting again,
/// idempotent, computed without writing for `--diff`, and refused for files that must not be
/// rewritten.
final class FixRunTests: FolderTestCase {
    override class var folderPrefix: String { "fixrun" }

    static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
    static let tail = "</dict>\n</plist>\n"

    func write(_ text: String, _ path: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: root.appendingPathComponent(path)), as: UTF8.self)
    }

    func testFixWritesOnlyTheEditedBytesAndIsIdempotent() throws {
        let before = Self.head + "\t<!-- keep me -->\n\t<key>keychain-access-groups</key>\n\t<array>\n\t\t<string>com.example.shared</string>\n\t\t<string>$(AppIdentifierPrefix)com.example.other</string>\n\t\t<string>$(AppIdentifierPrefix)com.example.other</string>\n\t\t<string>  </string>\n\t</array>\n" + Self.tail
        try write(before, "App.entitlements")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: root.appendingPathComponent("App.entitlements").path)
        let result = try LintRun.fix(LintRequest(paths: ["."]), FixRequest())
        XCTAssertEqual(result.fixCount, 3)
        XCTAssertEqual(try read("App.entitlements"),
                       Self.head + "\t<!-- keep me -->\n\t<key>keychain-access-groups</key>\n\t<array>\n\t\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n\t\t<string>$(AppIdentifierPrefix)com.example.other</string>\n\t</array>\n" + Self.tail)
        let mode = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("App.entitlements").path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o640)
        XCTAssertFalse(result.outcome.failing)
        XCTAssertEqual(result.outcome.result.findings.filter { $0.fix != nil }.map(\.rule), [])
        let again = try LintRun.fix(LintRequest(paths: ["."]), FixRequest())
        XCTAssertEqual(again.fixCount, 0)
        XCTAssertTrue(again.files.isEmpty)
    }

    func testCRLFFileKeepsItsLineEnds() throws {
        let before = (Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string></string>\n\t<string>$(AppIdentifierPrefix)a.b</string>\n</array>\n" + Self.tail)
            .replacingOccurrences(of: "\n", with: "\r\n")
        try write(before, "App.entitlements")
        _ = try LintRun.fix(LintRequest(paths: ["App.entitlements"]), FixRequest())
        XCTAssertEqual(try read("App.entitlements"), before.replacingOccurrences(of: "\t<string></string>\r\n", with: ""))
    }

    func testDiffWritesNothingAndUnsafeFixesNeedAsking() throws {
        let before = Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)a.b</string>\n\t<string>$(AppIdentifierPrefix)*</string>\n</array>\n" + Self.tail
        try write(before, "App.entitlements")
        let safeOnly = try LintRun.fix(LintRequest(paths: ["."]), FixRequest(write: false))
        XCTAssertEqual(safeOnly.fixCount, 0, "a wildcard's removal is unsafe")
        let diff = try LintRun.fix(LintRequest(paths: ["."]), FixRequest(unsafe: true, write: false))
        XCTAssertEqual(diff.fixCount, 1)
        XCTAssertEqual(try read("App.entitlements"), before, "--diff writes nothing")
        let text = UnifiedDiff.render(diff.files[0].before, diff.files[0].after, oldName: "a/App.entitlements", newName: "b/App.entitlements")
        XCTAssertTrue(text.contains("\n-\t<string>$(AppIdentifierPrefix)*</string>\n"), text)
        XCTAssertTrue(diff.outcome.result.findings.allSatisfy { $0.rule != "wildcard-access-group" })
    }

    func testAFixThatBringsAnotherFindingIsNotApplied() throws {
        // Trimming the padded group would make it a duplicate of the first: that fix is dropped,
        // while the empty entry's removal stays.
        let before = Self.head + "<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)a.b</string>\n\t<string> $(AppIdentifierPrefix)a.b</string>\n\t<string></string>\n</array>\n" + Self.tail
        try write(before, "App.entitlements")
        let result = try LintRun.fix(LintRequest(paths: ["."]), FixRequest())
        XCTAssertEqual(result.files.first?.fixes.map(\.rule), ["empty-access-group"])
        XCTAssertEqual(try read("App.entitlements"), before.replacingOccurrences(of: "\t<string></string>\n", with: ""))
    }

    func testBinaryPlistIsNeverRewritten() throws {
        let plist: [String: Any] = ["keychain-access-groups": ["", "$(AppIdentifierPrefix)a.b"]]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try data.write(to: root.appendingPathComponent("App.entitlements"))
        let result = try LintRun.fix(LintRequest(paths: ["."]), FixRequest())
        XCTAssertEqual(result.fixCount, 0)
        XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("App.entitlements")), data)
        XCTAssertTrue(result.outcome.result.notices.contains { $0.message.contains("binary property list") }, "\(result.outcome.result.notices)")
    }

    func testFilesOutsideTheRootAndChangedFilesAreRefused() throws {
        try write(Self.head + Self.tail, "outside/App.entitlements")
        var engine = FixEngine(request: LintRequest(), fixing: FixRequest(), root: ProjectRoot(folders: [root.appendingPathComponent("inner").path]),
                               virtualFiles: nil, maxBytes: 1 << 20)
        XCTAssertNil(engine.original(root.appendingPathComponent("outside/App.entitlements").path, shown: "outside/App.entitlements"))
        XCTAssertTrue(engine.notices.first?.message.contains("outside the project root") ?? false)

        try write("new bytes", "Changed.entitlements")
        let path = root.appendingPathComponent("Changed.entitlements").path
        let file = FixedFile(path: "Changed.entitlements", absolutePath: path, before: Array("old bytes".utf8), after: Array("fixed".utf8), fixes: [])
        XCTAssertEqual(FixWriter.write(file, staged: false), "the file changed on disk since it was read, so it was not overwritten")
        XCTAssertEqual(try read("Changed.entitlements"), "new bytes")
    }

    /// Random valid entitlements files (seeded) with problems the safe fixes cover, in random
    /// layouts: after `--fix` each parses to the expected values and has no finding of the fixed
    /// rules left, and a second `--fix` changes nothing.
    func testRandomFilesFixToTheExpectedValues() throws {
        var rng = SplitMix64(seed: 0xF1C5)
        var expected: [String: [String]] = [:]
        for n in 0..<24 {
            let nl = Bool.random(using: &rng) ? "\n" : "\r\n"
            let indent = ["", "\t", "  ", "    "].randomElement(using: &rng)!
            var entries: [String] = []
            var want: [String] = []
            var seen: [String] = []
            for i in 0..<Int.random(in: 1...6, using: &rng) {
                let name = "com.example.f\(n)g\(i)"
                let good = "$(AppIdentifierPrefix)" + name
                switch Int.random(in: 0..<7, using: &rng) {
                case 0: entries.append("<string>\(good)</string>"); want.append(good); seen.append(good)
                case 1: entries.append("<string>\(name)</string>"); want.append(good)
                case 2: entries.append("<string>$(AppIdentifierPrefix).\(name)</string>"); want.append(good)
                case 3: entries.append(Bool.random(using: &rng) ? "<string/>" : "<string> </string>")
                case 4: entries.append("<string>  \(good)\t</string>"); want.append(good)
                case 5: entries.append("<string>\(good)\u{200B}</string>"); want.append(good)
                default:
                    if let twice = seen.first { entries.append("<string>\(twice.replacingOccurrences(of: "&", with: "&amp;"))</string>") }
                    else { entries.append("<string>\(good)</string>"); want.append(good); seen.append(good) }
                }
                if Bool.random(using: &rng) { entries[entries.count - 1] += " <!-- c\(i) -->" }
            }
            let open = indent + "<key>keychain-access-groups</key>" + nl + indent + "<array>" + nl
            var text: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + nl
            text += "<plist version=\"1.0\">" + nl + "<dict>" + nl
            text += indent + "<key>com.apple.security.app-sandbox</key>" + nl + indent + "<true/>" + nl
            text += open
            for e in entries { text += indent + indent + e + nl }
            text += indent + "</array>" + nl + "</dict>" + nl + "</plist>" + nl
            try write(text, "f\(n).entitlements")
            expected["f\(n).entitlements"] = want
        }
        let result = try LintRun.fix(LintRequest(paths: ["."]), FixRequest())
        let fixedRules: Set<String> = ["missing-team-prefix", "double-prefix", "empty-access-group", "duplicate-access-group"]
        XCTAssertEqual(result.outcome.result.findings.filter { fixedRules.contains($0.rule) }.map { "\($0.path): \($0.message)" }, [])
        for (path, want) in expected {
            let doc = try PropertyListReader.parse(Array(try Data(contentsOf: root.appendingPathComponent(path))))
            guard case .dict(let d) = doc.root.value else { return XCTFail(path) }
            XCTAssertEqual(d["keychain-access-groups"]?.array?.compactMap(\.string), want, path)
            XCTAssertEqual(d["com.apple.security.app-sandbox"]?.value, .bool(true), path)
        }
        XCTAssertEqual(try LintRun.fix(LintRequest(paths: ["."]), FixRequest()).fixCount, 0)
    }
}
