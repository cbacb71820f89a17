import XCTest
import EntitlintCore
@testable import Reporters

final class GitHubReporterTests: XCTestCase {
    func testWorkflowCommandsGolden() {
        let f = Finding(rule: "wildcard-access-group", severity: .error, message: "group \"a*\" contains a wildcard",
                        path: "App/App.entitlements", line: 7, column: 3)
        let w = Finding(rule: "duplicate-key", severity: .warning, message: "key given again", path: "App/App.entitlements", line: 9, column: 2)
        let n = Finding(rule: "comment-in-plist", severity: .note, message: "comment", path: "App/App.entitlements", line: 2)
        let p = Finding(rule: "parse-error", severity: .error, message: "not CMS", path: "P.mobileprovision")
        XCTAssertEqual(GitHubReporter().render(Report(findings: [f, w, n, p], files: 2)), """
            ::error file=App/App.entitlements,line=7,col=3,title=entitlint%3A wildcard-access-group::group "a*" contains a wildcard
            ::warning file=App/App.entitlements,line=9,col=2,title=entitlint%3A duplicate-key::key given again
            ::notice file=App/App.entitlements,line=2,title=entitlint%3A comment-in-plist::comment
            ::error file=P.mobileprovision,title=entitlint%3A parse-error::not CMS
            2 files checked: 2 errors, 1 warning, 1 note

            """)
    }

    func testEscapingAsTheToolkitDoes() {
        // actions/toolkit command.ts: escapeData: % CR LF; escapeProperty: also : and ,
        XCTAssertEqual(GitHubReporter.escapeData("100% done\r\nnext: a,b"), "100%25 done%0D%0Anext: a,b")
        XCTAssertEqual(GitHubReporter.escapeProperty("100% done\r\nnext: a,b"), "100%25 done%0D%0Anext%3A a%2Cb")
        XCTAssertEqual(GitHubReporter.escapeData("%0A"), "%250A", "an escape sequence in the text stays text")

        let out = GitHubReporter().render(Report(findings: [ReportFixtures.duplicateKey, ReportFixtures.comment], files: 2, showSummary: false))
        XCTAssertEqual(out, """
            ::warning file=My App/App Store.entitlements,line=4,col=2,title=entitlint%3A duplicate-key::key "a" is given again on line 9;%0D%0Asecond line\\u{1}with a control character
            ::notice file=Sub%3Adir%2Cx/A.entitlements,line=3,col=1,title=entitlint%3A comment-in-plist::XML comment "<!-- x -->" in an entitlements file

            """)
        XCTAssertEqual(out.split(separator: "\n").count, 2, "one line per finding, nothing else with --quiet")
        XCTAssertFalse(out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "other control characters are shown as escapes")
    }

    func testPathsRelativeToTheRepositoryRoot() {
        let f = Finding(rule: "r", severity: .error, message: "m", path: "App.entitlements", line: 1, column: 1)
        let report = Report(findings: [f], files: 1, showSummary: false,
                            sourceRoot: SourceRoot(root: "/repo", currentDirectory: "/repo/ios/App"))
        XCTAssertEqual(GitHubReporter().render(report), "::error file=ios/App/App.entitlements,line=1,col=1,title=entitlint%3A r::m\n")
    }

    func testStepSummaryTable() {
        let md = GitHubReporter.stepSummary(Report(findings: [ReportFixtures.wildcard, ReportFixtures.brokenProfile], files: 2))
        XCTAssertEqual(md, #"""
            ### Entitlint

            2 files checked: 2 errors, 0 warnings, 0 notes

            | Severity | File | Line | Rule | Message |
            |---|---|---:|---|---|
            | error | My App/App Store.entitlements | 7 | wildcard-access-group | keychain access group "\$(AppIdentifierPrefix)\*" contains a wildcard: 100% \<bad\> \& 'quoted', \*really\* \| piped |
            | error | profiles/Broken.mobileprovision |  | parse-error | cannot parse profile: not a CMS SignedData envelope |


            """#)
        XCTAssertEqual(GitHubReporter.stepSummary(ReportFixtures.clean), "### Entitlint\n\n1 file checked: no problems found\n\n")
        XCTAssertEqual(GitHubReporter.markdownEscape("a\r\nb_c`d[e]~f"), "a  b\\_c\\`d\\[e\\]\\~f")
    }

    func testStepSummaryIsBounded() {
        let many = (1...(GitHubReporter.summaryRowLimit + 3)).map {
            Finding(rule: "r", severity: .note, message: "m", path: "A.entitlements", line: $0, column: 1)
        }
        let md = GitHubReporter.stepSummary(Report(findings: many, files: 1))
        XCTAssertEqual(md.split(separator: "\n").filter { $0.hasPrefix("| note") }.count, GitHubReporter.summaryRowLimit)
        XCTAssertTrue(md.contains("3 more findings are in the log."))
    }
}
