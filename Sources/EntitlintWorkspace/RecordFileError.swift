/// Why a file the run reads as a record of an earlier state (the lock file, a baseline) could not
/// be used: it could not be read, or it is not a valid record. The message names the file as
/// `name` says (`lock file`, `the baseline`) and its path.
public enum RecordFileError: Error, CustomStringConvertible, Equatable {
    case unreadable(name: String, path: String, why: String)
    case invalid(name: String, path: String, why: String)

    public var description: String {
        switch self {
        case .unreadable(let name, let p, let why): return "cannot read \(name) \(p): \(why)"
        case .invalid(let name, let p, let why): return "\(name) \(p) is not valid: \(why)"
        }
    }
}
