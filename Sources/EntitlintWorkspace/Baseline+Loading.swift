#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import EntitlintCore

extension Baseline {
    /// A baseline that cannot be used (`RecordFileError`, naming it "the baseline").
    public typealias LoadError = RecordFileError

    public static func load(path: String) throws(LoadError) -> Baseline {
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, limit: 64 << 20) } catch {
            throw .unreadable(name: "the baseline", path: path, why: error == .notFound ? "no such file (write one with --write-baseline \(path))" : "\(error)")
        }
        let baseline: Baseline
        do { baseline = try JSONDecoder().decode(Baseline.self, from: Data(bytes)) } catch {
            throw .invalid(name: "the baseline", path: path, why: Self.describe(error))
        }
        guard baseline.version == 1 else { throw .invalid(name: "the baseline", path: path, why: "unsupported version \(baseline.version)") }
        return baseline
    }
}
