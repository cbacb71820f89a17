import Foundation

/// The inputs of the fuzz harnesses that the test targets replay: `Tests/Fuzz/Seeds/<harness>/`
/// (what a harness starts from) and `Tests/Fuzz/Regressions/<harness>/` (what it kept after a
/// crash, leak or timeout). They live outside every test target's folder, so the package needs
/// no resource rules; they are found from this file's path.
public enum FuzzInputs {
    /// `<package root>/Tests/Fuzz`.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // TestSupport
        .deletingLastPathComponent()   // Tests
        .appendingPathComponent("Fuzz")

    /// The files of `folder` (relative to `root`, e.g. `Regressions/glob`) with their bytes, sorted
    /// by name; hidden files and a README are not inputs. A folder that does not exist has none.
    public static func files(_ folder: String) throws -> [(name: String, bytes: [UInt8])] {
        let dir = root.appendingPathComponent(folder)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()
        return try names.map { ($0, Array(try Data(contentsOf: dir.appendingPathComponent($0)))) }
    }
}
