extension VirtualFiles {
    /// `files` (absolute path -> bytes) over `base` (nil: over the disk): what a run reads when
    /// some files are to be linted as edited in memory; every other path reads as `base` or the
    /// disk has it.
    public static func overlaying(_ files: [String: [UInt8]], over base: VirtualFiles?) -> VirtualFiles {
        guard let base else { return VirtualFiles(files: files, exclusive: false) }
        return VirtualFiles(paths: Array(Set(base.paths).union(files.keys)), exclusive: base.exclusive) { wanted in
            var out: [String: GitRepository.Blob] = [:]
            for path in wanted {
                if let bytes = files[path] {
                    out[path] = .bytes(bytes, oid: nil)
                    continue
                }
                switch base.bytes(path, cwd: "/") {
                case .success(let bytes)?: out[path] = .bytes(bytes, oid: nil)
                case .failure(let error)?: out[path] = .unreadable(error.description)
                case nil: break
                }
            }
            return .success(out)
        }
    }
}
