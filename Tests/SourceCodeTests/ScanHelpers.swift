import SourceCode

/// Scans `text` as one file.
func scan(_ text: String, _ language: SourceLanguage = .swift) -> ScannedSource {
    SourceScanner.scan(Array(text.utf8), language: language)
}

/// Resolves every group site of `files` (path, text) over the unit they make.
func resolveGroups(_ files: [(String, String)], infoPlist: [String: String] = [:]) -> [ResolvedString] {
    let scanned = files.map { (path: $0.0, source: scan($0.1, SourceLanguage(path: $0.0) ?? .swift)) }
    let resolver = StringResolver(files: scanned, infoPlist: infoPlist)
    return scanned.flatMap { file in file.source.groups.map { resolver.resolve($0.value, in: file.path, line: $0.line) } }
}
