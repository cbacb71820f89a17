import EntitlintCore
import PropertyList

// What a watch app inside an iPhone app shows of the iPhone app: its keychain groups, and whether
// the watch app's files mention synchronizable items (the one way the two share keychain items).

/// The iPhone app a bundle is read under, for the bundles of its `Watch/` folder.
struct WatchContext: Sendable {
    /// The iPhone app's bundle as shown.
    var phone: String
    /// Its concrete keychain groups as signed: value -> whether it is the App ID.
    var groups: [String: Bool]
    /// Whether the bundle being read is inside the watch app (the watch app included).
    var inWatch = false
    /// Whether some file of the watch app mentions synchronizable items; nil when unknown.
    var synchronizable: Bool?
}

extension BundleUnitReader {
    /// Files of one watch app read at most to find a mention of synchronizable items, and bytes
    /// in all: past either, whether it syncs is unknown.
    static let maxScannedFiles = 4_000
    static let maxScannedBytes = 512 << 20
    /// Folders deep a watch app is walked at most.
    static let maxScanDepth = 16

    /// The iPhone app whose unit was just formed from the bundle `shown`: its keychain groups as
    /// signed (`keychain-access-groups` strings, and its App ID when that list does not hold it).
    /// Nil when it formed no unit or lists none.
    func phoneApp(_ shown: String) -> WatchContext? {
        guard let unit = result.units.last, unit.artifact?.bundlePath == shown, unit.platform != .macOS else { return nil }
        var groups: [String: Bool] = [:]
        if case .array(let items)? = unit.entitlements["keychain-access-groups"]?.value {
            for item in items { if let g = item.string, !g.isEmpty, !g.contains("*") { groups[g] = false } }
        }
        for key in ["application-identifier", "com.apple.application-identifier"] {
            if let id = unit.entitlements[key]?.string, !id.isEmpty, !id.contains("*"), groups[id] == nil { groups[id] = true }
        }
        return groups.isEmpty ? nil : WatchContext(phone: shown, groups: groups)
    }

    /// Records `watch` on the unit just formed from the bundle `shown`.
    mutating func note(_ watch: WatchContext, onUnitOf shown: String) {
        guard let i = result.units.indices.last, result.units[i].artifact?.bundlePath == shown else { return }
        result.units[i].artifact?.embeddingPhoneApp = watch.phone
        result.units[i].artifact?.embeddingPhoneAppGroups = watch.groups
        result.units[i].artifact?.watchMentionsSynchronizable = watch.synchronizable
    }

    /// Whether some file under `root` holds the bytes `ynchronizable` (`kSecAttrSynchronizable`
    /// among a binary's imported symbols, a wrapper's `synchronizable`): every regular file is
    /// read, symbolic links are not followed. Nil when a file cannot be read or a bound is passed.
    static func mentionsSynchronizable(_ storage: BundleStorage, _ root: String) -> Bool? {
        let needle = Array("ynchronizable".utf8)
        var pending: [(path: String, depth: Int)] = [(root, 0)]
        var files = 0, bytes = 0
        while let (dir, depth) = pending.popLast() {
            for child in storage.children(dir) {
                let path = join(dir, child)
                if storage.isDirectory(path) {
                    guard depth < maxScanDepth else { return nil }
                    pending.append((path, depth + 1))
                    continue
                }
                guard storage.isFile(path) else { continue }
                files += 1
                guard files <= maxScannedFiles else { return nil }
                let content: [UInt8]
                do throws(ArtifactError) { content = try storage.read(path, limit: maxScannedBytes - bytes) } catch { return nil }
                bytes += content.count
                if contains(content, needle) { return true }
            }
        }
        return false
    }

    /// Whether `needle` (non-empty, first byte unique in it) occurs in `bytes`: one pass.
    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        let first = needle[0]
        var i = 0
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first {
                var j = 1
                while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}
