#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Lock entries that no unit of a run pairs with: which of them the run covers, and which pair
/// with a new unit as a likely rename (a unit renamed together with its bundle ID and its file,
/// which `pair` cannot find by bundle ID or file).
extension LockFile {
    /// The entries of `unpaired` that the run covers: an entry whose file was read in the run
    /// (`read`, absolute paths), or whose file is gone (`isMissing`) from a folder the run walked
    /// (`walked`, absolute) or from the folder of a file the run read (a run over one named file
    /// covers the entries of its folder whose files no longer exist); an entry that records no
    /// file, when the run walked the lock file's folder. A path from the lock is only looked up,
    /// never opened.
    public func covered(_ unpaired: [String], read: Set<String>, walked: [String], cwd: String,
                        isMissing: (String) -> Bool) -> [String] {
        func isWalked(_ path: String) -> Bool { walked.contains { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") } }
        var readFolders: Set<String>?
        return unpaired.filter { name in
            guard let entry = units[name] else { return false }
            if let file = file(of: entry, cwd: cwd) {
                if read.contains(file) { return true }
                if isWalked(file) { return isMissing(file) }
                if readFolders == nil { readFolders = Set(read.map(Paths.directoryName)) }
                return readFolders!.contains(Paths.directoryName(file)) && isMissing(file)
            }
            return path.map { isWalked(Paths.absolute(Paths.directoryName($0), cwd: cwd)) } ?? false
        }
    }

    /// Likely renames: where exactly one unit of `newUnits` (units with no entry of their name and
    /// none paired) and exactly one entry of `orphans` (covered, unpaired) have their files in the
    /// same folder, with the same configuration (the name's last ` (...)`, as a project names its
    /// units), the pair, unit name -> entry name. A unit renamed together with its bundle ID and
    /// its file leaves exactly this trace; with two of either in a place, which goes with which is
    /// not known, and nothing is paired.
    ///
    /// An entry that records no file (a lock written before entries did) is covered only when the
    /// run walked the lock file's folder, so its place is that whole walk: it pairs with a unit
    /// only when that unit is the run's only new unit of its configuration, the entry the only
    /// orphaned entry without a file of that configuration, and no orphaned entry with a file lies
    /// in the unit's folder (which could be the unit's own past). One pass over each list.
    public func likelyRenames(newUnits: [SigningUnit], orphans: [String], cwd: String) -> [String: String] {
        var unitsByPlace: [String: [String]] = [:]
        var unitsByConfiguration: [Substring: [(name: String, folder: String)]] = [:]
        for u in newUnits where units[u.name] == nil {
            let folder = Paths.directoryName(Paths.absolute(u.entitlementsPath, cwd: cwd))
            let configuration = Self.configurationSuffix(of: u.name)
            unitsByPlace[folder + "\u{0}" + configuration, default: []].append(u.name)
            unitsByConfiguration[configuration, default: []].append((u.name, folder))
        }
        var entriesByPlace: [String: [String]] = [:]
        var filelessByConfiguration: [Substring: [String]] = [:]
        var foldersWithEntries = Set<String>()
        for name in orphans {
            guard let entry = units[name] else { continue }
            guard let file = file(of: entry, cwd: cwd) else {
                filelessByConfiguration[Self.configurationSuffix(of: name), default: []].append(name)
                continue
            }
            foldersWithEntries.insert(Paths.directoryName(file))
            entriesByPlace[Paths.directoryName(file) + "\u{0}" + Self.configurationSuffix(of: name), default: []].append(name)
        }
        var out: [String: String] = [:]
        for (place, names) in unitsByPlace where names.count == 1 {
            guard let entries = entriesByPlace[place], entries.count == 1 else { continue }
            out[names[0]] = entries[0]
        }
        for (configuration, entries) in filelessByConfiguration where entries.count == 1 {
            guard let candidates = unitsByConfiguration[configuration], candidates.count == 1,
                  out[candidates[0].name] == nil, !foldersWithEntries.contains(candidates[0].folder) else { continue }
            out[candidates[0].name] = entries[0]
        }
        return out
    }

    /// ` (Debug)` of `App (Debug)`: the last parenthesised part that ends a name, else "".
    static func configurationSuffix(of name: String) -> Substring {
        guard name.hasSuffix(")"), let open = name.lastRange(of: " (") else { return "" }
        return name[open.lowerBound...]
    }

    /// The note a finding about a likely rename carries.
    public func likelyRenameNote(unit: String, entry: String) -> String {
        guard let file = units[entry]?.entitlements else {
            return "compared with lock entry \"\(entry)\" as a likely rename: \"\(unit)\" is the only new unit of this run, and \"\(entry)\" the only entry recording no file that matches no unit"
        }
        return "compared with lock entry \"\(entry)\" (\(file)) as a likely rename: \"\(unit)\" is the only new unit of its folder, and \"\(entry)\" the only entry there that matches no unit"
    }
}
