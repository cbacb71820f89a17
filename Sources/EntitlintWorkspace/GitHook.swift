import EntitlintCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plain git pre-commit hook `entitlint install-hook` writes: it lints the staged version of
/// the staged entitlements files and profiles (`entitlint lint --staged`), and a finding at or
/// above the failing level stops the commit.
public enum GitHook {
    /// The line that marks a hook as Entitlint's: such a hook may be replaced without `--force`.
    public static let marker = "# entitlint-managed-hook"

    /// The hook script. `executable` (absolute) is tried first, then `entitlint` on `PATH`.
    public static func script(executable: String?) -> String {
        var s = """
        #!/bin/sh
        \(marker): written by `entitlint install-hook`, which may replace it.
        # Lints the staged version of the staged entitlements files and profiles before each commit;
        # findings at or above the failing level stop the commit (`git commit --no-verify` skips it).

        """
        if let executable {
            s += "entitlint=\(shellQuoted(executable))\n"
            s += "[ -x \"$entitlint\" ] || entitlint=entitlint\n"
        } else {
            s += "entitlint=entitlint\n"
        }
        s += "exec \"$entitlint\" lint --staged\n"
        return s
    }

    public static func isEntitlintHook(_ text: String) -> Bool {
        text.split(separator: "\n").prefix(3).contains { $0.hasPrefix(marker) }
    }

    /// `s` in single quotes for sh, `'` written as `'\''`.
    public static func shellQuoted(_ s: String) -> String {
        "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The pre-commit hook's path: in `core.hooksPath` when set, else in the repository's hooks
    /// folder (`git rev-parse --git-path hooks`, right for worktrees too). A `core.hooksPath`
    /// outside the work tree and outside the repository's git folder (a repository's own config
    /// may point it anywhere: another project's hooks, a shared folder) is refused unless
    /// `outside` allows it, so the hook is never written where the user did not ask.
    public static func path(in repository: GitRepository, outside: Bool = false) throws(GitRepository.GitError) -> String {
        let configured = try GitRepository.run(["config", "--get", "core.hooksPath"], in: repository.topLevel, readsHooksPath: true)
        let hooksPath = String(decoding: configured.stdout, as: UTF8.self).trimmingNewlines()
        var folder: String
        if configured.status == 0, !hooksPath.isEmpty {
            folder = hooksPath
        } else {
            let r = try GitRepository.run(["rev-parse", "--git-path", "hooks"], in: repository.topLevel, readsHooksPath: true)
            guard r.status == 0 else { throw GitRepository.GitError("cannot find the hooks folder: git rev-parse --git-path hooks failed") }
            folder = String(decoding: r.stdout, as: UTF8.self).trimmingNewlines()
        }
        if folder.hasPrefix("~/"), let home = getenv("HOME") { folder = String(cString: home) + folder.dropFirst() }
        folder = Paths.absolute(folder, cwd: repository.topLevel)
        if configured.status == 0, !hooksPath.isEmpty, !outside {
            let gitFolder = try GitRepository.run(["rev-parse", "--absolute-git-dir"], in: repository.topLevel)
            let real = Paths.resolvingSymlinks(folder)
            let inside = [repository.topLevel, String(decoding: gitFolder.stdout, as: UTF8.self).trimmingNewlines()]
                .filter { $0.hasPrefix("/") }
                .contains { ProjectRoot.isBelow(real, Paths.resolvingSymlinks($0)) }
            guard inside else {
                throw GitRepository.GitError("core.hooksPath is \(OutputText.escape(hooksPath)), outside this repository: not writing a hook there (--outside-hooks-path writes it anyway)")
            }
        }
        return folder + "/pre-commit"
    }

    /// The absolute path of the running executable, when it can be told.
    public static func currentExecutable() -> String? {
        #if os(Linux)
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { readlink("/proc/self/exe", $0, p.count - 1) }
        }
        if n > 0 { return String(decoding: buf[0..<n], as: UTF8.self) }
        #endif
        guard let arg0 = CommandLine.arguments.first, arg0.contains("/") else { return nil }
        return Paths.absolute(arg0)
    }
}
