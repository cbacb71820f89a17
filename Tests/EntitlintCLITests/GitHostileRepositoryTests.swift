import EntitlintWorkspace
import Foundation
import XCTest

/// Repositories whose own git configuration names commands (clean filters, hooks, a promisor
/// remote whose URL runs a shell command) or whose objects are huge: Entitlint's git commands run
/// none of those commands, read bounded, and never pass in silence on what they could not read.
final class GitHostileRepositoryTests: XCTestCase {
    static let environment = GitAndInitSafetyTests.environment

    @discardableResult
    func git(_ args: [String], in dir: URL) throws -> CLI.Result {
        let r = try CLI.git(args, in: dir, environment: Self.environment)
        XCTAssertEqual(r.status, 0, "git \(args.joined(separator: " ")): \(r.stderr)")
        return r
    }

    func write(_ text: String, _ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    /// A repository with one commit of `App.entitlements` (a clean list) and its test folder.
    func repository() throws -> (dir: URL, repo: URL) {
        let dir = try CLI.temporaryDirectory(self)
        try git(["init", "-q", "repo"], in: dir)
        let repo = dir.appendingPathComponent("repo")
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.App"]), repo.appendingPathComponent("App.entitlements"))
        try git(["add", "."], in: repo)
        try git(["commit", "-qm", "one"], in: repo)
        return (dir, repo)
    }

    /// A clean filter and a `post-index-change` hook (from `core.hooksPath`) that create marker
    /// files: git runs them when it compares the work tree (`git status`, `git diff REV`), and
    /// Entitlint's `--changed-since`, `--staged` and `--against` run neither, yet still find the
    /// changed file.
    func testChangedSinceRunsNoCleanFilterAndNoIndexHook() throws {
        let (dir, repo) = try repository()
        let filterMarker = dir.appendingPathComponent("marker-clean")
        let hookMarker = dir.appendingPathComponent("marker-hook")
        try write("*.entitlements filter=evil\n", repo.appendingPathComponent(".gitattributes"))
        try git(["add", ".gitattributes"], in: repo)
        try git(["commit", "-qm", "attributes"], in: repo)
        try git(["config", "filter.evil.clean", "touch '\(filterMarker.path)'; cat"], in: repo)
        try write("#!/bin/sh\ntouch '\(hookMarker.path)'\n", repo.appendingPathComponent("hooks/post-index-change"))
        chmod(repo.appendingPathComponent("hooks/post-index-change").path, 0o755)
        try git(["config", "core.hooksPath", "hooks"], in: repo)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)*"]), repo.appendingPathComponent("App.entitlements"))

        // The planted filter does run when git diffs the work tree: the test can tell.
        _ = try CLI.git(["diff", "HEAD"], in: repo, environment: Self.environment)
        XCTAssertTrue(FileManager.default.fileExists(atPath: filterMarker.path), "the clean filter ran for plain git")
        try FileManager.default.removeItem(at: filterMarker)
        try? FileManager.default.removeItem(at: hookMarker)

        for args in [["lint", "--changed-since", "HEAD"], ["lint", "--against", "HEAD", "."]] {
            let r = try CLI.run(args, in: repo, environment: Self.environment)
            let context = "\(args.joined(separator: " ")): \(r.stdout) \(r.stderr)"
            XCTAssertEqual(r.status, 1, context)
            XCTAssertTrue(r.stdout.contains("App.entitlements") && r.stdout.contains("wildcard-access-group"), context)
            XCTAssertFalse(FileManager.default.fileExists(atPath: filterMarker.path), "a clean filter ran: \(context)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: hookMarker.path), "a hook ran: \(context)")
        }
        // Staged through plain git (which runs them), then linted: nothing more runs.
        try git(["add", "App.entitlements"], in: repo)
        try? FileManager.default.removeItem(at: filterMarker)
        try? FileManager.default.removeItem(at: hookMarker)
        let r = try CLI.run(["lint", "--staged"], in: repo, environment: Self.environment)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: filterMarker.path), "a clean filter ran for --staged")
        XCTAssertFalse(FileManager.default.fileExists(atPath: hookMarker.path), "a hook ran for --staged")
    }

    /// `--changed-since` compares content, not timestamps: a file touched but unchanged is not
    /// linted, one changed back and forth to the same bytes neither, one edited is.
    func testChangedSinceComparesContentsWithTheRevision() throws {
        let (_, repo) = try repository()
        let file = repo.appendingPathComponent("App.entitlements")
        let same = try String(contentsOf: file, encoding: .utf8)
        try write(same, file)
        var r = try CLI.run(["lint", "--changed-since", "HEAD"], in: repo, environment: Self.environment)
        XCTAssertTrue(r.stdout.contains("0 files checked"), r.stdout + r.stderr)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)*"]), file)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)*"]), repo.appendingPathComponent("Sub/New.entitlements"))
        try git(["add", "Sub/New.entitlements"], in: repo)   // tracked, not in HEAD: added
        try write(CLI.entitlements(["$(AppIdentifierPrefix)*"]), repo.appendingPathComponent("Untracked.entitlements"))
        r = try CLI.run(["lint", "--changed-since", "HEAD"], in: repo, environment: Self.environment)
        XCTAssertTrue(r.stdout.contains("App.entitlements:") && r.stdout.contains("Sub/New.entitlements:"), r.stdout)
        XCTAssertFalse(r.stdout.contains("Untracked.entitlements"), "git diff REV never lists untracked files: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("2 files checked"), r.stdout)
    }

    /// A partial clone whose promisor remote's URL is `ext::` with a shell command, and whose
    /// revision lacks the blob of the entitlements file: git would fetch it lazily, running the
    /// command. Entitlint fetches nothing, runs nothing, and says that the file at the revision
    /// could not be read (exit 1), instead of passing in silence.
    func testAgainstOnAPartialCloneFetchesNothingAndSaysWhatItCouldNotRead() throws {
        let (dir, repo) = try repository()
        let marker = dir.appendingPathComponent("marker-ext")
        let file = repo.appendingPathComponent("App.entitlements")
        let oid = try git(["rev-parse", "HEAD:App.entitlements"], in: repo).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.Other", "$(AppIdentifierPrefix)com.example.App"]), file)
        try git(["commit", "-qam", "two"], in: repo)
        try FileManager.default.removeItem(at: repo.appendingPathComponent(".git/objects/\(oid.prefix(2))/\(oid.dropFirst(2))"))
        try git(["config", "core.repositoryformatversion", "1"], in: repo)
        try git(["config", "extensions.partialClone", "origin"], in: repo)
        try git(["config", "remote.origin.promisor", "true"], in: repo)
        try git(["config", "remote.origin.url", "ext::sh -c touch% \(marker.path)"], in: repo)
        try git(["config", "protocol.ext.allow", "always"], in: repo)

        // Plain git does run the command to fetch the missing blob: the test can tell.
        _ = try CLI.git(["cat-file", "-p", oid], in: repo, environment: Self.environment)
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker.path), "plain git ran the promisor's command")
        try FileManager.default.removeItem(at: marker)

        let r = try CLI.run(["lint", "--against", "HEAD~1", "App.entitlements"], in: repo, environment: Self.environment)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "the promisor's command ran: \(r.stdout) \(r.stderr)")
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("App.entitlements: error: cannot read this file as it was at revision HEAD~1"), r.stdout)
        XCTAssertTrue(r.stdout.contains("[unreadable-path]"), r.stdout)
    }

    /// A revision whose entitlements file is larger than `--max-file-size`: its size is asked
    /// first and the blob is never read (the check is said to be impossible, exit 1), and a file
    /// within the limit is compared as usual.
    func testAgainstRefusesABlobOverTheFileLimitWithAFinding() throws {
        let (_, repo) = try repository()
        let file = repo.appendingPathComponent("App.entitlements")
        let padding = "<!--" + String(repeating: "x", count: 300_000) + "-->\n"
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.App"]) + padding, file)
        try git(["commit", "-qam", "big"], in: repo)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)com.example.Moved", "$(AppIdentifierPrefix)com.example.App"]), file)
        let r = try CLI.run(["lint", "--against", "HEAD", "--max-file-size", "100000", "--team-id", "ABCDE12345", "App.entitlements"],
                            in: repo, environment: Self.environment)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("cannot read this file as it was at revision HEAD"), r.stdout)
        XCTAssertTrue(r.stdout.contains("larger than the limit of 100000 bytes"), r.stdout)
        XCTAssertTrue(r.stdout.contains("it holds 300"), r.stdout)
        // Within the limit, the move is found.
        let ok = try CLI.run(["lint", "--against", "HEAD", "--team-id", "ABCDE12345", "App.entitlements"], in: repo, environment: Self.environment)
        XCTAssertTrue(ok.stdout.contains("default-group-drift"), ok.stdout + ok.stderr)
        XCTAssertFalse(ok.stdout.contains("cannot read this file"), ok.stdout)
    }

    /// Staged files of 200 KB each: their sizes are asked first and each blob is charged to the
    /// run's `--max-total-bytes` before anything is read; the paths past it are findings (never
    /// skipped).
    func testStagedBlobsAreChargedToTheRunBudgetBeforeTheyAreRead() throws {
        let (_, repo) = try repository()
        for i in 0..<12 {
            let body = CLI.entitlements(["$(AppIdentifierPrefix)com.example.App"]) + "<!--\(i)" + String(repeating: "y", count: 200_000) + "-->\n"
            try write(body, repo.appendingPathComponent("Many/A\(i).entitlements"))
        }
        try git(["add", "Many"], in: repo)
        let r = try CLI.run(["lint", "--staged", "--max-total-bytes", "1000000"], in: repo, environment: Self.environment)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let refused = r.stdout.components(separatedBy: "\n").filter { $0.contains("the run reached its limit of bytes read in total") }
        // 1,000,000 bytes hold 4 of the 200 KB blobs; the other 8 paths are each a finding.
        XCTAssertEqual(refused.count, 8, r.stdout)
        XCTAssertTrue(r.stdout.contains("12 files checked"), r.stdout)
    }

    /// Many paths share one blob: it is read once, charged to the budget once, and every path is
    /// linted (a budget of one blob's size is enough for all of them).
    func testManyPathsSharingABlobAreReadAndChargedOnce() throws {
        let (_, repo) = try repository()
        let body = CLI.entitlements(["$(AppIdentifierPrefix)*"]) + "<!--" + String(repeating: "y", count: 200_000) + "-->\n"
        for i in 0..<12 { try write(body, repo.appendingPathComponent("Many/A\(i).entitlements")) }
        try git(["add", "Many"], in: repo)
        let r = try CLI.run(["lint", "--staged", "--max-total-bytes", "\(body.utf8.count)"], in: repo, environment: Self.environment)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertFalse(r.stdout.contains("limit of bytes read in total"), r.stdout)
        XCTAssertEqual(r.stdout.components(separatedBy: "\n").filter { $0.contains("[wildcard-access-group]") }.count, 12, r.stdout)

        let top = try GitRepository.open(at: repo.path)
        let names = (0..<12).map { ":Many/A\($0).entitlements" }
        let budget = ReadBudget(limit: body.utf8.count)
        let blobs = try top.blobs(names, maxBytes: 1 << 20, budget: budget)
        XCTAssertEqual(Set(blobs.values).count, 1, "one blob for every name")
        guard case .bytes(let b, let oid)? = blobs[names[0]] else { return XCTFail("\(String(describing: blobs[names[0]]))") }
        XCTAssertEqual(b.count, body.utf8.count)
        XCTAssertEqual(oid?.count, 40)
        // The budget was charged exactly one blob: nothing is left for another byte.
        XCTAssertEqual(try top.blobs([":App.entitlements"], maxBytes: 1 << 20, budget: budget)[":App.entitlements"],
                       .unreadable(FileReader.ReadError.overBudget.description))
    }

    /// A file that was a symlink and is now a regular file (git status `T`) is linted by
    /// `--staged` and by `--changed-since`.
    func testATypeChangeFromSymlinkToFileIsLinted() throws {
        let (_, repo) = try repository()
        let link = repo.appendingPathComponent("Link.entitlements")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "App.entitlements")
        try git(["add", "Link.entitlements"], in: repo)
        try git(["commit", "-qm", "link"], in: repo)
        try FileManager.default.removeItem(at: link)
        try write(CLI.entitlements(["$(AppIdentifierPrefix)*"]), link)
        let changed = try CLI.run(["lint", "--changed-since", "HEAD"], in: repo, environment: Self.environment)
        XCTAssertEqual(changed.status, 1, changed.stdout + changed.stderr)
        XCTAssertTrue(changed.stdout.contains("Link.entitlements:") && changed.stdout.contains("wildcard-access-group"), changed.stdout)
        try git(["add", "Link.entitlements"], in: repo)
        let status = try git(["status", "--porcelain"], in: repo).stdout
        XCTAssertTrue(status.contains("T  Link.entitlements"), status)
        let staged = try CLI.run(["lint", "--staged"], in: repo, environment: Self.environment)
        XCTAssertEqual(staged.status, 1, staged.stdout + staged.stderr)
        XCTAssertTrue(staged.stdout.contains("Link.entitlements:") && staged.stdout.contains("wildcard-access-group"), staged.stdout)
    }

    /// A repository's config may point `core.hooksPath` anywhere: `install-hook` refuses a folder
    /// outside the repository (writing nothing there) unless told, and accepts one inside.
    func testInstallHookRefusesAHooksPathOutsideTheRepository() throws {
        let (dir, repo) = try repository()
        let outside = dir.appendingPathComponent("elsewhere")
        try git(["config", "core.hooksPath", outside.path], in: repo)
        let refused = try CLI.run(["install-hook"], in: repo, environment: Self.environment)
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("outside this repository"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside.appendingPathComponent("pre-commit").path))
        try git(["config", "core.hooksPath", "../elsewhere"], in: repo)
        XCTAssertNotEqual(try CLI.run(["install-hook"], in: repo, environment: Self.environment).status, 0)
        let told = try CLI.run(["install-hook", "--outside-hooks-path"], in: repo, environment: Self.environment)
        XCTAssertEqual(told.status, 0, told.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside.appendingPathComponent("pre-commit").path))
    }
}
