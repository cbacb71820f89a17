public import EntitlintCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON Schema (draft-07) of `.entitlint.yml`, published as `Examples/entitlint.schema.json`
/// (`entitlint generate-schema` writes it; a test fails when it is stale, and another checks that
/// the schema and `Configuration.parse` accept and reject the same files).
public enum ConfigurationSchema {
    /// One schema node: the subset of JSON Schema the configuration needs.
    struct Node: Encodable {
        var schema: String?
        var title: String?
        var description: String?
        var type: String?
        var properties: [String: Node]?
        var additionalProperties: Additional?
        var required: [String]?
        var items: Box?
        var values: [Value]?
        var ref: String?
        var definitions: [String: Node]?
        var minimum: Int?

        enum CodingKeys: String, CodingKey {
            case schema = "$schema", ref = "$ref", values = "enum"
            case title, description, type, properties, additionalProperties, required, items, definitions, minimum
        }

        init(_ description: String? = nil, type: String? = nil) {
            self.description = description
            self.type = type
        }

        static func string(_ description: String) -> Node { Node(description, type: "string") }
        static func strings(_ description: String) -> Node {
            var n = Node(description, type: "array")
            n.items = Box(.init(type: "string"))
            return n
        }
    }

    /// `items` holds a node (a class breaks the recursion of the value type).
    final class Box: Encodable {
        let node: Node
        init(_ node: Node) { self.node = node }
        func encode(to encoder: any Encoder) throws { try node.encode(to: encoder) }
    }

