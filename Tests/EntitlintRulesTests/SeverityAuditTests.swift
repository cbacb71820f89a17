import EntitlintCore
import EntitlintRules
import Foundation
import XCTest

/// `Rules/reference/severity-audit.md` lists every rule whose default severity is `error` with the
/// facts it declares (`RuleDescription.facts`), as the registry has them: a rule that becomes an
/// error, or changes what it declares, fails here until the page says so. The page also lists the
/// error rules that read the unit's facts but declare none the engine caps when assumed, each with
/// the reason it declares.
final class SeverityAuditTests: XCTestCase {
    static let page = DocumentationTests.root.appendingPathComponent("Rules/reference/severity-audit.md")

    static func list(_ kinds: [FactKind]) -> String { kinds.isEmpty ? "—" : kinds.map { "`\($0.rawValue)`" }.joined(separator: ", ") }

    static var errorRules: [RuleDescription] { RuleRegistry.descriptions.filter { $0.severity == .error }.sorted { $0.id < $1.id } }

    /// The table of error rules, as the page must hold it.
    static func table() -> String {
        var s = "| rule | reads only the file | needs (silent while unknown) | certain with (capped while assumed) | cap when assumed |\n"
        s += "|---|---|---|---|---|\n"
        for d in errorRules {
            let facts = d.facts ?? .nothing
            let cap = facts.certainWith.isEmpty ? "—" : facts.whenAssumed.rawValue
            s += "| [`\(d.id)`](../\(d.id).md) | \(d.readsOnlyTheFile ? "yes" : "no") | \(list(facts.needs)) | \(list(facts.certainWith)) | \(cap) |\n"
        }
        return s
    }

    /// The error rules that read the unit's facts (`readsOnlyTheFile` false) yet declare no fact
    /// the engine caps while assumed.
    static var uncappedRules: [RuleDescription] {
        errorRules.filter { !$0.readsOnlyTheFile && ($0.facts?.certainWith ?? []).isEmpty && $0.category != .tool }
    }

    /// Those rules, each with why none of its findings rests on an assumed fact (`FactNeeds.uncapped`).
    static func uncapped() -> String {
        uncappedRules.map { "- [`\($0.id)`](../\($0.id).md): \($0.facts?.uncapped ?? "no reason given")\n" }.joined()
    }

    func testThePageListsEveryErrorRuleWithTheFactsItDeclares() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let table = Self.table()
        XCTAssertTrue(text.contains(table), "Rules/reference/severity-audit.md should hold this table:\n\(table)")
        let uncapped = Self.uncapped()
        XCTAssertTrue(text.contains("<!-- uncapped -->\n" + uncapped + "<!-- /uncapped -->"),
                      "Rules/reference/severity-audit.md should list these between its uncapped markers:\n\(uncapped)")
    }

    /// An error rule that reads the unit's facts either declares the facts its findings are
    /// capped on or says why none of them rests on an assumed fact: none is left unexamined.
    func testEveryErrorRuleThatCapsNothingSaysWhy() {
        XCTAssertFalse(Self.uncappedRules.isEmpty, "the list the page checks is not empty")
        for d in Self.uncappedRules {
            let why = d.facts?.uncapped ?? ""
            XCTAssertFalse(why.allSatisfy { $0 == " " }, "\(d.id) caps no finding and gives no reason (FactNeeds.uncapped)")
            XCTAssertTrue(why.hasSuffix("."), "\(d.id): the reason is a sentence")
        }
    }

    func testAnErrorRuleThatDeclaresAnAssumableFactIsCappedBelowAnError() {
        // A cap of `error` would leave a finding on an assumed fact an error.
        for d in Self.errorRules where !(d.facts?.certainWith ?? []).isEmpty {
            XCTAssertLessThan(d.facts!.whenAssumed, Severity.error, d.id)
        }
    }
}
