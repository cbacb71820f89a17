public import EntitlintCore
import PropertyList
import Provisioning

/// Runs a rule's examples: what the tests check and what `Rules/<id>.md` shows.
public enum RuleExampleRunner {
    public struct Prepared: Sendable {
        /// The whole entitlements file, markers removed.
        public var text: String
        /// Positions of the `↓` markers (line, column of the character after the marker).
        public var markers: [SourceLocation]
    }

    /// Wraps a dict body into a whole entitlements file (unless it already is one) and finds the markers.
    public static func prepare(_ example: RuleExample) -> Prepared {
        let source = example.entitlements
        let whole = source.hasPrefix("<?xml") || source.hasPrefix("<plist")
            ? source + (source.hasSuffix("\n") ? "" : "\n")
            : ExampleText.header + source + ExampleText.footer
        var text = ""
        var markers: [SourceLocation] = []
        var line = 1
        var column = 1
        for ch in whole {
            if ch == RuleExample.marker {
                markers.append(SourceLocation(line: line, column: column))
                continue
            }
            text.append(ch)
            if ch == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return Prepared(text: text, markers: markers)
    }

    /// The profile an example describes, as a plain plist decoded by the real decoder.
    public static func profile(for example: RuleExample) -> ProfileFile? {
        guard let body = example.profileEntitlements else { return nil }
        let team = example.teamID ?? "ABCDE12345"
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        <key>Name</key><string>Example Profile</string>
        <key>TeamIdentifier</key><array><string>\(team)</string></array>
        <key>ApplicationIdentifierPrefix</key><array><string>\(team)</string></array>
        <key>Entitlements</key>
        <dict>
        \(body)
        </dict>
        </dict>
        </plist>
        """
        guard let p = try? ProfileDecoder.decode(Array(plist.utf8)) else { return nil }
        return ProfileFile(path: "Example.mobileprovision", profile: p)
    }

    /// The findings of `rule` alone on `example`.
    public static func run(_ rule: any Rule, on example: RuleExample) -> [Finding] {
        let prepared = prepare(example)
        var lock: LockFile?
        if let locked = example.lockedDefaultGroup {
            lock = LockFile(units: ["Example": .init(bundleID: nil, defaultAccessGroup: locked, accessGroups: [locked])])
        }
        let linter = Linter(rules: [rule])
        return linter.lint(entitlements: Array(prepared.text.utf8), path: "Example.entitlements", name: "Example",
                           bundleID: example.bundleID, teamID: example.teamID, profile: profile(for: example), lock: lock)
            .filter { $0.rule == type(of: rule).description.id }
    }
}
