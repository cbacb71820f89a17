import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Exit status (DESIGN.md section 4): 0 clean, 1 findings at or above the failing level,
// 2 usage errors, bad configuration, missing paths. Argument errors exit 2, not 64.
// A closed pipe ends the run quietly instead of killing it with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
do {
    if let fast = LintInvocation.fastPath(Array(CommandLine.arguments.dropFirst())) {
        try fast.run()
    } else {
        var command = try Entitlint.parseAsRoot()
        try command.run()
    }
    exit(0)
} catch let code as ExitCode {
    exit(code.rawValue)
} catch let error as CLIError {
    Output.error(error.description)
    exit(2)
} catch {
    let code = Entitlint.exitCode(for: error)
    let message = Entitlint.fullMessage(for: error)
    if code == .success {
        Output.write(message + "\n")
        exit(0)
    }
    Output.write(message + "\n", fd: STDERR_FILENO)
    exit(2)
}
