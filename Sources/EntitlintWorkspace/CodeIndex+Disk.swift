public import EntitlintCore

extension CodeIndex {
    /// An index over files on disk, each read up to `limit` bytes (a larger file is unreadable).
    /// A file the configuration excludes is not read (it counts as unreadable: the unit's code
    /// is then not completely known). `jobs`: threads reading a unit's files (0: one per core).
    public static func disk(limit: Int, cwd: String, virtualFiles: VirtualFiles? = nil, configuration: Configuration? = nil,
                            jobs: Int = 0) -> CodeIndex {
        let index = CodeIndex(read: { path in
            if configuration?.excludes(path, cwd: cwd) == true { return nil }
            if let virtualFiles, let result = virtualFiles.bytes(path, cwd: cwd) {
                guard case .success(let bytes) = result, bytes.count <= limit else { return nil }
                return bytes
            }
            return try? FileReader.read(path, limit: limit)
        }, display: { Paths.display($0, cwd: cwd) })
        index.jobs = jobs
        return index
    }
}
