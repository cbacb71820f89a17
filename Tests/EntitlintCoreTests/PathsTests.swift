import XCTest
@testable import EntitlintCore

/// `Paths.absolute`: the absolute, `.`/`..`-free form of a path, whichever way it is written.
final class PathsTests: XCTestCase {
    func testAbsolutePathsComeOutCleanWhateverTheirForm() {
        XCTAssertEqual(Paths.absolute("/p/App/Sources/A.swift", cwd: "/w"), "/p/App/Sources/A.swift")
        XCTAssertEqual(Paths.absolute("/p/./App//Sources/../A.swift", cwd: "/w"), "/p/App/A.swift")
        XCTAssertEqual(Paths.absolute("/p/App/", cwd: "/w"), "/p/App")
        XCTAssertEqual(Paths.absolute("/p/.git/x", cwd: "/w"), "/p/.git/x")
        XCTAssertEqual(Paths.absolute("/p/..", cwd: "/w"), "/")
        XCTAssertEqual(Paths.absolute("/", cwd: "/w"), "/")
        XCTAssertEqual(Paths.absolute("//p", cwd: "/w"), "/p")
        XCTAssertEqual(Paths.absolute("a/b", cwd: "/w"), "/w/a/b")
        XCTAssertEqual(Paths.absolute("../a", cwd: "/w/x"), "/w/a")
    }

    func testOnlyPathsAlreadyInTheirAbsoluteFormAreTakenAsTheyAre() {
        XCTAssertTrue(Paths.isCleanAbsolute("/p/App/A.swift"))
        XCTAssertTrue(Paths.isCleanAbsolute("/p/a.b/c..d"))
        for path in ["/", "", "p/a", "/p/./a", "/p/../a", "/p//a", "/p/a/", "/p/.hidden", "/p/a/.", "/p/a/.."] {
            XCTAssertFalse(Paths.isCleanAbsolute(path), path)
        }
    }
}
