import Foundation
public import EntitlintCore

extension Baseline {
    public enum LoadError: Error, CustomStringConvertible, Equatable {
        case unreadable(String, String)
        case invalid(String, String)
        public var description: String {
            switch self {
            case .unreadable(let p, let why): return "cannot read the baseline \(p): \(why)"
            case .invalid(let p, let why): return "the baseline \(p) is not valid: \(why)"
            }
        }
    }

    public static func load(path: String) throws(LoadError) -> Baseline {
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, limit: 64 << 20) } catch {
            throw .unreadable(path, error == .notFound ? "no such file (write one with --write-baseline \(path))" : "\(error)")
        }
        let baseline: Baseline
        do { baseline = try JSONDecoder().decode(Baseline.self, from: Data(bytes)) } catch {
            throw .invalid(path, Self.describe(error))
        }
        guard baseline.version == 1 else { throw .invalid(path, "unsupported version \(baseline.version)") }
        if let bad = baseline.findings.first(where: { $0.times < 1 }) {
            throw .invalid(path, "count of \(bad.summary) must be at least 1")
        }
        return baseline
    }
}
