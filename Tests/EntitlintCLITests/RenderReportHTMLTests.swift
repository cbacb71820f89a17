import Foundation
import XCTest

/// `Scripts/render-report-html.sh`: the HTML report of Examples/AppSuite drawn by headless Chromium.
final class RenderReportHTMLTests: XCTestCase {
    func testTheHTMLReportRendersToAPNG() throws {
        let browsers = ["chromium", "chromium-browser", "google-chrome"]
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard browsers.contains(where: { b in path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(b)") } }) else {
            throw XCTSkip("chromium is not installed (apt-get install -y chromium; CI installs it): the HTML report is not rendered")
        }
        let dir = try CLI.temporaryDirectory(self)
        let png = dir.appendingPathComponent("report.png")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["bash", CLI.packageRoot.appendingPathComponent("Scripts/render-report-html.sh").path,
                       CLI.packageRoot.appendingPathComponent("Examples/AppSuite").path, png.path, "1200x1500"]
        var env = ProcessInfo.processInfo.environment
        env["ENTITLINT"] = CLI.executable.path
        env["HOME"] = dir.path   // Chromium's profile goes to the test's folder
        p.environment = env
        let r = try CLI.capture(p)
        XCTAssertEqual(r.status, 0, r.stderr)
        let bytes = [UInt8](try Data(contentsOf: png))
        XCTAssertGreaterThan(bytes.count, 10_000, "a page of text and dots is more than a blank image")
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG signature")
        // IHDR follows the signature: width and height, big-endian, at bytes 16..<24.
        XCTAssertEqual(Array(bytes[12..<16]), Array("IHDR".utf8))
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(width, 1200, "the window size asked for")
        XCTAssertEqual(height, 1500, "the window size asked for")
    }
}
