import ArgumentParser
import EntitlintKit
import EntitlintCore
import PropertyList
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Exit status (Rules/reference/commands.md): 0 clean, 1 findings at or above the failing level,
// 2 usage errors, bad configuration, missing paths. Argument errors exit 2, not 64.
// A closed pipe ends the run quietly instead of killing it with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
// libxml2 is set up here, in the main thread, before any thread parses (XMLPlistReader.prepareForThreads).
XMLPlistReader.prepareForThreads()
#if canImport(Glibc)
// A run holds every document it reads until it ends, and frees a file's buffers after parsing
// it: with glibc's defaults the heap grows 128 KiB at a time and gives back its top whenever
// 128 KiB are free there, to fault the same pages in again a moment later. Growing in 16 MiB
// steps (address space only: pages still arrive when touched) and keeping freed memory for the
// rest of the run cut the page faults of linting 3,000 files by a sixth (Scripts/benchmark.sh).
// (Swift's Glibc module leaves out <malloc.h>: mallopt is looked up, with its constants from there.)
if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
    let M_TRIM_THRESHOLD: Int32 = -1, M_TOP_PAD: Int32 = -2
    _ = mallopt(M_TOP_PAD, 16 << 20)
    _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
}
#endif
// The arguments from their bytes: `CommandLine.arguments` replaces bytes that are not UTF-8
// with U+FFFD, and a file named so could not be opened (Paths.fileSystemName keeps them).
let arguments = (1..<Int(CommandLine.argc)).map { i -> String in
    let raw = CommandLine.unsafeArgv[i]!
    return raw.withMemoryRebound(to: UInt8.self, capacity: strlen(raw)) {
        Paths.fileSystemName(UnsafeBufferPointer(start: $0, count: strlen(raw)))
    }
}
do {
    if let fast = LintInvocation.fastPath(arguments) {
        try fast.run()
    } else {
        var command = try Entitlint.parseAsRoot(arguments)
        try command.run()
    }
    exit(0)
} catch let code as ExitCode {
    exit(code.rawValue)
} catch let error as CLIError {
    for line in error.lines { Output.error(line) }
    exit(2)
} catch {
    let code = Entitlint.exitCode(for: error)
    // ArgumentParser's message may quote arguments: each of its lines is escaped, and no line
    // may start with `::` (Output.write).
    let message = Entitlint.fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false)
        .map { OutputText.escape(String($0)) }.joined(separator: "\n")
    if code == .success {
        Output.write(message + "\n")
        exit(0)
    }
    Output.write(message + "\n", fd: STDERR_FILENO)
    exit(2)
}
