import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace
import PropertyList

/// The notices for loose files using unknown settings are made one unit per task: on many
/// units and any number of threads, the same notices in unit order as one thread makes.
final class UnresolvedNoticesTests: XCTestCase {
    func testManyUnitsGiveTheSameNoticesOnAnyNumberOfThreads() throws {
        var units: [SigningUnit] = []
        for i in 0..<40 {
            // Every third file uses nothing unknown; the others 1 to 8 settings, some set.
            let strings = (0..<(i % 3 == 0 ? 0 : 1 + i % 8)).map { "<string>$(AppIdentifierPrefix)$(SETTING_\(i)_\($0)).x</string>" }
            let doc = try PropertyListReader.parse(Array(
                "<plist><dict><key>keychain-access-groups</key><array>\(strings.joined())<string>plain</string></array></dict></plist>".utf8))
            var unit = SigningUnit(name: "U\(i)", entitlementsPath: "U\(i).entitlements", document: doc)
            if i % 5 == 0 { unit.isUnused = true }
            units.append(unit)
        }
        let one = Linter.unresolvedNotices(units, jobs: 1)
        XCTAssertEqual(one.count, (0..<40).filter { $0 % 3 != 0 && $0 % 5 != 0 }.count)
        XCTAssertEqual(one.map(\.path), (0..<40).filter { $0 % 3 != 0 && $0 % 5 != 0 }.map { "U\($0).entitlements" })
        XCTAssertTrue(one[0].message.contains("$(SETTING_1_0)"), one[0].message)
        XCTAssertTrue(one.last!.message.contains("and 1 more"), one.last!.message)
        for jobs in [0, 2, 3, 8] {
            XCTAssertEqual(Linter.unresolvedNotices(units, jobs: jobs), one, "jobs \(jobs)")
        }
    }

    /// The references are listed in document order, through nested dicts and arrays, each once,
    /// at its first use.
    func testReferencesComeInDocumentOrderThroughNesting() throws {
        let doc = try PropertyListReader.parse(Array("""
            <plist><dict>
            <key>a</key><array><string>$(FIRST)</string><dict><key>b</key><string>$(SECOND).$(FIRST)</string></dict></array>
            <key>c</key><dict/>
            <key>d</key><array/>
            <key>e</key><dict><key>f</key><array><array><string>${THIRD}</string></array></array></dict>
            <key>g</key><string>$(SECOND)</string>
            </dict></plist>
            """.utf8))
        let unit = SigningUnit(name: "U", entitlementsPath: "U.entitlements", document: doc)
        let refs = unit.unresolvedReferences()
        XCTAssertEqual(refs.map(\.text), ["$(FIRST)", "$(SECOND)", "${THIRD}"])
        XCTAssertEqual(refs.map(\.location.line), [2, 2, 5])
    }
}
