import XCTest

/// The README's first command prints exactly what the README shows, and exits 1 as it says.
final class ReadmeExampleTests: XCTestCase {
    func testTheReadmesExampleOutputIsTheLintersOwn() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let command = "swift run entitlint lint Examples/cookbook-wildcard/App.entitlements"
        XCTAssertTrue(readme.contains(command), "the README's first command")
        let marker = "The first command reports the wildcard copied from a profile into the example app, and exits 1:\n\n```text\n"
        let start = try XCTUnwrap(readme.range(of: marker), "the README's example output block")
        let rest = readme[start.upperBound...]
        let end = try XCTUnwrap(rest.range(of: "```"))
        let shown = String(rest[..<end.lowerBound])
        let r = try CLI.run(["lint", "Examples/cookbook-wildcard/App.entitlements"], in: CLI.packageRoot)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, shown)
    }
}
