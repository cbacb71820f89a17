import Foundation
import XCTest
import EntitlintCore
import EntitlintRules
@testable import Reporters

/// Reports built to break formats: spaces, `%`, `:` and `,` in paths; quotes, markup, newlines
/// and a control character in messages; a finding without a line; a parse error; a clean file.
enum ReportFixtures {
    static let wildcard = Finding(
        rule: "wildcard-access-group", severity: .error,
        message: "keychain access group \"$(AppIdentifierPrefix)*\" contains a wildcard: 100% <bad> & 'quoted', *really* | piped",
        path: "My App/App Store.entitlements", line: 7, column: 3, unit: "App", keyPath: "keychain-access-groups[0]")
    static let duplicateKey = Finding(
        rule: "duplicate-key", severity: .warning,
        message: "key \"a\" is given again on line 9;\r\nsecond line\u{1}with a control character",
        path: "My App/App Store.entitlements", line: 4, column: 2, unit: "App", keyPath: "a")
    static let comment = Finding(
        rule: "comment-in-plist", severity: .note, message: "XML comment \"<!-- x -->\" in an entitlements file",
        path: "Sub:dir,x/A.entitlements", line: 3, column: 1, unit: "A")
    static let brokenProfile = Finding(
        rule: "parse-error", severity: .error, message: "cannot parse profile: not a CMS SignedData envelope",
        path: "profiles/Broken.mobileprovision")

    static let paths = ["Clean.entitlements", "My App/App Store.entitlements", "Sub:dir,x/A.entitlements", "profiles/Broken.mobileprovision"]

    static var hostile: Report {
        Report(findings: [wildcard, duplicateKey, comment, brokenProfile].sorted(), files: paths.count,
               rules: RuleRegistry.descriptions, paths: paths)
    }

    static var clean: Report {
        Report(findings: [], files: 1, rules: RuleRegistry.descriptions, paths: ["Clean.entitlements"])
    }

    static func moved(_ f: Finding, line: Int, column: Int = 1) -> Finding {
        var f = f
        f.line = line
        f.column = column
        return f
    }
}
