import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules

struct GenerateSchema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-schema", abstract: "Write the JSON Schema of .entitlint.yml.", shouldDisplay: false)

    @Argument(help: "Output file.")
    var path: String = "Examples/entitlint.schema.json"

    func run() throws {
        let rules = RuleRegistry.descriptions.map { (id: $0.id, severity: $0.severity, summary: $0.summary) }
        do { try FileReader.writeAtomically(ConfigurationSchema.json(rules: rules), to: path) } catch {
            throw CLIError("cannot write \(path): \(error)")
        }
        Output.write("wrote \(OutputText.escape(path))\n")
    }
}
