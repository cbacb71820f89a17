import SourceCode
import XCTest

/// Scans `text` as one file. Every test that scans through here also checks the pre-filter's
/// promise: a file that gives a site or a save holds a trigger word (else the index would skip it).
func scan(_ text: String, _ language: SourceLanguage = .swift, file: StaticString = #filePath, line: UInt = #line) -> ScannedSource {
    let bytes = Array(text.utf8)
    let source = SourceScanner.scan(bytes, language: language)
    if !(source.groups.isEmpty && source.saves.isEmpty), !SourceFilter.mayHaveSites(bytes) {
        XCTFail("the pre-filter would skip a file with \(source.groups.count) sites and \(source.saves.count) saves", file: file, line: line)
    }
    return source
}

/// Resolves every group site of `files` (path, text) over the unit they make.
func resolveGroups(_ files: [(String, String)], infoPlist: [String: String] = [:]) -> [ResolvedString] {
    let scanned = files.map { (path: $0.0, source: scan($0.1, SourceLanguage(path: $0.0) ?? .swift)) }
    let resolver = StringResolver(files: scanned, infoPlist: infoPlist)
    return scanned.flatMap { file in file.source.groups.map { resolver.resolve($0.value, in: file.path, line: $0.line) } }
}
