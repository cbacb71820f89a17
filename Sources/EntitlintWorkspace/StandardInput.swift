import EntitlintCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PropertyList

extension FileReader {
    /// Reads standard input to its end, refusing more than `limit` bytes (`--max-file-size`).
    public static func readStandardInput(limit: Int) throws(ReadError) -> [UInt8] {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { raw in Glibc_read(STDIN_FILENO, raw.baseAddress!, raw.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(errnoText())
            }
            if n == 0 { return buffer }
            if buffer.count + n > limit { throw .tooLarge(limit: limit) }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
