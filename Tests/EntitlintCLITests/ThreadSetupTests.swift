import Foundation
import XCTest
import PropertyList

/// libxml2 must be set up (`xmlInitParser`) before any thread parses: the tool does it in the
/// main thread before it reads its arguments, and the XML reader does it on every entry.
final class ThreadSetupTests: XCTestCase {
    func source(_ path: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    func testTheToolSetsLibxml2UpInTheMainThreadBeforeAnyCommandRuns() throws {
        let main = try source("Sources/entitlint/main.swift")
        let setup = try XCTUnwrap(main.range(of: "\nXMLPlistReader.prepareForThreads()\n"), "main.swift sets libxml2 up at top level")
        for command in ["LintInvocation.fastPath(", "parseAsRoot("] {
            let run = try XCTUnwrap(main.range(of: command), command)
            XCTAssertLessThan(setup.lowerBound, run.lowerBound, "libxml2 is set up before \(command)")
        }
    }

    func testTheXMLReaderSetsLibxml2UpBeforeItCallsIt() throws {
        let reader = try source("Sources/PropertyList/XMLPlistReader.swift")
        let body = try XCTUnwrap(reader.range(of: "public static func parse("))
        let setup = try XCTUnwrap(reader.range(of: "prepareForThreads()", range: body.upperBound..<reader.endIndex))
        for firstCall in ["entitlint_silenceGenericErrors()", "parseOnce("] {
            let call = try XCTUnwrap(reader.range(of: firstCall, range: body.upperBound..<reader.endIndex), firstCall)
            XCTAssertLessThan(setup.lowerBound, call.lowerBound, "set up before \(firstCall)")
        }
    }

    /// Many threads parsing at once (UTF-8 read in place, UTF-16 through an encoding handler)
    /// give what one thread gives.
    func testConcurrentParsesAgreeWithSequentialOnes() throws {
        let utf8 = Array("<plist><dict><key>k</key><array><string>a</string></array></dict></plist>".utf8)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><dict><key>k</key><string>b</string></dict></plist>".utf16 {
            utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let inputs = (0..<64).map { $0 % 2 == 0 ? utf8 : utf16 }
        let expected = try inputs.map { try PropertyListReader.parse($0).root }
        final class Results: @unchecked Sendable {
            var roots = [PlistNode?](repeating: nil, count: 64)
            let lock = NSLock()
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: inputs.count) { i in
            let root = try? PropertyListReader.parse(inputs[i]).root
            results.lock.lock()
            results.roots[i] = root
            results.lock.unlock()
        }
        XCTAssertEqual(results.roots, expected.map { Optional($0) })
    }
}
