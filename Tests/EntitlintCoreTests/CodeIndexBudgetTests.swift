import XCTest
import EntitlintCore
import SourceCode

/// The run-wide budget for resolving code: units draw on one budget in the order they are asked
/// for; once it is spent every group of a later unit is unknown at that bound, and the index's
/// one notice names the first place cut and how many there are.
final class CodeIndexBudgetTests: XCTestCase {
    private func index(budget: Int) -> CodeIndex {
        let sites = (0..<50).map { "let g\($0) = \"ABCDE12345.x\($0)\"\nfunc f\($0)() { _ = [kSecAttrAccessGroup as String: g\($0)] }\n" }.joined()
        let files = ["/p/A.swift": Array(sites.utf8), "/p/B.swift": Array(sites.utf8)]
        return CodeIndex(read: { files[$0] }, display: { String($0.dropFirst(3)) }, budget: budget)
    }

    func testUnitsResolvedAfterTheBudgetIsSpentAreUnknownAndTheRunSaysSoOnce() {
        let roomy = index(budget: StringResolver.runBudget)
        XCTAssertEqual(roomy.code(for: UnitSources(files: ["/p/A.swift"])).groups.compactMap(\.resolved.value).count, 50)
        XCTAssertEqual(roomy.code(for: UnitSources(files: ["/p/B.swift"])).groups.compactMap(\.resolved.value).count, 50)
        XCTAssertEqual(roomy.notices, [])

        // Enough for the first unit and part of the second.
        let tight = index(budget: 450)
        let first = tight.code(for: UnitSources(files: ["/p/A.swift"]))
        XCTAssertEqual(first.groups.compactMap(\.resolved.value).count, 50)
        XCTAssertTrue(first.isComplete)
        let second = tight.code(for: UnitSources(files: ["/p/B.swift"]))
        guard let cut = second.groups.firstIndex(where: { $0.resolved.limit != nil }) else { return XCTFail("the budget was not met") }
        XCTAssertGreaterThan(cut, 0)
        XCTAssertEqual(second.groups[..<cut].compactMap(\.resolved.value).count, cut)
        XCTAssertEqual(second.groups[cut...].compactMap(\.resolved.value), [])
        XCTAssertEqual(Set(second.groups[cut...].map(\.resolved.limit)), [StringResolution.exhausted])
        XCTAssertFalse(second.isComplete, "a unit whose groups are unknown is not completely known")
        // Nothing is left: a later unit has no index built and every group is unknown.
        let third = tight.code(for: UnitSources(files: ["/p/A.swift", "/p/B.swift"]))
        XCTAssertEqual(third.groups.count, 100)
        XCTAssertEqual(Set(third.groups.map(\.resolved.limit)), [StringResolution.exhausted])
        XCTAssertEqual(tight.notices.count, 1)
        XCTAssertEqual(tight.notices.first?.path, "A.swift")
        XCTAssertEqual(tight.notices.first?.line, 2)
        XCTAssertEqual(tight.notices.first?.message,
                       "an access group passed in code is not checked (and at 99 other places in the code): \(StringResolution.exhausted), so it was left unresolved rather than guessed")
    }
}
