import ArgumentParser
import EntitlintKit
import EntitlintCore
import EntitlintWorkspace
import Reporters

/// The `lint` command line read without swift-argument-parser, whose reflection over the command
/// tree costs more than linting one file (measured on the release build: about 4.5 ms against
/// 3.6 ms for a whole one-file run). ArgumentParser's declarations (`Lint`, `FactOptions`,
/// `ChangeOptions`) stay the definition of the command line: this table takes exactly the
/// options they declare, by their long names, into the same `LintInvocation` that `Lint.run`
/// builds, and declines (nil) anything else, which ArgumentParser then parses, with its own
/// errors and help. `LintArgumentsTests` checks, from ArgumentParser's own description of
/// `lint` (`--experimental-dump-help`), that every declared option is in the table with the same
/// arity, and that both ways give the same `LintInvocation`.
enum LintOption: Sendable {
    case flag(@Sendable (inout LintInvocation) -> Void)
    /// Nil when the value is malformed: the fast path declines, ArgumentParser explains.
    case value(@Sendable (inout LintInvocation, String) -> Void?)
}

extension LintInvocation {
    /// Every option of `lint`, keyed by its long name.
    static let options: [String: LintOption] = {
        var table: [String: LintOption] = [:]
        func flag(_ name: String, _ set: @escaping @Sendable (inout LintInvocation) -> Void) { table[name] = .flag(set) }
        func value(_ name: String, _ set: @escaping @Sendable (inout LintInvocation, String) -> Void?) { table[name] = .value(set) }
        func limit(_ name: String) {
            value(name) { inv, v in Int(v).map { inv.facts.limits[name] = $0 } }
        }
        flag("strict") { $0.strict = true }
        flag("no-color") { $0.noColor = true }
        flag("quiet") { $0.quiet = true }
        flag("no-user-profiles") { $0.facts.userProfiles = false }
        flag("staged") { $0.changes.staged = true }
        flag("statistics") { $0.statistics = true }
        flag("allow-empty") { $0.allowEmpty = true }
        flag("fix") { $0.fix = true }
        flag("diff") { $0.diff = true }
        flag("unsafe-fixes") { $0.unsafeFixes = true }
        value("format") { $0.format = $1 }
        value("report") { $0.reports.append($1) }
        value("select") { $0.select = ($0.select ?? []) + [$1] }
        value("ignore") { $0.ignore.append($1) }
        value("stdin-filename") { $0.stdinFilename = $1 }
        value("fail-on") { inv, v in Severity(rawValue: v).map { inv.failOn = $0 } }
        value("color") { inv, v in ColorChoice(rawValue: v).map { inv.color = $0 } }
        value("profile") { $0.facts.profile = $1 }
        value("profiles") { $0.facts.profileFolders.append($1) }
        value("bundle-id") { $0.facts.bundleID = $1 }
        value("team-id") { $0.facts.teamID = $1 }
        value("config") { $0.facts.config = $1 }
        value("lock") { $0.facts.lock = $1 }
        value("jobs") { inv, v in Int(v).map { inv.facts.jobs = $0 } }
        value("baseline") { $0.changes.baseline = $1 }
        value("write-baseline") { $0.changes.writeBaseline = $1 }
        value("changed-since") { $0.changes.changedSince = $1 }
        value("against") { $0.changes.against = $1 }
        value("config-from") { $0.changes.configFrom = $1 }
        for name in RunLimits.names { limit(name) }
        return table
    }()

    /// `entitlint [lint] [options] PATH...` with long options, each value as the next word, as
    /// ArgumentParser reads it; nil for anything else (help, other commands, `--name=value`,
    /// short options, a malformed value, a mistyped command), which ArgumentParser then handles.
    static func fastPath(_ arguments: [String]) -> LintInvocation? {
        // The file-system check comes last: a run on a path pays for it only when the path looks
        // like a mistyped command.
        if let first = arguments.first, mistypedCommand(first) != nil { return nil }
        var args = arguments[...]
        if args.first == "lint" { args = args.dropFirst() }
        var inv = LintInvocation()
        var onlyPaths = false
        while let a = args.first {
            args = args.dropFirst()
            if onlyPaths || !a.hasPrefix("-") || a == "-" {
                if !onlyPaths, Entitlint.commandNames.contains(a), inv.paths.isEmpty { return nil }
                inv.paths.append(a)
                continue
            }
            if a == "--" { onlyPaths = true; continue }
            guard a.hasPrefix("--"), let option = options[String(a.dropFirst(2))] else { return nil }
            switch option {
            case .flag(let set):
                set(&inv)
            case .value(let set):
                guard let v = args.first, !v.hasPrefix("-") else { return nil }
                args = args.dropFirst()
                guard set(&inv, v) != nil else { return nil }
            }
        }
        return inv
    }

    /// The command `word` was probably meant to be, when it is no command, no file or folder, and
    /// close to a command's name.
    static func mistypedCommand(_ word: String) -> String? {
        guard !word.hasPrefix("-"), !Entitlint.commandNames.contains(word),
              let meant = Suggestion.closest(to: word, in: Entitlint.commandNames),
              Paths.kind(word) == .missing else { return nil }
        return meant
    }
}
