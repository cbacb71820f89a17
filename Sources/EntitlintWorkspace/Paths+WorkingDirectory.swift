#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import EntitlintCore

/// The process's current folder, which a run over files resolves and shows paths against. The
/// core takes the folder as an argument (it asks the system nothing); these are the run's
/// shorthands that ask.
extension Paths {
    /// The current folder, or `.` when the system cannot say (it was removed, or its path is
    /// longer than 4,095 bytes).
    public static func currentDirectory() -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buf, buf.count) != nil else { return "." }
        let length = buf.firstIndex(of: 0) ?? buf.count
        return String(decoding: buf[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` absolute against the current folder.
    public static func absolute(_ path: String) -> String {
        absolute(path, cwd: currentDirectory())
    }

    /// `path` as shown to the user: relative to the current folder when it lies inside it.
    public static func display(_ path: String) -> String {
        display(path, cwd: currentDirectory())
    }
}
