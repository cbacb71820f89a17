import Foundation
import XCTest

/// Hostile inputs that crashed the linter (stack overflows) or made it pass silently, run
/// through the built `entitlint` in a child process: a crash (any signal) or a run past the
/// watchdog fails the test, and each asserts the exit status and what the output says.
final class BoundsCLITests: XCTestCase, WritesFixtures {
    func run(_ args: [String], in dir: URL, file: StaticString = #filePath, line: UInt = #line) throws -> CLI.Result {
        try runBounded(args, in: dir, seconds: 120, file: file, line: line)
    }


    /// A project whose one configuration's base xcconfig is `xcconfig` (a file reference nested in
    /// `groups` groups) and which signs `App.entitlements`.
    func project(in dir: URL, xcconfig: String, groups: Int = 0) throws {
        var objects: [String] = []
        var next = 0x100
        func fresh() -> String { next += 1; return String(format: "F0%022X", next) }
        let mainGroup = fresh()
        var parent = mainGroup
        var chain: [(String, String)] = []
        for _ in 0..<groups {
            let g = fresh()
            chain.append((parent, g))
            parent = g
        }
        let fileRef = fresh()
        objects.append("\(fileRef) = {isa = PBXFileReference; path = \(xcconfig); sourceTree = \"<group>\"; };")
        var children: [String: [String]] = [parent: [fileRef]]
        for (p, g) in chain { children[p, default: []].append(g) }
        for (_, g) in chain {
            objects.append("\(g) = {isa = PBXGroup; children = (\((children[g] ?? []).joined(separator: ","))); path = a; sourceTree = \"<group>\"; };")
        }
        let config = fresh(), list = fresh(), target = fresh(), root = fresh()
        objects.append("\(config) = {isa = XCBuildConfiguration; baseConfigurationReference = \(fileRef); buildSettings = {SDKROOT = iphoneos; CODE_SIGN_ENTITLEMENTS = App.entitlements; }; name = Debug; };")
        objects.append("\(list) = {isa = XCConfigurationList; buildConfigurations = (\(config)); };")
        objects.append("\(target) = {isa = PBXNativeTarget; buildConfigurationList = \(list); buildPhases = (); dependencies = (); name = App; productType = \"com.apple.product-type.application\"; };")
        objects.append("\(mainGroup) = {isa = PBXGroup; children = (\((children[mainGroup] ?? []).joined(separator: ","))); sourceTree = \"<group>\"; };")
        objects.append("\(root) = {isa = PBXProject; buildConfigurationList = \(list); mainGroup = \(mainGroup); targets = (\(target)); };")
        try write("// !$*UTF8*$!\n{ archiveVersion = 1; objectVersion = 56; objects = {\n" + objects.joined(separator: "\n") + "\n}; rootObject = \(root); }\n",
                  "P.xcodeproj/project.pbxproj", in: dir)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.shared"]), "App.entitlements", in: dir)
    }

    // MARK: stack overflows

