import XCTest
import EntitlintCore
@testable import Reporters

/// JUnit, checkstyle and the XML writer under them.
final class XMLReporterTests: XCTestCase {
    func testJUnitGolden() {
        let f = Finding(rule: "wildcard-access-group", severity: .error, message: "group \"a*\" & more", path: "App/App.entitlements", line: 7, column: 3)
        let p = Finding(rule: "parse-error", severity: .error, message: "not CMS", path: "P.mobileprovision")
        let report = Report(findings: [f, p], files: 3, paths: ["App/App.entitlements", "Clean.entitlements", "P.mobileprovision"])
        XCTAssertEqual(JUnitReporter().render(report), """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="entitlint" tests="3" failures="1" errors="1">
              <testsuite name="App/App.entitlements" tests="1" failures="1" errors="0">
                <testcase classname="App/App.entitlements" name="wildcard-access-group at 7:3">
                  <failure type="error" message="group &quot;a*&quot; &amp; more">App/App.entitlements:7:3: error: group "a*" &amp; more [wildcard-access-group]</failure>
                </testcase>
              </testsuite>
              <testsuite name="Clean.entitlements" tests="1" failures="0" errors="0">
                <testcase classname="Clean.entitlements" name="no problems found"/>
              </testsuite>
              <testsuite name="P.mobileprovision" tests="1" failures="0" errors="1">
                <testcase classname="P.mobileprovision" name="parse-error">
                  <error type="error" message="not CMS">P.mobileprovision: error: not CMS [parse-error]</error>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }

    func testJUnitListsCleanFilesAndFilesOnlyFindingsName() {
        let out = JUnitReporter().render(Report(findings: [ReportFixtures.comment], files: 2, paths: ["A.entitlements"]))
        XCTAssertTrue(out.contains("<testsuite name=\"A.entitlements\" tests=\"1\" failures=\"0\" errors=\"0\">"))
        XCTAssertTrue(out.contains("<testcase classname=\"A.entitlements\" name=\"no problems found\"/>"))
        // A note fails no run, so it is a passing case whose text is its output.
        XCTAssertTrue(out.contains("<testsuite name=\"Sub:dir,x/A.entitlements\" tests=\"1\" failures=\"0\" errors=\"0\">"), out)
        XCTAssertTrue(out.contains("<system-out>Sub:dir,x/A.entitlements:"), out)
        XCTAssertFalse(out.contains("<failure"), out)
    }

    func testCheckstyleGoldenHasNoLineZero() {
        let f = Finding(rule: "duplicate-key", severity: .warning, message: "key 'a'", path: "A.entitlements", line: 4, column: 2)
        let n = Finding(rule: "comment-in-plist", severity: .note, message: "<!-- x -->", path: "A.entitlements", line: 9)
        let p = Finding(rule: "parse-error", severity: .error, message: "not CMS", path: "P.mobileprovision")
        let report = Report(findings: [f, n, p], files: 3, paths: ["A.entitlements", "Clean.entitlements", "P.mobileprovision"])
        let out = CheckstyleReporter().render(report)
        XCTAssertEqual(out, """
            <?xml version="1.0" encoding="UTF-8"?>
            <checkstyle version="4.3">
              <file name="A.entitlements">
                <error line="4" column="2" severity="warning" message="key &apos;a&apos;" source="entitlint.duplicate-key"/>
                <error line="9" severity="info" message="&lt;!-- x --&gt;" source="entitlint.comment-in-plist"/>
              </file>
              <file name="Clean.entitlements"/>
              <file name="P.mobileprovision">
                <error severity="error" message="not CMS" source="entitlint.parse-error"/>
              </file>
            </checkstyle>

            """)
        XCTAssertFalse(out.contains("=\"0\""))
    }

    func testXMLEscaping() {
        XCTAssertEqual(XMLWriter.escapeAttribute("a\"b'c<d>e&f\ng\rh\ti"), "a&quot;b&apos;c&lt;d&gt;e&amp;f&#10;g&#13;h&#9;i")
        XCTAssertEqual(XMLWriter.escapeText("a<b>c&d]]>e\r"), "a&lt;b&gt;c&amp;d]]&gt;e&#13;")
        XCTAssertEqual(XMLWriter.escapeText("x\u{1}y\u{FFFE}z\u{0}"), "x\u{FFFD}y\u{FFFD}z\u{FFFD}", "not XML characters")
        XCTAssertEqual(XMLWriter.escapeAttribute("é😀\u{7F}"), "é😀\u{7F}", "other characters are written as they are")
        let hostile = JUnitReporter().render(ReportFixtures.hostile)
        XCTAssertFalse(hostile.unicodeScalars.contains { !XMLWriter.isXMLChar($0) }, "the control character is gone")
        XCTAssertTrue(hostile.contains("is given again on line 9;&#13;&#10;second line\u{FFFD}with"))
    }
}
