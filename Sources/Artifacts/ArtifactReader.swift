public import EntitlintCore
public import EntitlintWorkspace
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
public struct ArtifactReader: ArtifactReading {
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
    mutating func bundle(_ storage: BundleStorage, _ path: String, kind: BuiltArtifactFacts.BundleKind, depth: Int) {
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

        // Info.plist: bundle ID and executable name.
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

        // Embedded profile.
        let profilePath = macOS ? join(contents, "embedded.provisionprofile") : join(path, "embedded.mobileprovision")
        var profile: ProfileFile?
        let hasProfile = storage.isFile(profilePath)
        if hasProfile {
            let shownProfile = storage.shown(profilePath)
            result.paths.append(shownProfile)
            do throws(ArtifactError) {
                let bytes = try storage.read(profilePath, limit: limits.maxBytes)
                do {
                    let p = ProfileFile(path: shownProfile, profile: try ProfileDecoder.decode(bytes, limits: limits))
                    profile = p
                    result.profiles.append(p)
                } catch {
                    result.findings.append(Finding(rule: "parse-error", severity: .error, message: "cannot parse profile: \(error.reason)",
                                                   path: shownProfile, line: error.location.line, column: error.location.column, unit: name))
                }
            } catch {
                fail(shownProfile, error.reason, unit: name)
            }
        }

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
            } catch {
                fail(executableShown, error.reason, unit: name)
            }
        } else if info.bundleID != nil || info.executable != nil {
            fail(executableShown, "the executable named by CFBundleExecutable is missing", unit: name)
        }

        // Nested bundles.
        guard depth < Self.maxDepth else { return }
        let nested: [(String, String, BuiltArtifactFacts.BundleKind)] = [
            ("PlugIns", ".appex", .appExtension), ("Extensions", ".appex", .extensionKit), ("Watch", ".app", .watchApp),
            ("AppClips", ".app", .appClip), ("Library/LoginItems", ".app", .app),
        ]
        for (folder, ext, nestedKind) in nested {
            let dir = join(contents, folder)
            guard storage.isDirectory(dir) else { continue }
            for child in storage.children(dir) where child.lowercased().hasSuffix(ext) && storage.isDirectory(join(dir, child)) {
                bundle(storage, join(dir, child), kind: nestedKind, depth: depth + 1)
            }
        }
    }

    /// Turns a read binary into a unit: the first slice with entitlements gives them; the other
    /// slices are compared with it.
    mutating func formUnit(name: String, executableShown: String, file: MachOFile, info bundleID: String?, profile: ProfileFile?,
                           hasProfile: Bool, platform: Platform, kind: BuiltArtifactFacts.BundleKind, bundleShown: String) {
        for slice in file.slices {
            if let error = slice.error { fail(executableShown, "\(slice.architecture) slice: \(error.reason)", unit: name) }
        }
        let good = file.slices.filter { $0.error == nil }
        guard let first = good.first(where: { $0.xmlEntitlements != nil || $0.derEntitlements != nil || $0.simulatorEntitlements != nil })
                ?? good.first else { return }

        var document = PlistDocument(root: PlistNode(.dict(PlistDictionary())), format: .xml)
        var source = BuiltArtifactFacts.EntitlementsSource.none
        var derNode: PlistNode?
        var derError: String?
        if let der = first.derEntitlements {
            do throws(DERValueError) { derNode = try DEREntitlements.decode(der, maxElements: limits.maxElements) } catch { derError = error.reason }
        }
        if let xml = first.xmlEntitlements ?? first.simulatorEntitlements {
            do {
                document = try PropertyListReader.parse(xml, limits: limits)
                source = first.xmlEntitlements != nil ? .codeSignatureXML : .simulatorSection
            } catch {
                let where_ = first.xmlEntitlements != nil ? "the XML entitlements (slot 5)" : "the __TEXT,__entitlements section"
                fail(executableShown, "\(first.architecture): \(where_) cannot be parsed: \(error.reason)", unit: name)
                return
            }
        } else if let derNode {
            document = PlistDocument(root: derNode, format: .binary)
            source = .codeSignatureDER
        }

        var disagreements: [String] = []
        for other in good where other != first {
            let otherRoot: PlistNode?
            if let xml = other.xmlEntitlements ?? other.simulatorEntitlements {
                otherRoot = try? PropertyListReader.parse(xml, limits: limits).root
            } else if let der = other.derEntitlements {
                otherRoot = try? DEREntitlements.decode(der, maxElements: limits.maxElements)
            } else {
                otherRoot = PlistNode(.dict(PlistDictionary()))
            }
            guard let otherRoot else { continue }
            if let d = PlistComparison.differences(document.root, otherRoot, aName: first.architecture, bName: other.architecture, limit: 1).first {
                disagreements.append(d.description)
            }
        }

        var unit = SigningUnit(name: name, entitlementsPath: executableShown, document: document, profile: profile,
                               platform: profile.map { $0.profile.isMacOS ? .macOS : .iOS } ?? platform)
        let ent = unit.entitlements
        if let bundleID {
            unit.bundleID = Fact(bundleID, from: .derived("CFBundleIdentifier of \(bundleShown)"))
        }
        if let p = profile?.profile {
            if let prefix = p.applicationIdentifierPrefixes.first { unit.appIDPrefix = Fact(prefix, from: .profile(profile!.path)) }
            if let team = p.teamIdentifiers.first { unit.teamID = Fact(team, from: .profile(profile!.path)) }
        }
        let appIDKey = ent["application-identifier"] != nil ? "application-identifier" : "com.apple.application-identifier"
        if let appID = ent[appIDKey]?.string, let dot = appID.firstIndex(of: "."), String(appID[..<dot]).isTeamIDLike {
            if unit.appIDPrefix == nil { unit.appIDPrefix = Fact(String(appID[..<dot]), from: .entitlements(key: appIDKey)) }
            if unit.bundleID == nil {
                let rest = String(appID[appID.index(after: dot)...])
                if !rest.isEmpty, !rest.contains("*") { unit.bundleID = Fact(rest, from: .entitlements(key: appIDKey)) }
            }
        }
        if unit.teamID == nil, let t = ent["com.apple.developer.team-identifier"]?.string, t.isTeamIDLike {
            unit.teamID = Fact(t, from: .entitlements(key: "com.apple.developer.team-identifier"))
        }
        if unit.appIDPrefix == nil, let team = unit.teamID {
            unit.appIDPrefix = Fact(team.value, from: .derived("App ID prefix taken to be the Team ID (\(team.source))"))
        }
        if unit.platform == .unknown, ent["com.apple.application-identifier"] != nil || ent["com.apple.security.app-sandbox"] != nil {
            unit.platform = .macOS
        }
        unit.artifact = BuiltArtifactFacts(
            bundlePath: bundleShown, bundleKind: kind, infoPlistBundleID: bundleID, entitlementsSource: source,
            architectures: file.slices.map(\.architecture), isSigned: first.isSigned, derEntitlements: derNode,
            derEntitlementsError: derError, hasXMLEntitlements: first.xmlEntitlements != nil, hasEmbeddedProfile: hasProfile,
            sliceDisagreements: disagreements)
        // Who signed: the CMS of slot 0x10000. A damaged one is a problem with the product (like a
        // damaged blob), but the unit is still linted, as signed by an unknown certificate.
        if let cms = first.cmsSignature {
            do throws(ProfileError) {
                if let certificate = try CodeSignatureCMS.signingCertificate(cms, maxElements: limits.maxElements) {
                    unit.artifact?.signingCertificate = CertificateFact(certificate, from: .derived("the CMS signature (slot 0x10000) of \(executableShown)"))
                }
            } catch {
                unit.artifact?.signatureError = error.reason
                fail(executableShown, "\(first.architecture): the CMS signature (slot 0x10000) cannot be read: \(error.reason)", unit: name)
            }
        }
        result.units.append(unit)
    }
}