    func testNestedReferencesInAnXcconfigValueAreAFindingNotACrash() throws {
        let dir = try CLI.temporaryDirectory(self)
        let n = 200_000
        try write("PRODUCT_BUNDLE_IDENTIFIER = " + String(repeating: "$(", count: n) + "X" + String(repeating: ")", count: n) + "\n", "Base.xcconfig", in: dir)
        try project(in: dir, xcconfig: "Base.xcconfig")
        let r = try run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("cannot be resolved: references nested deeper than 64 levels [unresolved-variable]"), r.stdout)
        // The message quotes the start of the value, not all 400 KB of it.
        XCTAssertLessThan(r.stdout.utf8.count, 4_000)
    }

    func testGroupsNestedAHundredThousandDeepAreAFindingNotACrash() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write("PRODUCT_BUNDLE_IDENTIFIER = com.example.app\n", "Base.xcconfig", in: dir)
        try project(in: dir, xcconfig: "Base.xcconfig", groups: 100_000)
        let r = try run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("cannot be located: it is nested in more than 1000 groups [parse-error]"), r.stdout)
    }

    func testDoubleStarChainsInGitignoreAndExcludeAreNotACrash() throws {
        let dir = try CLI.temporaryDirectory(self)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try write(String(repeating: "**/", count: 100_000) + "Ignored.entitlements\n" + String(repeating: "a*", count: 20_000) + "b\n", ".gitignore", in: dir)
        try write("exclude: [\"" + String(repeating: "**/", count: 100_000) + "Excluded.entitlements\", \"" + String(repeating: "*a", count: 30_000) + "\"]\n",
                  ".entitlint.yml", in: dir)
        for name in ["Ignored", "Excluded", "Kept"] {
            try write(CLI.entitlements(["ABCDE12345.*"]), "a/b/c/\(name).entitlements", in: dir)
        }
        let r = try run(["lint", ".", "--format", "json"], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let paths = Set((json["findings"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String })
        XCTAssertEqual(paths, ["a/b/c/Kept.entitlements"])
    }

    func testDeeplyNestedXcodeGenSpecIsAFindingNotACrash() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write("name: P\nx: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n", "project.yml", in: dir)
        let r = try run(["lint", "."], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("project.yml:2: error: cannot parse the XcodeGen spec: nested more than 200 levels deep [parse-error]"), r.stdout)
    }

    // MARK: depth limits

    func writeDeep(_ depth: Int, _ name: String, in dir: URL) throws {
        try Data(BinaryPlistTestData.nestedArrays(depth: depth)).write(to: dir.appendingPathComponent(name))
    }

    /// A repository's `.entitlint.yml` asking for 100,000 levels gets 256, with a note; the flag
    /// is honoured up to the readers' own bound (1,024), on every thread, and past it the file is
    /// a parse-error, never a stack overflow.
    func testDeepBinaryPlistWithMaxDepthRaisedByConfigurationAndByFlag() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write("limits: {max-depth: 100000}\n", ".entitlint.yml", in: dir)
        try writeDeep(300, "Deep.entitlements", in: dir)
        let clamped = try run(["lint", "Deep.entitlements"], in: dir)
        XCTAssertEqual(clamped.status, 1, clamped.stdout + clamped.stderr)
        XCTAssertTrue(clamped.stderr.contains("note: .entitlint.yml sets limits.max-depth to 100000, above 256, the most a configuration may set; 256 is used (give --max-depth 100000 on the command line to go higher)"), clamped.stderr)
        XCTAssertTrue(clamped.stdout.contains("nested 257 deep, more than the limit of 256"), clamped.stdout)

        let flagged = try run(["lint", "Deep.entitlements", "--max-depth", "100000"], in: dir)
        XCTAssertEqual(flagged.status, 0, flagged.stdout + flagged.stderr)
        XCTAssertFalse(flagged.stderr.contains("note:"), "the flag decides: \(flagged.stderr)")

        // At the readers' bound, forty files on two threads, in every format.
        let many = try CLI.temporaryDirectory(self)
        for i in 0..<40 { try writeDeep(1_024, "D\(i).entitlements", in: many) }
        try writeDeep(100_000, "TooDeep.entitlements", in: many)
        for format in ["text", "json", "sarif", "junit", "checkstyle", "github", "gitlab"] {
            let r = try run(["lint", ".", "--max-depth", "100000", "--jobs", "2", "--format", format], in: many)
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("TooDeep.entitlements"), format)
            XCTAssertTrue(r.stdout.contains("the most Entitlint reads, whatever --max-depth says"), "\(format): \(r.stdout.prefix(2000))")
        }
    }

    // MARK: no silent pass

    func testUnreadableFolderIsAFindingNotNoProblems() throws {
        let dir = try CLI.temporaryDirectory(self)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.shared"]), "Secret/App.entitlements", in: dir)
        XCTAssertEqual(chmod(dir.appendingPathComponent("Secret").path, 0o000), 0)
        addTeardownBlock { chmod(dir.appendingPathComponent("Secret").path, 0o755) }
        for args in [["lint", "."], ["lint", "Secret"]] {
            let r = try runAsNobody(args, in: dir)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stdout) \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("Secret: error: cannot read the folder: Permission denied; the files in it are not checked [unreadable-path]"), r.stdout)
            XCTAssertFalse(r.stdout.contains("no problems found"), r.stdout)
        }
    }

    /// A file named with bytes that are not UTF-8 is linted, walked or named, and shown escaped.
    func testFileNameThatIsNotUTF8IsLintedAndShownEscaped() throws {
        let dir = try CLI.temporaryDirectory(self)
        let raw: [UInt8] = Array(dir.path.utf8) + Array("/Bad".utf8) + [0xFF, 0xFE] + Array(".entitlements".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        let bytes = Array(CLI.entitlements(["ABCDE12345.*"]).utf8)
        XCTAssertEqual(bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }, bytes.count)
        close(fd)
        let walked = try run(["lint", "."], in: dir)
        XCTAssertEqual(walked.status, 1, walked.stdout + walked.stderr)
        XCTAssertTrue(walked.stdout.contains("Bad\\xff\\xfe.entitlements:7:3: error: keychain access group \"ABCDE12345.*\" contains a wildcard"), walked.stdout)
        // Named on the command line, by its bytes.
        let p = Process()
        p.executableURL = CLI.executable
        let argument = String(decoding: [UInt8]("Bad".utf8) + [0xFF, 0xFE] + Array(".entitlements".utf8), as: UTF8.self)
        XCTAssertTrue(argument.contains("\u{FFFD}"), "Foundation would pass U+FFFD: the file must be named by its bytes")
        // Process cannot pass bytes that are not UTF-8: name it through the shell instead.
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exec \"$0\" lint \"$(printf 'Bad\\377\\376.entitlements')\"", CLI.executable.path]
        p.currentDirectoryURL = dir
        let named = try CLI.capture(p)
        XCTAssertEqual(named.status, 1, named.stdout + named.stderr)
        XCTAssertTrue(named.stdout.contains("Bad\\xff\\xfe.entitlements:7:3: error: keychain access group"), named.stdout)
    }

    // MARK: per-run caps

    func testFindingsAndReportSizeAreCappedWithANotice() throws {
        let dir = try CLI.temporaryDirectory(self)
        // 30,000 keys each given twice: 30,000 duplicate-key findings (warnings: the run passes).
        let body = (0..<30_000).map { "<key>k\($0)</key><true/><key>k\($0)</key><true/>" }.joined()
        try write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>" + body + "</dict>\n</plist>\n",
                  "App.entitlements", in: dir)
        let r = try run(["lint", ".", "--format", "json"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.count, 10_001)
        XCTAssertEqual(findings.last?["message"] as? String,
                       "20000 more findings are not shown, from here on: the run reports at most 10000 findings (raise it with --max-findings N or `limits: {max-findings: N}` in .entitlint.yml)")
        let raised = try run(["lint", ".", "--format", "json", "--max-findings", "50000"], in: dir)
        let all = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(raised.stdout.utf8)) as? [String: Any])?["findings"] as? [[String: Any]])
        XCTAssertEqual(all.count, 30_000)

        let small = try run(["lint", ".", "--format", "json", "--max-output-bytes", "100000"], in: dir)
        XCTAssertLessThanOrEqual(small.stdout.utf8.count, 100_000)
        let cut = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(small.stdout.utf8)) as? [String: Any])?["findings"] as? [[String: Any]],
                                "the report is still valid JSON")
        let notice = try XCTUnwrap(cut.last?["message"] as? String)
        XCTAssertEqual(notice, "\(30_000 - (cut.count - 1)) more findings are not shown, from here on: the report would pass the limit of its size (raise it with --max-output-bytes N or `limits: {max-output-bytes: N}` in .entitlint.yml)")

        // Report files are cut to the same size, each format on its own, and stay valid.
        // (SARIF's rule descriptions alone take about 100 KB, hence a larger limit here.)
        let files = try run(["lint", ".", "--max-output-bytes", "400000", "--report", "sarif:out.sarif", "--report", "json:out.json"], in: dir)
        XCTAssertEqual(files.status, small.status)
        for name in ["out.sarif", "out.json"] {
            let bytes = try Data(contentsOf: dir.appendingPathComponent(name))
            XCTAssertLessThanOrEqual(bytes.count, 400_000, name)
            XCTAssertGreaterThan(bytes.count, 100_000, name)
            XCTAssertNotNil(try JSONSerialization.jsonObject(with: bytes) as? [String: Any], name)
        }
        let sarif = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out.sarif"))) as? [String: Any])
        let results = try XCTUnwrap(((sarif["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        XCTAssertGreaterThan(results.count, 1)
        XCTAssertTrue(((results.last?["message"] as? [String: Any])?["text"] as? String)?.contains("more findings are not shown") == true)
    }
}

/// Binary plists made for the bounds tests.
enum BinaryPlistTestData {
    /// Entitlements nested `depth` deep: a root dict (an entitlements file's root is a dict; any
    /// other root is a parse-error of its own) whose key `k` holds `depth - 1` nested arrays
    /// (object i holds object i + 1), 4-byte references and offsets.
    static func nestedArrays(depth: Int) -> [UInt8] {
        var data = Array("bplist00".utf8)
        var offsets: [Int] = []
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        // Object 0: the dict {1: 2}; object 1: the key "k"; objects 2...: the arrays.
        offsets.append(data.count)
        data += [0xD1] + be32(1) + be32(2)
        offsets.append(data.count)
        data += [0x51, UInt8(ascii: "k")]
        let arrays = depth - 1
        for i in 0..<arrays {
            offsets.append(data.count)
            data += i < arrays - 1 ? [0xA1] + be32(i + 3) : [0xA0]
        }
        let table = data.count
        for o in offsets { data += be32(o) }
        data += [0, 0, 0, 0, 0, 0, 4, 4] + be32(0) + be32(offsets.count) + be32(0) + be32(0) + be32(0) + be32(table)
        return data
    }
}
