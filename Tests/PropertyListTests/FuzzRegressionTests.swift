import Foundation
import TestSupport
import XCTest
@_spi(Testing) import PropertyList

/// Inputs kept by `Scripts/fuzz.sh` when a harness crashed, leaked or timed out, in
/// `Tests/Fuzz/Regressions/xml-plist/`, `.../binary-plist/` and `.../openstep-plist/` (outside
/// this target's folder, so the package needs no resource rules). Each must parse or throw a `PlistError`, quickly; a
/// crash fails the whole test run, which is the point. (A leak is only seen under the fuzzer's
/// LeakSanitizer: `Scripts/fuzz.sh xml-plist 10` replays every kept input first.)
final class FuzzRegressionTests: XCTestCase {
    static func regressions(_ harness: String) throws -> [(name: String, bytes: [UInt8])] {
        try FuzzInputs.files("Regressions/\(harness)")
    }

    func replay(_ harness: String, _ parse: ([UInt8]) throws(PlistError) -> PlistDocument) throws {
        for (name, bytes) in try Self.regressions(harness) {
            do {
                _ = try parse(bytes)
            } catch {
                XCTAssertFalse(error.reason.isEmpty, "\(name): an error without a reason")
            }
        }
    }

    func testXMLPlistRegressionsParseOrThrow() throws {
        try replay("xml-plist") { bytes throws(PlistError) in try XMLPlistReader.parse(bytes) }
    }

    /// The XML harness also checks that both input modes agree (InputModeAgreementTests).
    func testXMLPlistRegressionsReadTheSameInBothInputModes() throws {
        for (name, bytes) in try Self.regressions("xml-plist") {
            XCTAssertNil(XMLPlistReader.inputModeDisagreement(bytes), name)
        }
    }

    func testBinaryPlistRegressionsParseOrThrow() throws {
        try replay("binary-plist") { bytes throws(PlistError) in try BinaryPlistReader.parse(bytes) }
    }

    /// The OpenStep reader (`project.pbxproj`); XcodeProjectTests replays the same inputs through
    /// the project model.
    func testOpenStepPlistRegressionsParseOrThrow() throws {
        try replay("openstep-plist") { bytes throws(PlistError) in try OpenStepPlistReader.parse(bytes) }
    }

    /// Seen in the fuzzer's log: libxml2 printed "encoding error : input conversion failed" to
    /// stderr for bad UTF-16, whatever the parser options. The reader must stay silent.
    func testBadUTF16IsRejectedWithoutWritingToStandardError() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for u in "<plist><string>".utf16 { bytes += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        bytes += [0x00, 0xD8, 0x41, 0x00]   // a lone high surrogate
        for u in "</string></plist>".utf16 { bytes += [UInt8(u & 0xFF), UInt8(u >> 8)] }

        let captured = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: captured.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: captured) }
        let handle = try FileHandle(forWritingTo: captured)
        let saved = dup(2)
        dup2(handle.fileDescriptor, 2)
        let result = Result { () throws(PlistError) -> PlistDocument in try XMLPlistReader.parse(bytes) }
        dup2(saved, 2)
        close(saved)
        try handle.close()

        guard case .failure = result else { return XCTFail("bad UTF-16 was accepted") }
        XCTAssertEqual(try String(contentsOf: captured, encoding: .utf8), "")
    }

    /// The leak found by the first fuzzing run: libxml2 keeps entity declarations of an internal
    /// subset in a document of its own, which the reader must free. Rejected, as before.
    func testInternalSubsetWithEntityDeclarationIsRejected() throws {
        let input = Array("<?xml version=\"1.0\"?>\n<!DOCTYPE plis\u{F4} [ <!ENTITY e \"x\"\n]>< >plist><strin-->e;</string></plist>\n".utf8)
        XCTAssertThrowsError(try XMLPlistReader.parse(input))
    }
}
