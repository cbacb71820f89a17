import EntitlintCore
import Foundation
import PropertyList
import Testing
@testable import EntitlintRules

/// A message that suggests a value (`write "..."`, `use "..."`) must suggest one the rules accept:
/// every suggestion of every triggering example is written in place of the value it replaces, and
/// no rule of the catalogue may then report that value.
@Suite("Suggested values")
struct SuggestionRoundTripTests {
    /// The quoted values a message suggests: every `"..."` in the clause after each `write ` or
    /// `use ` (up to the next `;`), except placeholders (`<name>`).
    static func suggestions(in message: String) -> [String] {
        suggestedFixes(in: message).map(\.value)
    }

    /// `suggestions`, each with whether the clause asks for more than the value (`write "X" and
    /// sign with a profile of this App ID`): the rest of such a fix is the rule's own to report.
    static func suggestedFixes(in message: String) -> [(value: String, partial: Bool)] {
        var out: [(value: String, partial: Bool)] = []
        for verb in ["write \"", "use \""] {
            var rest = Substring(message)
            while let r = rest.range(of: verb) {
                let clause = rest[rest.index(before: r.upperBound)...].prefix { $0 != ";" }
                let parts = clause.split(separator: "\"", omittingEmptySubsequences: false)
                let partial = parts.count % 2 == 1 && parts.last!.hasPrefix(" and ")
                // Quoted values are the odd-numbered parts.
                for (i, part) in parts.enumerated() where i % 2 == 1 && !part.contains("<") {
                    out.append((String(part), partial))
                }
                rest = rest[r.upperBound...]
            }
        }
        return out
    }

    /// The string at `keyPath` (`key` or `key[i]`) of an entitlements text.
    static func value(at keyPath: String, in text: String) -> String? {
        guard let doc = try? PropertyListReader.parse(Array(text.utf8)), let root = doc.root.dict else { return nil }
        if keyPath.hasSuffix("]"), let open = keyPath.lastIndex(of: "["),
           let i = Int(keyPath[keyPath.index(after: open)..<keyPath.index(before: keyPath.endIndex)]) {
            guard let items = root[String(keyPath[..<open])]?.array, i < items.count else { return nil }
            return items[i].string
        }
        return root[keyPath]?.string
    }

    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// `example` with the first `<string>old</string>` of the file `path` replaced by `new`; nil
    /// when the file does not spell the value so.
    static func replacing(_ old: String, with new: String, in example: RuleExample, path: String) -> RuleExample? {
        let from = "<string>\(escaped(old))</string>", to = "<string>\(escaped(new))</string>"
        var ex = example
        if ex.project.isEmpty {
            guard path == RuleExampleRunner.entitlementsPath, let r = ex.entitlements.range(of: from) else { return nil }
            ex.entitlements.replaceSubrange(r, with: to)
            return ex
        }
        guard let i = ex.project.firstIndex(where: { $0.path == path }), let r = ex.project[i].entitlements.range(of: from) else { return nil }
        ex.project[i].entitlements.replaceSubrange(r, with: to)
        return ex
    }

    /// The text of the file `path` of `example`, markers removed.
    static func text(of path: String, in example: RuleExample) -> String? {
        if example.project.isEmpty { return path == RuleExampleRunner.entitlementsPath ? RuleExampleRunner.prepare(example).text : nil }
        guard let u = example.project.first(where: { $0.path == path }) else { return nil }
        return RuleExampleRunner.strip(ProjectExampleRunner.wrap(u.entitlements)).text
    }

    /// The rules that report where a group stands in the list (first, or first no longer), which
    /// a value written in place of another cannot change.
    static let aboutOrder: Set<String> = ["default-group-not-app-id", "default-group-drift", "inconsistent-default-group"]

    @Test("the extraction reads every quoted value of a suggestion, and no placeholder")
    func extraction() {
        #expect(Self.suggestions(in: "x \"a\" is wrong; write \"$(AppIdentifierPrefix)a\"") == ["$(AppIdentifierPrefix)a"])
        #expect(Self.suggestions(in: "bad; write \"group.a\" (in the profile) or \"$(TeamIdentifierPrefix)a\"; then \"b\"")
                == ["group.a", "$(TeamIdentifierPrefix)a"])
        #expect(Self.suggestions(in: "every app group is group.<name>; name the group after `group.`").isEmpty)
        #expect(Self.suggestions(in: "use \"development\" here") == ["development"])
        #expect(Self.suggestedFixes(in: "x; write \"a\" and sign with a profile").map(\.partial) == [true])
        #expect(Self.suggestedFixes(in: "x; write \"a\" (in the profile) or \"b\"").map(\.partial) == [false, false])
    }

    @Test("a suggested value is reported by no rule", arguments: RuleRegistry.descriptions.map(\.id))
    func roundTrip(of id: String) throws {
        let rule = try #require(RuleRegistry.rule(id: id))
        for (n, ex) in type(of: rule).description.triggering.enumerated() {
            for f in RuleExampleRunner.run(rule, on: ex) {
                guard let keyPath = f.keyPath, let text = Self.text(of: f.path, in: ex),
                      let old = Self.value(at: keyPath, in: text) else { continue }
                for (suggestion, partial) in Self.suggestedFixes(in: f.message) where suggestion != old {
                    guard let changed = Self.replacing(old, with: suggestion, in: ex, path: f.path) else { continue }
                    for other in RuleRegistry.all {
                        let otherID = type(of: other).description.id
                        // Rules about the list's order or its history judge where a value stands,
                        // not the value; a partial fix leaves its rest to its own rule.
                        guard !Self.aboutOrder.contains(otherID), otherID != FindingStage.unusedSuppressionID, !(partial && otherID == id) else { continue }
                        let again = RuleExampleRunner.run(other, on: changed).filter { $0.path == f.path && $0.keyPath == keyPath }
                        #expect(again.isEmpty, "\(id) triggering example \(n) suggests \"\(suggestion)\" for \(keyPath), and \(otherID) reports it: \(again.map(\.message))",
                                sourceLocation: ex.location)
                    }
                }
            }
        }
    }

    @Test("the rules that suggest values are covered")
    func coverage() throws {
        // The rules whose examples suggest a value in place of the one reported: the round trip
        // above checks each (a rule that stops suggesting drops out of this list knowingly).
        var suggesting: Set<String> = []
        for rule in RuleRegistry.all {
            let d = type(of: rule).description
            for ex in d.triggering {
                for f in RuleExampleRunner.run(rule, on: ex) where !Self.suggestions(in: f.message).isEmpty {
                    if let k = f.keyPath, let t = Self.text(of: f.path, in: ex), Self.value(at: k, in: t) != nil { suggesting.insert(d.id) }
                }
            }
        }
        #expect(suggesting.isSuperset(of: ["missing-team-prefix", "team-prefix-mismatch", "empty-access-group", "double-prefix"]), "\(suggesting.sorted())")
    }
}
