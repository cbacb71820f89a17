import EntitlintCore
import EntitlintWorkspace
import PropertyList
import Provisioning

// How one built product is walked: a standalone binary, or a bundle and its nested bundles, each
// bundle's Info.plist, embedded profile and executable read from its `BundleStorage`.

/// Forms the units of one product, collecting findings for what cannot be read.
struct BundleUnitReader {
    let limits: PlistLimits
    let maxBundles: Int
    var bundles = 0
    var result = ArtifactReadResult()
    static let maxDepth = 4
    static let smallFileLimit = 4 << 20

    init(limits: PlistLimits, maxBundles: Int) {
        self.limits = limits
        self.maxBundles = maxBundles
    }

    mutating func fail(_ shown: String, _ reason: String, unit: String? = nil) {
        result.findings.append(Finding(rule: "parse-error", severity: .error, message: "cannot read built product: \(reason)",
                                       path: shown, unit: unit))
        if !result.paths.contains(shown) { result.paths.append(shown) }
    }

    mutating func problems(of storage: BundleStorage) {
        for p in storage.problems { fail(storage.shown(""), p) }
    }

    /// A Mach-O file named on the command line: one unit, no bundle around it.
    mutating func standalone(_ path: String, shown: String) {
        let file: MachOFile
        do throws(ArtifactError) {
            file = try MachOReader.read(try FileBytes(path: path), maxBlob: limits.maxBytes)
        } catch {
            fail(shown, error.reason)
            return
        }
        let name = Paths.stem(path)
        result.paths.append(shown)
        formUnit(name: name, executableShown: shown, file: file, info: nil, profile: nil, hasProfile: false,
                 platform: .unknown, kind: .standaloneBinary, bundleShown: shown)
    }

    /// One bundle at `path` inside `storage`, then its nested bundles.
    mutating func bundle(_ storage: BundleStorage, _ path: String, kind: BuiltArtifactFacts.BundleKind, depth: Int,
                         watch: WatchContext? = nil) {
        bundles += 1
        guard bundles <= maxBundles else {
            if bundles == maxBundles + 1 { fail(storage.shown(""), "more than \(maxBundles) bundles: the rest are not read") }
            return
        }
        let macOS = storage.isFile(join(path, "Contents/Info.plist"))
        let contents = macOS ? join(path, "Contents") : path
        let bundleShown = storage.shown(path)
        let folderName = path.isEmpty ? (bundleShown.split(separator: "/").last.map(String.init) ?? bundleShown) : String(path.split(separator: "/").last!)
        let name = folderName.split(separator: ".").dropLast().joined(separator: ".").isEmpty
            ? folderName : folderName.split(separator: ".").dropLast().joined(separator: ".")

        let info = readInfo(storage, contents: contents, macOS: macOS, bundleShown: bundleShown, unit: name)
        let profilePath = macOS ? join(contents, "embedded.provisionprofile") : join(path, "embedded.mobileprovision")
        let hasProfile = storage.isFile(profilePath)
        let profile = hasProfile ? readProfile(storage, profilePath, unit: name) : nil

        // The executable.
        let executableName = info.executable ?? name
        let executable = macOS ? join(contents, "MacOS/" + executableName) : join(path, executableName)
        let executableShown = storage.shown(executable)
        if storage.isFile(executable) {
            result.paths.append(executableShown)
            do throws(ArtifactError) {
                let file = try storage.machO(executable, maxBlob: limits.maxBytes)
                formUnit(name: name, executableShown: executableShown, file: file, info: info.bundleID, profile: profile,
                         hasProfile: hasProfile, platform: macOS ? .macOS : .iOS, kind: kind, bundleShown: bundleShown)
                if let watch, watch.inWatch { note(watch, onUnitOf: bundleShown) }
            } catch {
                fail(executableShown, error.reason, unit: name)
            }
        } else if info.bundleID != nil || info.executable != nil {
            fail(executableShown, "the executable named by CFBundleExecutable is missing", unit: name)
        }

        guard depth < Self.maxDepth else { return }
        nestedBundles(storage, in: contents, depth: depth,
                      watch: watch ?? (!macOS && kind == .app ? phoneApp(bundleShown) : nil))
    }

