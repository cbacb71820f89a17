import EntitlintWorkspace
import FuzzSupport

/// libFuzzer entry point for the parsers of git's output (`GitOutput`). The first byte chooses the
/// parser: 0 `ls-tree -r -z`, 1 `ls-files --stage -z`, 2 `diff --raw -z`, 3 `cat-file --batch`
/// (the lines before the first empty line are `--batch-check` answers, giving the objects to
/// expect; the rest is the `--batch` output). Any bytes parse without a trap; what is returned
/// holds what the reader relies on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGitOutput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    GitOutputInput.check(fuzzInput(data, size))
    return 0
}

enum GitOutputInput {
    static func check(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        switch selector % 4 {
        case 0:
            for e in GitOutput.lsTree(rest) { precondition(!e.mode.isEmpty && !e.path.isEmpty, "an ls-tree entry without mode or path") }
        case 1:
            let entries = GitOutput.lsFilesStage(rest)
            precondition(Set(entries.map(\.path)).count == entries.count, "a path listed twice")
        case 2:
            for c in GitOutput.rawDiff(rest) { FuzzCheck.sink &+= Int(c.status) }
        default:
            var split = rest.endIndex
            for i in rest.indices.dropLast() where rest[i] == 0x0A && rest[i + 1] == 0x0A { split = i + 1; break }
            let expected: [(oid: String, size: Int)] = GitOutput.batchCheck(Array(rest[..<split])).compactMap {
                if case .object(let oid, _, let size) = $0 { return (oid, size) }
                return nil
            }
            let output = split < rest.endIndex ? Array(rest[(split + 1)...]) : []
            if let contents = GitOutput.batch(output, expected: expected) {
                for (oid, size) in expected { precondition(contents[oid]?.count == size, "contents of another size than asked") }
            }
        }
    }
}
