import EntitlintCore
import EntitlintRules
import Foundation
import XCTest

/// `Examples/entitlint.schema.json` and the configuration parser describe the same files: every
/// valid example validates against the schema and parses; every invalid one is rejected by both.
/// The schema side runs Python's `jsonschema` on what PyYAML reads (skipped, saying so, when they
/// are not installed; `.ci/run` installs them).
final class ConfigurationSchemaTests: XCTestCase {
    static let schemaURL = CLI.packageRoot.appendingPathComponent("Examples/entitlint.schema.json")

    func schema() throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
    }

    func testSchemaNamesEveryKeyAndRule() throws {
        let s = try schema()
        let properties = try XCTUnwrap(s["properties"] as? [String: Any])
        XCTAssertEqual(Set(properties.keys), Set(Configuration.knownKeys), "top-level keys")
        XCTAssertEqual(s["additionalProperties"] as? Bool, false)
        let apps = try XCTUnwrap((properties["apps"] as? [String: Any])?["items"] as? [String: Any])
        XCTAssertEqual(Set((apps["properties"] as? [String: Any] ?? [:]).keys), Set(Configuration.knownAppKeys), "apps keys")
        let rules = try XCTUnwrap((properties["rules"] as? [String: Any])?["properties"] as? [String: Any])
        XCTAssertEqual(Set(rules.keys), RuleRegistry.ids, "rule ids: add the new rule to Examples/entitlint.schema.json")
    }

    static let valid: [String: String] = [
        "empty": "",
        "comment-only": "# nothing yet\n",
        "full": """
        team: ABCDE12345
        apps:
          - name: AppOne
            entitlements: AppOne/AppOne.entitlements
            bundle-id: com.example.AppOne
            profile: profiles/AppOne.mobileprovision
            team: ABCDE12345
          - entitlements: Widget/Widget.entitlements
        rules:
          comment-in-plist: off
          duplicate-key: 'off'
          token-group-claimed: no
          default-group-not-app-id: error
          unresolved-variable: note
          duplicate-access-group: warning
        exclude: ["Tests/**", "*.xcent"]
        lock: entitlint.lock
        variables:
          BUNDLE_ID_PREFIX: com.example
          VERSION: "1.0"
        profiles: [profiles, Extra/One.mobileprovision]
        baseline: entitlint.baseline.json
        fail-on: warning

        """,
        "quoted-digits-team": "team: \"1234567890\"\n",
        "empty-collections": "apps: []\nexclude: []\nvariables: {}\nrules: {}\nprofiles: []\n",
        "flow-style": "{team: ABCDE12345, apps: [{entitlements: A.entitlements, name: A}]}\n",
        "fail-on-note": "fail-on: note\n",
    ]

    static let invalid: [String: String] = [
        "unknown-key": "teem: ABCDE12345\n",
        "team-number": "team: 1234567890\n",
        "team-list": "team: [a, b]\n",
        "team-null": "team:\n",
        "app-without-entitlements": "apps:\n  - name: x\n",
        "app-unknown-key": "apps:\n  - entitlements: a\n    colour: red\n",
        "apps-mapping": "apps: {entitlements: a}\n",
        "app-bundle-id-date": "apps:\n  - entitlements: a\n    bundle-id: 2024-01-01\n",
        "unknown-rule": "rules:\n  no-such-rule: off\n",
        "bad-severity": "rules:\n  comment-in-plist: loud\n",
        "severity-true": "rules:\n  comment-in-plist: on\n",
        "severity-number": "rules:\n  comment-in-plist: 2\n",
        "exclude-string": "exclude: notalist\n",
        "exclude-number": "exclude: [1]\n",
        "variable-number": "variables:\n  V: 1.5\n",
        "variables-list": "variables: [a]\n",
        "lock-boolean": "lock: yes\n",
        "baseline-number": "baseline: 12\n",
        "fail-on-unknown": "fail-on: fatal\n",
        "fail-on-off": "fail-on: off\n",
        "profiles-string": "profiles: signing\n",
        "top-level-list": "- a\n- b\n",
        "top-level-string": "just a string\n",
        "not-yaml": "team: 'unterminated\n",
    ]

    /// The configurations the repository shows: every example's, the README's, and what `init` writes.
    func shownConfigurations() throws -> [String: String] {
        var out: [String: String] = [:]
        let examples = CLI.packageRoot.appendingPathComponent("Examples")
        for name in try FileManager.default.contentsOfDirectory(atPath: examples.path) {
            let url = examples.appendingPathComponent(name).appendingPathComponent(".entitlint.yml")
            if let text = try? String(contentsOf: url, encoding: .utf8) { out["Examples/\(name)"] = text }
        }
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "## Configuration: `.entitlint.yml`").dropFirst().first)
        let block = try XCTUnwrap(section.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "```").first)
        out["README"] = block
        let rules = RuleRegistry.descriptions.map { (id: $0.id, severity: $0.severity) }
        out["init-empty"] = StarterConfiguration.text(entitlements: [], profiles: [], rules: rules)
        out["init-family"] = StarterConfiguration.text(entitlements: [
            .init(path: "AppOne/AppOne.entitlements", entitlements: nil), .init(path: "App Two/AppTwo.entitlements", entitlements: nil),
        ], profiles: ["profiles/AppOne.mobileprovision", "Root.provisionprofile"], rules: rules)
        XCTAssertGreaterThanOrEqual(out.count, 7)
        return out
    }

    func testSchemaAndParserAcceptAndRejectTheSameFiles() throws {
        var cases: [(name: String, text: String, valid: Bool)] = []
        for (k, v) in Self.valid { cases.append(("valid/\(k)", v, true)) }
        for (k, v) in Self.invalid { cases.append(("invalid/\(k)", v, false)) }
        for (k, v) in try shownConfigurations() { cases.append((k, v, true)) }
        cases.sort { $0.name < $1.name }

        let dir = try CLI.temporaryDirectory(self)
        var files: [String] = []
        for (i, c) in cases.enumerated() {
            let url = dir.appendingPathComponent("\(i).yml")
            try c.text.write(to: url, atomically: true, encoding: .utf8)
            files.append(url.path)
        }
        let verdicts = try Self.validate(files)

        for (i, c) in cases.enumerated() {
            var parserError: String?
            do { _ = try Configuration.parse(c.text, path: ".entitlint.yml", knownRules: RuleRegistry.ids) } catch {
                parserError = error.description
            }
            let schemaError = try XCTUnwrap(verdicts[files[i]], c.name)
            XCTAssertEqual(parserError == nil, c.valid, "\(c.name): the parser \(parserError ?? "accepts it")")
            XCTAssertEqual(schemaError == nil, c.valid, "\(c.name): the schema \(schemaError ?? "accepts it")")
        }
    }

    /// Validates each YAML file against the schema with Python: path -> nil (valid) or the first error.
    static func validate(_ files: [String]) throws -> [String: String?] {
        let program = """
        import json, sys
        try:
            import jsonschema, yaml
        except ImportError as e:
            print(json.dumps({"skip": str(e)})); sys.exit(0)
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        jsonschema.Draft7Validator.check_schema(schema)
        validator = jsonschema.Draft7Validator(schema)
        verdicts = {}
        for path in sys.argv[2:]:
            try:
                data = yaml.safe_load(open(path, encoding="utf-8"))
            except yaml.YAMLError as e:
                verdicts[path] = "not YAML: %s" % str(e).splitlines()[0]
                continue
            if data is None:
                data = {}  # an empty file is an empty configuration
            errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
            verdicts[path] = ("%s: %s" % ("/".join(map(str, errors[0].absolute_path)), errors[0].message)) if errors else None
        print(json.dumps({"verdicts": verdicts}))
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", program, schemaURL.path] + files
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch { throw XCTSkip("python3 is not available: \(error)") }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        if p.terminationStatus == 127 { throw XCTSkip("python3 is not installed") }
        guard p.terminationStatus == 0 else {
            XCTFail("the schema check failed: \(String(decoding: e, as: UTF8.self))")
            return [:]
        }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: o) as? [String: Any])
        if let why = json["skip"] as? String {
            throw XCTSkip("the schema check needs Python's jsonschema and PyYAML (pip install jsonschema pyyaml): \(why)")
        }
        let verdicts = try XCTUnwrap(json["verdicts"] as? [String: Any])
        return verdicts.mapValues { $0 as? String }
    }
}
