import ArgumentParser
import EntitlintKit
import EntitlintCore
import Artifacts
import XcodeProject
import EntitlintRules
import Reporters
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Entitlint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitlint",
        abstract: "Lint Apple entitlements and provisioning profiles for keychain access-group mistakes.",
        version: EntitlintVersion.current,
        subcommands: [Lint.self, Lock.self, Rules.self, Explain.self, Init.self, InstallHook.self, GenerateDocs.self, GenerateSchema.self, Inspect.self, ReportCommand.self, XcodeCommand.self],
        defaultSubcommand: Lint.self
    )

    /// The subcommands' names and `help`, spelled out (asking ArgumentParser for them costs
    /// start-up time on every run; a test checks that they agree).
    static let commandNames: Set<String> = ["lint", "lock", "rules", "explain", "init", "install-hook", "generate-docs",
                                            "generate-schema", "inspect", "report", "xcode", "help"]
}