    enum Additional: Encodable {
        case allowed(Bool)
        case schema(Box)
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .allowed(let b): try c.encode(b)
            case .schema(let box): try c.encode(box)
            }
        }
    }

    enum Value: Encodable {
        case string(String)
        case bool(Bool)
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .string(let s): try c.encode(s)
            case .bool(let b): try c.encode(b)
            }
        }
    }

    /// The schema, as sorted, pretty JSON with a final newline. `rules`: every rule id with its
    /// default severity and summary.
    public static func json(rules: [(id: String, severity: Severity, summary: String)]) -> [UInt8] {
        var app = Node(type: "object")
        app.additionalProperties = .allowed(false)
        app.required = ["entitlements"]
        app.properties = [
            "name": .string("Unit name (default: the entitlements file's name without extension); lock entries are keyed by it."),
            "entitlements": .string("The entitlements file."),
            "bundle-id": .string("Bundle ID (PRODUCT_BUNDLE_IDENTIFIER)."),
            "profile": .string("Provisioning profile paired with this unit."),
            "team": .string("Team ID of this unit (overrides the top-level team)."),
        ]
        var apps = Node("The signing units: one entry per app, extension or configuration.", type: "array")
        apps.items = Box(app)

        var ruleSettings = Node("Severity of each rule, or off. YAML reads a bare off (and no, false) as the boolean false, which means off too.",
                                type: "object")
        ruleSettings.additionalProperties = .allowed(false)
        var byRule: [String: Node] = [:]
        for r in rules {
            var n = Node("Default \(r.severity.rawValue). \(r.summary)")
            n.ref = "#/definitions/ruleSetting"
            byRule[r.id] = n
        }
        ruleSettings.properties = byRule

        var variables = Node("Values of custom build variables used in entitlements, by name.", type: "object")
        variables.additionalProperties = .schema(Box(Node(type: "string")))

        var failOn = Node("The lowest severity that fails the run (exit status 1).")
        failOn.values = ["error", "warning", "note"].map(Value.string)

        var limits = Node("""
            Limits of a run; going past one is a parse-error finding naming the limit. The command-line flag of \
            the same name (--max-file-size ...) wins over these. A configuration may lower a limit; a value above \
            the ceiling given for each is lowered to it (only the flag goes higher).
            """, type: "object")
        limits.additionalProperties = .allowed(false)
        func positive(_ description: String) -> Node {
            var n = Node(description, type: "integer")
            n.minimum = 1
            return n
        }
        limits.properties = [
            "max-file-size": positive("Largest input file in bytes (default 16777216, 16 MiB; ceiling 67108864, 64 MiB)."),
            "max-depth": positive("Deepest nesting of arrays and dicts in a property list (default 200; ceiling 256)."),
            "max-elements": positive("Most values in one property list, or ASN.1 elements in one profile (default 1000000; ceiling 10000000)."),
            "max-total-bytes": positive("Most bytes of entitlements files, property lists and profiles read in one run (default 1073741824, 1 GiB; ceiling 4294967296, 4 GiB)."),
            "max-findings": positive("Most findings one run reports; one more finding says how many were left out (default 10000; ceiling 100000)."),
            "max-output-bytes": positive("Largest report, in bytes; findings are left out until it fits, and one says so (default 67108864, 64 MiB; ceiling 268435456, 256 MiB)."),
        ]

        var setting = Node()
        setting.values = ["error", "warning", "note", "off"].map(Value.string) + [.bool(false)]

        var root = Node("""
            Configuration of Entitlint, the linter for Apple entitlements and provisioning profiles. Paths are relative \
            to the configuration file. Values are strings: quote a value YAML would read as a number, boolean, null or \
            date (for example team: "1234567890").
            """, type: "object")
        root.schema = "http://json-schema.org/draft-07/schema#"
        root.title = ".entitlint.yml"
        root.additionalProperties = .allowed(false)
        root.properties = [
            "team": .string("Team ID; also the App ID prefix unless a profile says otherwise."),
            "apps": apps,
            "rules": ruleSettings,
            "exclude": .strings("""
                Globs (*, **, ?) of files not to lint, matched against paths relative to the configuration's folder; a \
                glob without / matches the file name. They apply to files named on the command line too.
                """),
            "external-groups": .strings("""
                Keychain access groups and app groups shared with apps outside this project (another repository of the \
                team, a vendor's single sign-on group), as written in the entitlements or expanded; a trailing * matches \
                any rest. shared-group-single-member never reports them.
                """),
            "lock": .string("The lock file of default access groups (entitlint lock writes it; default: entitlint.lock beside the configuration)."),
            "variables": variables,
            "profiles": .strings("Folders (searched for *.mobileprovision and *.provisionprofile) or files of provisioning profiles to pair with the units."),
            "baseline": .string("Baseline file of known findings, hidden from reports (entitlint lint --write-baseline FILE writes it)."),
            "fail-on": failOn,
            "limits": limits,
            "profile-expiring-days": {
                var n = Node("profile-expiring reports a profile in use that expires within this many days (default 30; at most 3650).", type: "integer")
                n.minimum = 1
                return n
            }(),
        ]
        // Rule ids are checked by the parser (with "did you mean"); the schema lists them.
        func ruleList(_ description: String) -> Node {
            var n = Node(description, type: "array")
            var id = Node(type: "string")
            id.values = rules.map { .string($0.id) }
            n.items = Box(id)
            return n
        }
        root.properties!["select"] = ruleList("""
            The only rules that run (default: every rule). --select on the command line replaces it (and this file's \
            ignore and off settings for the rules it names); parse-error is reported whatever select says.
            """)
        root.properties!["ignore"] = ruleList("Rules that do not run; --ignore on the command line adds to it. A rule both selected and ignored is ignored.")
        var perFile = Node("""
            Rules not reported in some files: a glob (as in exclude, relative to the configuration's folder) to a list \
            of rule ids. At most 1000 globs.
            """, type: "object")
        perFile.additionalProperties = .schema(Box(ruleList("Rule ids not reported in the files the glob matches.")))
        root.properties!["per-file-ignores"] = perFile
        root.definitions = ["ruleSetting": setting]

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(root)) ?? Data()
        return Array(data) + [0x0A]
    }
}
