import XCTest

/// A test that runs in a fresh folder of its own, `root`: made before each test and the current
/// folder while it runs (a run searches for its configuration from the current folder); after the
/// test the previous current folder is back and `root` is removed.
class FolderTestCase: XCTestCase {
    var root: URL!
    private var previous = ""

    /// The start of the folder's name, which tells whose folder a leftover one was.
    class var folderPrefix: String { "folder" }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("\(Self.folderPrefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(root.path))
    }

    override func tearDownWithError() throws {
        _ = FileManager.default.changeCurrentDirectoryPath(previous)
        try? FileManager.default.removeItem(at: root)
    }
}
