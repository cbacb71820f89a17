import XCTest
@testable import EntitlintCore
import EntitlintRules
import PropertyList

/// Baseline entries keyed on the offending value's hash: a bad value replaced by another bad
/// value is a new finding; entries written before the hash existed still match.
final class BaselineValueTests: XCTestCase {
    let linter = Linter(rules: RuleRegistry.all)
    let path = "App.entitlements"

    func file(_ groups: [String]) -> [UInt8] {
        Array(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n"
            + groups.map { "\t\t<string>\($0)</string>\n" }.joined() + "\t</array>\n</dict>\n</plist>\n").utf8)
    }

    /// The findings of one file and a keyer that sees its document.
    func run(_ bytes: [UInt8]) throws -> (findings: [Finding], keyer: Baseline.Keyer) {
        guard case .entitlements(let doc) = DocumentReader.parse(bytes: bytes, path: path, limits: .default) else { throw XCTSkip("unreachable: the file parses") }
        let unit = linter.unit(document: doc, path: path)
        let findings = linter.lint(entitlements: bytes, path: path)
        return (findings, Baseline.Keyer(baselinePath: "b.json", profiles: [], units: [unit], cwd: "/repo"))
    }

    func testAReplacedBadValueIsANewFinding() throws {
        let before = try run(file(["*"]))
        XCTAssertEqual(before.findings.map(\.rule), ["wildcard-access-group"])
        let baseline = Baseline.recording(before.findings, keyer: before.keyer, checked: [path], previous: nil)
        XCTAssertEqual(baseline.findings.count, 1)
        XCTAssertEqual(baseline.findings[0].valueHash?.count, 16, "16 hex digits")

        // The same value, lines added above it: still known.
        let moved = try run(Array(String(decoding: file(["*"]), as: UTF8.self).replacingOccurrences(of: "<dict>\n", with: "<dict>\n\t<key>get-task-allow</key>\n\t<true/>\n").utf8))
        XCTAssertEqual(moved.findings.first?.line, before.findings[0].line + 2)
        XCTAssertEqual(baseline.apply(to: moved.findings, keyer: moved.keyer, checked: [path]).findings, [])

        // Another bad value at the same key path: reported, and the old entry listed for pruning.
        let replaced = try run(file(["com.example.*"]))
        XCTAssertEqual(replaced.findings.map(\.keyPath), before.findings.map(\.keyPath))
        let applied = baseline.apply(to: replaced.findings, keyer: replaced.keyer, checked: [path])
        XCTAssertEqual(applied.findings, replaced.findings)
        XCTAssertEqual(applied.unmatched.count, 1)
    }

    func testEntriesWithoutTheHashMatchOnTheRestOfTheKey() throws {
        let now = try run(file(["com.example.*"]))
        let old = Baseline(findings: [.init(rule: "wildcard-access-group", path: path, keyPath: "keychain-access-groups[0]")])
        // An old baseline (no value-hash field) still reads and hides the finding, whatever the value.
        let decoded = try JSONDecoder().decode(Baseline.self, from: Data(old.encoded()))
        XCTAssertNil(decoded.findings[0].valueHash)
        let applied = decoded.apply(to: now.findings, keyer: now.keyer, checked: [path])
        XCTAssertEqual(applied.findings, [])
        XCTAssertEqual(applied.unmatched, [])
        // Written again, the entry gains the hash.
        let rewritten = Baseline.recording(now.findings, keyer: now.keyer, checked: [path], previous: decoded)
        XCTAssertNotNil(rewritten.findings[0].valueHash)
        XCTAssertTrue(String(decoding: rewritten.encoded(), as: UTF8.self).contains("\"value-hash\" : "))
    }

    func testTheHashIsOfTheValueAloneAndStable() throws {
        // Defined on bytes (FNV-1a over a canonical form): the same in every run and on every
        // platform. These digits are the contract of baselines already written: changing the
        // canonical form would bring every recorded finding back.
        let element = PlistWalk.Element.value(PlistNode(.string("*")))
        var work = 0
        XCTAssertEqual(StableHash.of(element, work: &work), StableHash.of(PlistWalk.Element.value(PlistNode(.string("*"), at: SourceLocation(line: 9, column: 9))), work: &work),
                       "the position does not count")
        XCTAssertEqual(StableHash.of(element, work: &work), "6ac0c517d4f843d9")
        // Different types or shapes of the same text differ.
        let values: [PlistValue] = [.string("1"), .integer(.signed(1)), .array([PlistNode(.string("1"))]), .array([PlistNode(.string("")), PlistNode(.string("1"))]),
                                    .array([PlistNode(.string("1")), PlistNode(.string(""))])]
        let hashes = values.map { StableHash.of(.value(PlistNode($0)), work: &work) }
        XCTAssertEqual(Set(hashes).count, values.count, "\(hashes)")
    }

    func testHashingAHugeValueIsBounded() throws {
        // keychain-access-groups given as a dict of 100,000 entries: non-string-access-group points
        // at that one value, whose hash reads at most 4,096 values of it.
        let entries = (0..<100_000).map { "<key>k\($0)</key><string>x</string>" }.joined()
        let bytes = Array("<plist version=\"1.0\"><dict>\n<key>keychain-access-groups</key>\n<dict>\(entries)</dict>\n</dict></plist>\n".utf8)
        let r = try run(bytes)
        XCTAssertEqual(r.findings.map(\.rule), ["non-string-access-group"])
        var work = 0
        let keys = r.keyer.keys(r.findings, work: &work)
        XCTAssertNotNil(keys[0].valueHash)
        XCTAssertEqual(work, StableHash.maxValues, "4,096 of the 200,001 values")
        // A change past the part hashed is not seen; one inside it is.
        let changedLate = try run(Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "<key>k99999</key>", with: "<key>z</key>").utf8))
        let changedEarly = try run(Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "<key>k1</key>", with: "<key>z</key>").utf8))
        XCTAssertEqual(changedLate.keyer.keys(changedLate.findings)[0].valueHash, keys[0].valueHash)
        XCTAssertNotEqual(changedEarly.keyer.keys(changedEarly.findings)[0].valueHash, keys[0].valueHash)
    }
}
