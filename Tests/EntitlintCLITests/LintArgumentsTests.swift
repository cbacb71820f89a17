import ArgumentParser
import Foundation
import XCTest
@testable import entitlint

/// The hand-read `lint` command line (the fast path) against swift-argument-parser's, which
/// declares it: same options, same arity, same run.
final class LintArgumentsTests: XCTestCase {
    /// `lint`'s options as ArgumentParser describes them (`--experimental-dump-help`): long
    /// name and whether it takes a value. Help and version are ArgumentParser's own.
    func declaredOptions() throws -> [String: Bool] {
        var message = ""
        do {
            _ = try Entitlint.parseAsRoot(["lint", "--experimental-dump-help"])
            XCTFail("ArgumentParser should answer a dump request with an exit")
        } catch {
            message = Entitlint.fullMessage(for: error)
        }
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any], message)
        let command = try XCTUnwrap(root["command"] as? [String: Any])
        let arguments = try XCTUnwrap(command["arguments"] as? [[String: Any]])
        var options: [String: Bool] = [:]
        for argument in arguments {
            let kind = argument["kind"] as? String
            guard kind == "option" || kind == "flag" else { continue }
            let names = (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }
            for name in names.compactMap({ $0["name"] as? String }) where name != "help" && name != "version" {
                options[name] = kind == "option"
            }
        }
        return options
    }

    func testTheFastPathTakesExactlyTheDeclaredOptions() throws {
        let declared = try declaredOptions()
        XCTAssertGreaterThanOrEqual(declared.count, 25, "\(declared.keys.sorted())")
        let table = LintInvocation.options.mapValues { option -> Bool in
            if case .value = option { return true }
            return false
        }
        XCTAssertEqual(table, declared)
    }

    /// A value each option accepts, so every option is tried on both paths.
    static let sampleValues: [String: String] = [
        "format": "json", "report": "sarif:out.sarif", "select": "wildcard-access-group,duplicate-access-group",
        "ignore": "comment-in-plist", "stdin-filename": "App.entitlements", "fail-on": "warning", "color": "never",
        "profile": "p.mobileprovision", "profiles": "Profiles", "bundle-id": "com.example.App", "team-id": "ABCDE12345",
        "config": "c.yml", "lock": "l.lock", "jobs": "3", "baseline": "b.json", "write-baseline": "w.json",
        "changed-since": "HEAD~1", "against": "main", "config-from": "origin/main",
    ]

    func parsedByArgumentParser(_ arguments: [String]) throws -> LintInvocation {
        let command = try Entitlint.parseAsRoot(arguments)
        return try XCTUnwrap(command as? Lint, "\(arguments)").invocation
    }

    func testBothPathsBuildTheSameRunFromEveryOption() throws {
        let declared = try declaredOptions()
        for (name, takesValue) in declared.sorted(by: { $0.key < $1.key }) {
            let value = name.hasPrefix("max-") ? "4096" : Self.sampleValues[name]
            if takesValue { XCTAssertNotNil(value, "no sample value for --\(name): add one") }
            for arguments in [["lint", "--\(name)"] + (takesValue ? [value ?? ""] : []) + ["A.entitlements"],
                              ["A.entitlements", "--\(name)"] + (takesValue ? [value ?? ""] : []),
                              ["--\(name)"] + (takesValue ? [value ?? "", "--\(name)", value ?? ""] : [])] {
                let fast = try XCTUnwrap(LintInvocation.fastPath(arguments), "the fast path declined \(arguments)")
                XCTAssertEqual(fast, try parsedByArgumentParser(arguments), "\(arguments)")
                XCTAssertNotEqual(fast, LintInvocation(paths: fast.paths), "--\(name) changed nothing")
            }
        }
    }

    /// What the fast path does not read exactly goes to ArgumentParser: help, other commands,
    /// `--name=value`, unknown or short options, malformed values, a missing value.
    func testTheFastPathDeclinesWhatItDoesNotReadExactly() throws {
        for arguments in [["--help"], ["lint", "--help"], ["rules"], ["lint", "--format=json"], ["-q"], ["--nope"],
                          ["--jobs", "three"], ["--fail-on", "fatal"], ["--color", "sometimes"], ["--format"],
                          ["--format", "--strict"]] {
            XCTAssertNil(LintInvocation.fastPath(arguments), "\(arguments)")
        }
        // After `--`, and after a first path, a command's name is a path.
        for arguments in [["--", "--strict", "rules"], ["A.entitlements", "report"]] {
            XCTAssertEqual(LintInvocation.fastPath(arguments)?.paths, arguments.filter { $0 != "--" })
            XCTAssertEqual(LintInvocation.fastPath(arguments), try parsedByArgumentParser(arguments))
        }
    }
}
