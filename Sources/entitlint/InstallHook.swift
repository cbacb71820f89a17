import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace

struct InstallHook: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-hook",
        abstract: "Write a git pre-commit hook that runs `entitlint lint --staged`.",
        discussion: """
        The hook is a plain shell script in the repository's hooks folder (or core.hooksPath, when that lies \
        inside the repository; --outside-hooks-path allows one outside it). A pre-commit \
        hook that entitlint did not write is left alone unless --force is given. With the pre-commit framework, \
        use the hook of .pre-commit-hooks.yaml instead.
        """)

    @Flag(help: "Replace a pre-commit hook that entitlint did not write.")
    var force = false

    @Flag(name: .customLong("outside-hooks-path"), help: "Write the hook even when core.hooksPath names a folder outside this repository.")
    var outsideHooksPath = false

    func run() throws {
        let path: String
        do { path = try GitHook.path(in: GitRepository.open(), outside: outsideHooksPath) } catch { throw CLIError(error.description) }
        let shown = Paths.display(path)
        switch Paths.kind(path) {
        case .directory:
            throw CLIError("\(shown) is a folder")
        case .file, .other:
            let existing: [UInt8]
            do { existing = try FileReader.read(path, limit: 1 << 20) } catch { throw CLIError("cannot read \(shown): \(error)") }
            if !GitHook.isEntitlintHook(String(decoding: existing, as: UTF8.self)) && !force {
                throw CLIError("\(shown) exists and was not written by entitlint: not replacing it (--force replaces it; or add `entitlint lint --staged` to it)")
            }
        case .missing:
            let folder = Paths.directoryName(path)
            if Paths.kind(folder) == .missing {
                do { try FileReader.makeDirectories(folder) } catch { throw CLIError("cannot create \(folder): \(error)") }
            }
        }
        do { try FileReader.writeAtomically(Array(GitHook.script(executable: GitHook.currentExecutable()).utf8), to: path, mode: 0o755) } catch {
            throw CLIError("cannot write \(shown): \(error)")
        }
        Output.write("wrote \(OutputText.escape(shown)): `entitlint lint --staged` runs before each commit\n")
    }
}
