import Foundation
import XCTest

/// EntitlintCore is the model and the rule engine: it reads no file, lists no folder, runs no
/// process (git included) and parses no YAML. All of that is EntitlintWorkspace's, which depends
/// on the core and never the other way. Fails when a core source names one of the APIs that
/// would break the seam.
final class ModuleSeamTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What the core may not use: YAML, Foundation's file and process types, the POSIX calls that
    /// open, list, stat, resolve or change files, ask or change the current folder, or start processes, and the workspace's own
    /// readers. Matched in code, comments left out (the core's comments may name the workspace).
    static let forbidden = try! NSRegularExpression(pattern: [
        "\\bimport\\s+(Yams|YAMLReader|CLibYAML|EntitlintWorkspace)\\b", "\\bYams\\.", "\\bYAMLNode\\.compose\\(", "\\b(FileManager|FileHandle|Process|DirectoryEnumerator)\\b",
        "\\b(open|openat|fopen|opendir|readdir|fdopendir|stat|lstat|fstat|realpath|unlink|rename|mkdir|rmdir|symlink|readlink|getcwd|chdir|popen|posix_spawn|posix_spawnp|execv|execvp|fork|system)\\s*\\(",
        "\\b(Data|String|NSData|NSString|NSDictionary|NSArray)\\(contentsOf(File)?:", "\\bcontentsOfFile\\b", "\\bwrite\\(to(File)?:", "\\b(FileReader|GitRepository|GitWorkTree|VirtualFiles)\\b",
    ].joined(separator: "|"))

    static func offenders(in text: String) -> [String] {
        var out: [String] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var code = String(line)
            if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
            if forbidden.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil { out.append("\(n + 1): \(line.prefix(120))") }
        }
        return out
    }

    func testThePatternCatchesWhatItShould() {
        let bad = ["import Yams", "let n = try Yams.compose(yaml: t)", "import YAMLReader", "import CLibYAML", "let n = try YAMLNode.compose(yaml: t)", "let fd = open(path, O_RDONLY)", "guard let d = opendir(p) else {",
                   "while let e = readdir(d) {", "let p = Process()", "FileManager.default.fileExists(atPath: p)", "lstat(p, &st)",
                   "let d = try Data(contentsOf: url)", "try FileReader.read(p, limit: 1)", "let r = realpath(p, nil)",
                   "guard getcwd(&buf, buf.count) != nil else { return \".\" }"]
        for line in bad { XCTAssertEqual(Self.offenders(in: line).count, 1, line) }
        let fine = ["// the workspace opens files (FileReader), not the core", "Paths.display(path, cwd: settings.workingDirectory)",
                    "let opened = reopen(x)", "buffer.append(contentsOf: b)", "lock.lock()", "func isProfilePath(_ path: String) -> Bool", "Paths.absolute(p, cwd: cwd)"]
        for line in fine { XCTAssertEqual(Self.offenders(in: line), [], line) }
    }

    func testTheCoreUsesNoFileSystemProcessOrYAMLAPI() throws {
        let folder = Self.root.appendingPathComponent("Sources/EntitlintCore")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThan(names.count, 30, "the core's sources were found")
        var found: [String] = []
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for o in Self.offenders(in: text) { found.append("Sources/EntitlintCore/\(name):\(o)") }
        }
        XCTAssertEqual(found, [], found.joined(separator: "\n"))
    }

    /// The package manifest gives the core no YAML and no workspace dependency.
    func testTheCoreTargetDependsOnNeitherYAMLNorTheWorkspace() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try XCTUnwrap(manifest.range(of: ".target(name: \"EntitlintCore\""))
        let end = try XCTUnwrap(manifest.range(of: "]", range: start.upperBound..<manifest.endIndex))
        let dependencies = String(manifest[start.upperBound..<end.upperBound])
        XCTAssertTrue(dependencies.contains("PropertyList"), dependencies)
        XCTAssertFalse(dependencies.contains("Yams"), dependencies)
        XCTAssertFalse(dependencies.contains("YAML"), dependencies)
        XCTAssertFalse(dependencies.contains("EntitlintWorkspace"), dependencies)
    }
}
