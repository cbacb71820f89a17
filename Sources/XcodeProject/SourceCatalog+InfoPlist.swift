import EntitlintCore
import EntitlintWorkspace
import PropertyList

// A unit's Info.plist: its string entries at the root, evaluated with the unit's settings, bounded
// in count and size.
extension SourceCatalog {
    /// The Info.plist at `path` (usable from the current folder), read through `cache`: its
    /// string entries at the root, each evaluated with `evaluate` (nil: left out), at most
    /// `maxInfoPlistEntries` of at most `maxInfoPlistValue` bytes. Nil when it cannot be read.
    static func infoPlist(_ document: PlistDocument, evaluate: (String) -> String?) -> [String: String] {
        guard let dict = document.root.dict else { return [:] }
        var out: [String: String] = [:]
        for entry in dict.entries.prefix(maxInfoPlistEntries) {
            guard let s = entry.value.string, s.utf8.count <= maxInfoPlistValue, entry.key.utf8.count <= maxInfoPlistValue else { continue }
            if !s.utf8.contains(UInt8(ascii: "$")) {
                out[entry.key] = s
            } else if let v = evaluate(s), v.utf8.count <= maxInfoPlistValue {
                out[entry.key] = v
            }
        }
        return out
    }

    /// `text` with its build-setting references expanded by `settings`; `$(AppIdentifierPrefix)`
    /// and `$(TeamIdentifierPrefix)` stay as written (no level sets them); nil when a reference
    /// cannot be resolved (a cycle, an unreadable xcconfig below it, an unsupported operator).
    static func evaluate(_ text: String, settings: SettingsEvaluator) -> String? {
        let part = settings.expand(text, setting: "", index: settings.entries.count, depth: 0)
        return part.problem == nil ? part.text : nil
    }

    /// The unit's Info.plist, `path` usable from the current folder: its evaluated entries, or
    /// the file listed as missing when it is not on disk (or outside the root).
    /// A name that differs from the file's only in case is read as a case-insensitive volume (the
    /// macOS default) reads it.
    func addInfoPlist(_ path: String, entitlements: EntitlementsCache, settings: SettingsEvaluator, to sources: inout UnitSources) {
        var path = path
        if files.kind(path) != .file, let variant = files.caseVariant(of: path), files.kind(variant) == .file { path = variant }
        guard files.kind(path) == .file, !files.isOutside(path) else {
            // Not a code file: it cannot already be among the target's missing files.
            sources.missing.append(files.shown(path))
            return
        }
        guard case .success(let document) = entitlements.document(path) else { return }
        sources.infoPlistPath = files.shown(path)
        sources.infoPlist = Self.infoPlist(document) { Self.evaluate($0, settings: settings) }
    }
}
