import Foundation
import PackagePlugin

/// `swift package entitlint [ARGUMENT ...]`: runs `entitlint lint ARGUMENT ...` in the package's
/// folder, so with no path it lints the whole package (the linter's default is the current folder)
/// and relative paths are read from the package root.
///
/// The plugin asks for no permission. Linting reads only; `--report`, `--write-baseline` and the
/// like write, which SwiftPM's sandbox (macOS) refuses unless the plugin is run with
/// `swift package --disable-sandbox entitlint ...`. Linux has no plugin sandbox.
///
/// The linter's exit status decides the plugin's: 0 passes, anything else (1: findings at or above
/// `fail-on`; 2: a usage or input error) makes `swift package` fail.
@main
struct EntitlintPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "entitlint")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["lint"] + arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw LintFailed(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal)
        }
    }
}

/// The linter ended with a non-zero status or a signal; its own output already said why.
struct LintFailed: Error, CustomStringConvertible {
    let status: Int32
    let signalled: Bool

    var description: String {
        signalled ? "entitlint was ended by signal \(status)" : "entitlint exited with status \(status)"
    }
}
