import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
import Artifacts
import XcodeProject
import EntitlintRules
import Reporters
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the rules.")

    func run() throws {
        let ds = RuleRegistry.descriptions
        let width = ds.map(\.id.count).max() ?? 0
        for d in ds {
            let pad = String(repeating: " ", count: width - d.id.count)
            let sev = d.severity.rawValue + String(repeating: " ", count: 8 - d.severity.rawValue.count)
            Output.write("\(d.id)\(pad)  \(sev)  \(d.optIn ? "[opt-in] " : "")\(d.summary)\n")
        }
        if let d = ds.first(where: \.optIn) {
            Output.write("\n[opt-in]: off unless a run names it, e.g. \(d.howToEnable)\n")
        }
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show one rule's documentation, with its examples.")

    @Argument(help: "A rule id, as listed by `entitlint rules`.")
    var id: String

    func run() throws {
        guard let rule = RuleRegistry.rule(id: id) else {
            throw CLIError("unknown rule '\(id)'\(Suggestion.hint(for: id, in: RuleRegistry.ids)) (see `entitlint rules`)")
        }
        Output.write(RuleDocs.markdown(for: rule).split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n"))
    }
}

struct GenerateDocs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-docs", abstract: "Write Rules/<id>.md for every rule, and the index Rules/README.md.", shouldDisplay: false)

    @Argument(help: "Output folder.")
    var directory: String = "Rules"

    func run() throws {
        for rule in RuleRegistry.all {
            let id = type(of: rule).description.id
            do { try FileReader.writeAtomically(Array(RuleDocs.markdown(for: rule).utf8), to: "\(directory)/\(id).md") } catch {
                throw CLIError("\(error)")
            }
        }
        do { try FileReader.writeAtomically(Array(RuleDocs.index(RuleRegistry.all).utf8), to: "\(directory)/README.md") } catch {
            throw CLIError("\(error)")
        }
        Output.write("wrote \(RuleRegistry.all.count) pages and README.md to \(OutputText.escape(directory))/\n")
    }
}
