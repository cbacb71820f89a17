public import EntitlintCore
import EntitlintWorkspace
public import PropertyList
import Provisioning
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads built products into signing units: an `.app` folder (iOS layout,
/// or macOS `Contents/`), an `.xcarchive` (`Products/Applications/*.app`), an `.ipa` (a zip with
/// `Payload/*.app`), or a Mach-O binary. Every bundle, nested ones included (`PlugIns/*.appex`,
/// `Extensions/*.appex`, `Watch/*.app`, `AppClips/*.app`; on macOS under `Contents/`, plus
/// `Contents/Library/LoginItems/*.app`), becomes a unit with the entitlements signed into its
/// executable, its `Info.plist` bundle ID and its embedded profile (keychain-access-groups.md section 7).
public struct ArtifactReader: Sendable {
    /// Bounds on reading `.ipa` archives.
    public var zipLimits: ZipLimits
    /// Most bundles read from one product (nested ones included).
    public var maxBundles: Int

    public init(zipLimits: ZipLimits = .default, maxBundles: Int = 500) {
        self.zipLimits = zipLimits
        self.maxBundles = maxBundles
    }

    /// Products are recognised by name (`.app`, `.appex`, `.xcarchive`, `.ipa`, any case) or, for
    /// a file of another name, by a Mach-O magic number in its first 8 bytes. Entitlements files,
    /// profiles and the other inputs of a lint run are never opened here.
    public func handles(_ path: String) -> Bool {
        switch Self.productKind(path) {
        case .some: return true
        case nil: break
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."),
           ["entitlements", "xcent", "plist", "mobileprovision", "provisionprofile", "yml", "yaml", "json", "pbxproj",
            "xcconfig", "md", "txt", "swift"].contains(name[name.index(after: dot)...].lowercased()) {
            return false
        }
        return Self.hasMachOMagic(path)
    }

    enum ProductKind { case app, archive, ipa }

    static func productKind(_ path: String) -> ProductKind? {
        var p = path
        while p.hasSuffix("/") && p.count > 1 { p.removeLast() }
        let lower = p.lowercased()
        if lower.hasSuffix(".app") || lower.hasSuffix(".appex") { return .app }
        if lower.hasSuffix(".xcarchive") { return .archive }
        if lower.hasSuffix(".ipa") { return .ipa }
        return nil
    }

    static func hasMachOMagic(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size >= 8 else { return false }
        guard let head = try? FileBytes(path: path).bytes(at: 0, count: 8) else { return false }
        return MachOReader.looksLikeMachO(head)
    }

    public func read(_ path: String, shown: String, limits: PlistLimits) -> ArtifactReadResult {
        var shownRoot = shown
        while shownRoot.hasSuffix("/") && shownRoot.count > 1 { shownRoot.removeLast() }
        var reader = BundleUnitReader(limits: limits, maxBundles: maxBundles)
        switch Self.productKind(path) {
        case .ipa?:
            do throws(ArtifactError) {
                let storage = try ZipStorage(path: path, shownRoot: shownRoot, limits: zipLimits)
                reader.problems(of: storage)
                let apps = storage.children("Payload").filter { $0.lowercased().hasSuffix(".app") }
                if apps.isEmpty { reader.fail(shownRoot, "the archive has no Payload/*.app: not an .ipa") }
                for app in apps { reader.bundle(storage, join("Payload", app), kind: .app, depth: 0) }
            } catch {
                reader.fail(shownRoot, error.reason)
            }
        case .archive?:
            let storage = DirectoryStorage(root: path, shownRoot: shownRoot)
            let apps = storage.children("Products/Applications").filter { $0.lowercased().hasSuffix(".app") }
            if apps.isEmpty { reader.fail(shownRoot, "the archive has no Products/Applications/*.app") }
            for app in apps { reader.bundle(storage, "Products/Applications/" + app, kind: .app, depth: 0) }
        case .app?:
            guard Paths.kind(path) == .directory else {
                reader.fail(shownRoot, "an app bundle must be a folder")
                break
            }
            let storage = DirectoryStorage(root: path, shownRoot: shownRoot)
            let lower = path.lowercased()
            reader.bundle(storage, "", kind: lower.hasSuffix(".appex") || lower.hasSuffix(".appex/") ? .appExtension : .app, depth: 0)
        case nil:
            reader.standalone(path, shown: shownRoot)
        }
        return reader.result
    }
}
