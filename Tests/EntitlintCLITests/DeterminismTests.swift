import Foundation
import XCTest

/// The same inputs give byte-identical reports whatever the order the files were
/// written to disk in (and so the order `readdir` returns them) and whatever the number of threads.
final class DeterminismTests: XCTestCase {
    func testCorpusReportsAreByteIdenticalAcrossDiskOrderAndThreads() throws {
        let corpus = CLI.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let fm = FileManager.default
        guard fm.fileExists(atPath: corpus.path) else {
            throw XCTSkip("corpus not found at \(corpus.path) (expected ../shared/corpus next to the package)")
        }
        var sources: [URL] = []
        for sub in ["entitlements", "profiles"] {
            let dir = corpus.appendingPathComponent(sub)
            sources += try fm.contentsOfDirectory(atPath: dir.path).sorted().map { dir.appendingPathComponent($0) }
        }
        XCTAssertGreaterThan(sources.count, 150)
        let dir = try CLI.temporaryDirectory(self)
        let inputs = dir.appendingPathComponent("Corpus")

        /// Copies the corpus in `order` (one folder per 20 files, to have folders too), then lints.
        func reports(_ order: [URL]) throws -> [String: String] {
            try? fm.removeItem(at: inputs)
            for (i, url) in order.enumerated() {
                let group = inputs.appendingPathComponent("part\(sources.firstIndex(of: url)! / 20)")
                if i == 0 || !fm.fileExists(atPath: group.path) { try fm.createDirectory(at: group, withIntermediateDirectories: true) }
                try fm.copyItem(at: url, to: group.appendingPathComponent(url.lastPathComponent))
            }
            var out: [String: String] = [:]
            for format in ["json", "sarif", "text"] {
                for jobs in [nil, "1", "2", "7"] {
                    let args = ["lint", "Corpus", "--format", format] + (jobs.map { ["--jobs", $0] } ?? [])
                    let result = try CLI.run(args, in: dir)
                    XCTAssertEqual(result.status, 1, "\(args): \(result.stderr)")
                    out["\(format) jobs=\(jobs ?? "default")"] = result.stdout
                }
            }
            return out
        }
        let forward = try reports(sources)
        let backward = try reports(sources.reversed())
        var shuffled = sources
        var rng = SystemRandomNumberGenerator()
        shuffled.shuffle(using: &rng)
        let random = try reports(shuffled)
        for format in ["json", "sarif", "text"] {
            let reference = try XCTUnwrap(forward["\(format) jobs=1"])
            // Enough findings that an order difference would show (the corpus gives about 5 KB of text).
            XCTAssertGreaterThan(reference.count, 4_000, format)
            for (name, runs) in [("forward", forward), ("backward", backward), ("shuffled", random)] {
                for (key, text) in runs where key.hasPrefix(format + " ") {
                    XCTAssertTrue(text == reference, "\(name) \(key) differs from forward \(format) jobs=1")
                }
            }
        }
    }
}
