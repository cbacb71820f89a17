import XCTest
import EntitlintCore
import EntitlintWorkspace
@testable import XcodeProject

/// The byte-level shortcuts of project paths give what the character-level rules give: a path
/// already normal is returned as it is, a folder name is the one `Paths.directoryName` gives, and
/// a file is inside the root exactly when `ProjectRoot.contains` says so.
final class ProjectFilesPathTests: XCTestCase {
    /// Paths and their normal form by characters: `/` followed by a combining mark is one
    /// character, not a separator (so `/\u{301}abc` is a relative path of one component).
    let normalized: [(String, String)] = [
        ("a/b", "a/b"), ("/a/b", "/a/b"), ("a/./b", "a/b"), ("a/../b", "b"), ("", "."), (".", "."), ("..", ".."), ("/", "/"),
        ("//", "/"), ("a//b", "a/b"), ("a/b/", "a/b"), ("...", "..."), ("a/.../b", "a/.../b"), ("./a", "a"), ("../a", "../a"),
        ("/..", "/"), ("/a/..", "/"), ("a/..b/c", "a/..b/c"), ("a/b..", "a/b.."), (".a/b", ".a/b"), ("/\u{301}abc", "/\u{301}abc"),
        ("a/\u{301}/../b", "b"), ("a/.\u{301}/b", "a/.\u{301}/b"), ("é/ü/x.swift", "é/ü/x.swift"), ("a/\u{301}", "a/\u{301}"),
        ("\u{301}/..", "."), ("a/b/.", "a/b"), ("a/.git/b", "a/.git/b"), ("App/Sources/File.swift", "App/Sources/File.swift"),
    ]

    func testNormalizeGivesTheNormalFormByCharacters() {
        for (path, normal) in normalized {
            XCTAssertEqual(ProjectFiles.normalize(path), normal, "normalize(\(path.debugDescription))")
        }
        XCTAssertTrue(ProjectFiles.isNormal("App/Sources/File.swift"))
        XCTAssertTrue(ProjectFiles.isNormal("/tmp/x/App.xcodeproj"))
        XCTAssertFalse(ProjectFiles.isNormal("a/./b"))
        XCTAssertFalse(ProjectFiles.isNormal("a/b/"))
        XCTAssertFalse(ProjectFiles.isNormal(""))
    }

    func testFolderNameIsDirectoryName() {
        for p in normalized.map(\.0) + ["x", "/x", "/x/y.swift", "/é/y", "/a/b\u{301}/c", "/a\r\n/b", "/tmp/x/App.xcodeproj"] {
            XCTAssertEqual(ProjectFiles.folderName(p), Paths.directoryName(p), "folderName(\(p.debugDescription))")
        }
    }

    func testAFileIsOutsideExactlyWhenTheRootDoesNotContainIt() throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("entitlint-paths-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("Root")
        let fm = FileManager.default
        for folder in ["Root/Sources", "Root/.git", "Root/Sources/.git", "Root/Ünï", "Other"] {
            try fm.createDirectory(at: base.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["Root/Sources/A.swift", "Root/.git/config", "Root/Ünï/B.swift", "Other/C.swift"] {
            try Data("x".utf8).write(to: base.appendingPathComponent(file))
        }
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Sources/Link.swift").path,
                                  withDestinationPath: base.appendingPathComponent("Other/C.swift").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Out").path, withDestinationPath: base.appendingPathComponent("Other").path)
        var options = LintOptions()
        options.paths = [root.path]
        let files = ProjectFiles(options: options, cwd: root.path)
        let cases: [(String, Bool)] = [
            ("Sources/A.swift", false), ("Sources/Missing.swift", false), ("Sources/.git", true), (".git/config", true),
            (".git", true), ("Sources/.git/x", true), ("Ünï/B.swift", false), ("../Other/C.swift", true), ("Sources/Link.swift", true),
            ("Out/C.swift", true), ("Sources/../Sources/A.swift", false), (base.appendingPathComponent("Other/C.swift").path, true),
            // `/` and a combining mark are one character: by characters, not below `Sources/`.
            ("Sources/.gitignore", false), ("Sources/\u{301}x", true),
        ]
        for (path, outside) in cases {
            // Asked twice: the second answer comes from the folder known from the first.
            XCTAssertEqual(files.isOutside(path), outside, path)
            XCTAssertEqual(files.isOutside(path), outside, path)
            let resolved = Paths.resolvingSymlinks(Paths.absolute(path, cwd: root.path))
            XCTAssertEqual(!files.root.contains(resolved: resolved), outside, "the root's own answer for \(path)")
        }
    }
}
