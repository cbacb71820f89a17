#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import EntitlintCore

extension Baseline {
    /// A baseline that cannot be used (`RecordFileError`, naming it "the baseline").
    public typealias LoadError = RecordFileError

    /// The baseline at `path`, read from `trusted` when the run reads its configuration from a
    /// revision (`TrustedFiles`): one the revision lacks is missing, whatever the disk holds.
    public static func load(path: String, from trusted: TrustedFiles? = nil) throws(LoadError) -> Baseline {
        let bytes: [UInt8]
        do { bytes = try TrustedFiles.read(path, limit: 64 << 20, in: trusted) } catch {
            let missing = trusted.map { "no such file at revision \(OutputText.escape($0.revision)) (--config-from: the baseline is read as the revision has it; commit it there first)" }
                ?? "no such file (write one with --write-baseline \(path))"
            throw .unreadable(name: "the baseline", path: path, why: error == .notFound ? missing : "\(error)")
        }
        let baseline: Baseline
        do { baseline = try JSONDecoder().decode(Baseline.self, from: Data(bytes)) } catch {
            throw .invalid(name: "the baseline", path: path, why: Self.describe(error))
        }
        guard baseline.version == 1 else { throw .invalid(name: "the baseline", path: path, why: "unsupported version \(baseline.version)") }
        return baseline
    }
}
