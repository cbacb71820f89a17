public import EntitlintCore
public import PropertyList

/// The documents stage for files on disk: each read within the run's limits, then parsed.
extension DocumentReader {
    /// Reads and parses one file (`parse(bytes:path:limits:)`).
    public static func parse(path: String, limits: PlistLimits) -> ParsedInput {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.read(path, limit: limits.maxBytes)
        } catch {
            return unread(error)
        }
        return parse(bytes: bytes, path: path, limits: limits)
    }

    /// A file that could not be read: over the file-size limit is a limit of the run, anything
    /// else (missing, not permitted, not a regular file) an unreadable path.
    static func unread(_ error: FileReader.ReadError) -> ParsedInput {
        let rule = if case .tooLarge = error { ToolFindings.readLimit } else { ToolFindings.unreadablePath }
        return .unread(reason: "cannot read the file: \(error)", rule: rule)
    }

    /// The finding text for a file not read because the run's byte budget was spent.
    static func overBudgetReason(_ limit: Int) -> String {
        "not read: the files before it in this run already take the bytes read past the limit of \(limit) bytes in total (\(RunLimits.howToRaise(RunLimits.totalBytesName)))"
    }

    /// Parses every path on `jobs` threads (0: one per core), reading at most `maxTotalBytes` in all.
    ///
    /// Which files are read does not depend on threads or timing: when the budget runs out, the
    /// files are taken in path order, the first one that would pass the limit and every later
    /// one are reported as not read, and any earlier one a racing thread skipped is read then.
    static func parseAll(_ paths: [String], limits: PlistLimits, maxTotalBytes: Int, jobs: Int) -> [ParsedInput] {
        let budget = ReadBudget(limit: maxTotalBytes)
        let results = UnsafeMutableBufferPointer<ParsedInput>.allocate(capacity: paths.count)
        results.initialize(repeating: .failed(reason: "", location: .unknown))
        let sizes = UnsafeMutableBufferPointer<Int>.allocate(capacity: paths.count)
        sizes.initialize(repeating: 0)
        let skipped = UnsafeMutableBufferPointer<Bool>.allocate(capacity: paths.count)
        skipped.initialize(repeating: false)
        defer { results.deallocate(); sizes.deallocate(); skipped.deallocate() }
        nonisolated(unsafe) let out = results, sizeOut = sizes, skipOut = skipped

        @Sendable func one(_ i: Int) {
            do {
                let bytes = try FileReader.read(paths[i], limit: limits.maxBytes) { size in
                    sizeOut[i] = size
                    return budget.take(size)
                }
                out[i] = parse(bytes: bytes, path: paths[i], limits: limits)
            } catch .overBudget {
                skipOut[i] = true
            } catch {
                out[i] = unread(error)
            }
        }
        Parallel.forEach(paths.count, jobs: jobs, one)
        if budget.refused {
            // The deterministic cut: the first file, in path order, past the limit.
            var total = 0
            var cut = paths.count
            for i in paths.indices {
                if sizes[i] > maxTotalBytes - total { cut = i; break }
                total += sizes[i]
            }
            let notRead = ParsedInput.unread(reason: overBudgetReason(maxTotalBytes), rule: ToolFindings.readLimit)
            for i in paths.indices {
                if i >= cut {
                    out[i] = notRead
                } else if skipped[i] {
                    do {
                        let bytes = try FileReader.read(paths[i], limit: limits.maxBytes)
                        out[i] = parse(bytes: bytes, path: paths[i], limits: limits)
                    } catch {
                        out[i] = unread(error)
                    }
                }
            }
        }
        return Array(results)
    }
}