    /// The bundle's Info.plist: its bundle ID and executable name, both nil when it is missing or
    /// cannot be read or parsed (each reported).
    private mutating func readInfo(_ storage: BundleStorage, contents: String, macOS: Bool, bundleShown: String,
                                   unit name: String) -> (bundleID: String?, executable: String?) {
        var info: (bundleID: String?, executable: String?) = (nil, nil)
        let infoPath = join(contents, "Info.plist")
        if storage.isFile(infoPath) {
            do throws(ArtifactError) {
                let bytes = try storage.read(infoPath, limit: Self.smallFileLimit)
                result.paths.append(storage.shown(infoPath))
                do {
                    let doc = try PropertyListReader.parse(bytes, limits: limits)
                    info = (doc.root.dict?["CFBundleIdentifier"]?.string, doc.root.dict?["CFBundleExecutable"]?.string)
                } catch {
                    fail(storage.shown(infoPath), "cannot parse Info.plist: \(error.reason)", unit: name)
                }
            } catch {
                fail(storage.shown(infoPath), error.reason, unit: name)
            }
        } else {
            fail(bundleShown, "no \(macOS ? "Contents/" : "")Info.plist: not a bundle", unit: name)
        }
        return info
    }

    /// The embedded profile at `profilePath` (the caller has seen the file), decoded and added to
    /// the result; nil when it cannot be read or parsed (reported).
    private mutating func readProfile(_ storage: BundleStorage, _ profilePath: String, unit name: String) -> ProfileFile? {
        var profile: ProfileFile?
        let shownProfile = storage.shown(profilePath)
        result.paths.append(shownProfile)
        do throws(ArtifactError) {
            let bytes = try storage.read(profilePath, limit: limits.maxBytes)
            do {
                let decoded = try ProfileDecoder.decode(bytes, limits: limits)
                if let (problem, location) = DocumentReader.oversizedEntitlementString(in: PlistNode(.dict(decoded.entitlements))) {
                    result.findings.append(Finding(rule: "parse-error", severity: .error, message: "cannot parse profile: its Entitlements hold \(problem)",
                                                   path: shownProfile, line: location.line, column: location.column, unit: name))
                    return nil
                }
                let p = ProfileFile(path: shownProfile, profile: decoded)
                profile = p
                result.profiles.append(p)
            } catch {
                result.findings.append(Finding(rule: "parse-error", severity: .error, message: "cannot parse profile: \(error.reason)",
                                               path: shownProfile, line: error.location.line, column: error.location.column, unit: name))
            }
        } catch {
            fail(shownProfile, error.reason, unit: name)
        }
        return profile
    }

    /// The bundles nested in `contents` (app and ExtensionKit extensions, watch apps, App Clips,
    /// login items), each read one level deeper.
    /// `watch`: the iPhone app this bundle is (read for its `Watch/` folder), or the watch app it
    /// is in (passed on to what it nests).
    private mutating func nestedBundles(_ storage: BundleStorage, in contents: String, depth: Int, watch: WatchContext?) {
        let nested: [(String, String, BuiltArtifactFacts.BundleKind)] = [
            ("PlugIns", ".appex", .appExtension), ("Extensions", ".appex", .extensionKit), ("Watch", ".app", .watchApp),
            ("AppClips", ".app", .appClip), ("Library/LoginItems", ".app", .app),
        ]
        for (folder, ext, nestedKind) in nested {
            let dir = join(contents, folder)
            guard storage.isDirectory(dir) else { continue }
            for child in storage.children(dir) where child.lowercased().hasSuffix(ext) && storage.isDirectory(join(dir, child)) {
                var inWatch = watch?.inWatch == true ? watch : nil
                if folder == "Watch", var w = watch, !w.inWatch {
                    w.inWatch = true
                    w.synchronizable = Self.mentionsSynchronizable(storage, join(dir, child))
                    inWatch = w
                }
                bundle(storage, join(dir, child), kind: nestedKind, depth: depth + 1, watch: inWatch)
            }
        }
    }
}
