import Foundation
import TestSupport
import XCTest
@testable @_spi(Testing) import PropertyList

/// The XML reader hands most documents to libxml2 in place (a static buffer, no reading callback,
/// `XMLPlistReader.InputMode.inPlace`) and the rest through libxml2's own copying memory parser
/// (`.copied`). The two must give the same document, with the same lines and columns, or the same
/// error: checked here on every real XML file of the corpus, on every prefix and on seeded
/// mutations of some of them, and on the inputs that need the fallback to `.copied`. The XML fuzz
/// harness checks the same on every input it runs (`Tests/Fuzz/Sources/FuzzXMLPlist`).
final class InputModeAgreementTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus/entitlements")

    func xmlCorpusFiles() throws -> [(String, [UInt8])] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: Self.corpus.path) else {
            throw XCTSkip("../shared/corpus is not beside the repository")
        }
        return names.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: Self.corpus.appendingPathComponent(name).path) else { return nil }
            let bytes = [UInt8](data)
            return bytes.starts(with: Array("bplist".utf8)) ? nil : (name, bytes)
        }
    }

    /// Both ways agree (`XMLPlistReader.inputModeDisagreement`, which the fuzz harness calls
    /// too); returns whether the in-place way was taken.
    @discardableResult
    func assertAgree(_ bytes: [UInt8], _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        if let disagreement = XMLPlistReader.inputModeDisagreement(bytes) {
            XCTFail("\(what()): \(disagreement)", file: file, line: line)
        }
        return XMLPlistReader.InputMode.inPlaceFits(bytes)
    }

    /// Found by the xml-plist fuzz harness: a `<real>nan</real>` made the two ways "disagree",
    /// as a NaN is not `==` to itself, though both read the same document.
    func testANaNReadsTheSameBothWays() {
        let bytes = Array("<?xml version=\"1.0\"?>\r\n<plist version=\"1.0\"><array><real>nan</real><data>!!QU=JD</data></array></plist>".utf8)
        XCTAssertTrue(assertAgree(bytes, "nan"), "small enough to be read in place")
    }

    func testEveryCorpusFileReadsTheSameBothWays() throws {
        let files = try xmlCorpusFiles()
        XCTAssertGreaterThan(files.count, 90)
        var inPlace = 0
        var commentColumnsFound = 0
        for (name, bytes) in files where assertAgree(bytes, name) {
            inPlace += 1
            guard let copied = try? XMLPlistReader.parse(bytes, limits: .default, forcing: .copied),
                  let direct = try? XMLPlistReader.parse(bytes) else { continue }
            commentColumnsFound += zip(copied.comments, direct.comments).filter { $0.location.column == 0 && $1.location.column > 0 }.count
        }
        // Three cordova-ios files open with a license comment of 20 lines.
        XCTAssertEqual(commentColumnsFound, 3)
        // The corpus is UTF-8 without a byte-order mark but for a handful: nearly all of it must
        // have been read in place, or this test checks nothing.
        XCTAssertGreaterThan(inPlace, files.count * 9 / 10, "only \(inPlace) of \(files.count) read in place")
    }

    func testEveryPrefixOfSomeCorpusFilesReadsTheSameBothWays() throws {
        let files = try xmlCorpusFiles()
        // Files past 1,000 bytes: libxml2 shrinks its buffer on those, the step a static buffer
        // got wrong before `progressive` switched it off.
        for (name, bytes) in files.filter({ $0.1.count > 1_000 }).prefix(3) {
            for length in stride(from: 1, through: bytes.count, by: 1) {
                assertAgree(Array(bytes[..<length]), "\(name) cut at \(length)")
            }
        }
    }

    func testSeededMutationsReadTheSameBothWays() throws {
        let files = try xmlCorpusFiles()
        var rng = SplitMix64(seed: 0x5EED)
        let alphabet = Array("<>/&;#x\"'=?!-[]]> \n\tplistdictkeystringarraytruefalseintegerrealdatadate0123456789ABCDEF\u{0}\u{FF}".utf8)
        for round in 0..<10_000 {
            let (name, original) = files[Int(rng.next() % UInt64(files.count))]
            var bytes = original
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: at)
                }
                if bytes.isEmpty { bytes = original }
            }
            assertAgree(bytes, "round \(round) from \(name)")
        }
    }

    func testDocumentsThatNeedADecoderReadTheSameAsCopied() throws {
        let body = "<plist version=\"1.0\"><dict><key>caf\u{E9}</key><string>\u{E9}t\u{E9}</string></dict></plist>"
        // Declared encodings the pre-check sees: read `.copied` straight away.
        for declaration in ["ISO-8859-1", "iso-8859-1", "latin1", "US-ASCII", "UTF-16", "windows-1252"] {
            let text = "<?xml version=\"1.0\" encoding = '\(declaration)'?>\n" + body
            let bytes = Array(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
            XCTAssertTrue(XMLPlistReader.declaresOtherEncoding(bytes), declaration)
            XCTAssertFalse(assertAgree(bytes, declaration), "\(declaration) must not be read in place")
        }
        // UTF-8, however spelled, is read in place.
        for declaration in ["UTF-8", "utf-8", "UTF8", "utf8"] {
            let bytes = Array(("<?xml version=\"1.0\" encoding=\"\(declaration)\"?>\n" + body).utf8)
            XCTAssertFalse(XMLPlistReader.declaresOtherEncoding(bytes), declaration)
            XCTAssertTrue(assertAgree(bytes, declaration), "\(declaration) must be read in place")
            XCTAssertEqual(try XMLPlistReader.parse(bytes).root.dict?["caf\u{E9}"]?.string, "\u{E9}t\u{E9}")
        }
        // A document libxml2 decodes that the pre-check cannot see (EBCDIC, detected by libxml2
        // from its first four bytes): the in-place attempt is thrown away and the document read
        // again `.copied`, so both ways still agree.
        let ebcdic: [UInt8] = [0x4C, 0x6F, 0xA7, 0x94, 0x93, 0x40] + Array(repeating: 0x40, count: 40)
        XCTAssertFalse(XMLPlistReader.declaresOtherEncoding(ebcdic))
        XCTAssertTrue(assertAgree(ebcdic, "EBCDIC"))
        // And one past libxml2's 10,000,000-byte look-up limit is read `.copied`.
        let big = Array(("<plist><string>" + String(repeating: "a", count: 10_000_001) + "</string></plist>").utf8)
        XCTAssertNil(XMLPlistReader.parseBothWays(big, limits: PlistLimits(maxBytes: 20_000_000)).inPlace)
        XCTAssertEqual(try XMLPlistReader.parse(big, limits: PlistLimits(maxBytes: 20_000_000)).root.string?.count, 10_000_001)
    }

    /// Contexts read in place go back to `ContextPool` for the next document, unless their name
    /// dictionary has grown past `maxDictionaryNames` (it is not reset between documents).
    func testContextsAreReusedUnlessTheirDictionaryGrew() throws {
        let small = Array("<plist><dict><key>a</key><true/></dict></plist>".utf8)
        _ = try XMLPlistReader.parse(small)
        let before = ContextPool.shared.count
        XCTAssertGreaterThan(before, 0, "a context read in place must be kept")
        _ = try XMLPlistReader.parse(small)
        XCTAssertEqual(ContextPool.shared.count, before, "the same context must be taken and given back")

        let names = (0..<(ContextPool.maxDictionaryNames + 500)).map { "a\($0)=\"\"" }.joined(separator: " ")
        let manyNames = Array("<plist \(names)><true/></plist>".utf8)
        XCTAssertNil(XMLPlistReader.inputModeDisagreement(manyNames))
        _ = try XMLPlistReader.parse(small)
        let count = ContextPool.shared.count
        XCTAssertGreaterThan(count, 0)
        _ = try XMLPlistReader.parse(manyNames)
        XCTAssertEqual(ContextPool.shared.count, count - 1, "a context with a grown dictionary must be freed, not kept")
        // And the next document still reads the same as with a new context.
        XCTAssertNil(XMLPlistReader.inputModeDisagreement(small))
    }

    /// A document stopped inside an element that declares a namespace leaves libxml2's namespace
    /// stack behind, which xmlCtxtReset does not clear: the next document read with that context
    /// must not see the prefix.
    func testANamespaceLeftBehindDoesNotReachTheNextDocument() {
        let stopped = Array("<plist xmlns:p=\"urn:x\"><dict><key>k</key><p:string>".utf8)
        let next = Array("<plist><p:true/></plist>".utf8)
        for _ in 0..<3 {
            XCTAssertNil(XMLPlistReader.inputModeDisagreement(stopped))
            XCTAssertNil(XMLPlistReader.inputModeDisagreement(next))
        }
    }

    func testByteOrderMarksAreReadCopied() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        XCTAssertNil(XMLPlistReader.parseBothWays(bom + Array("<plist><true/></plist>".utf8)).inPlace)
    }
}
