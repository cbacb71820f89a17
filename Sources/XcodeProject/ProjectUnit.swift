import EntitlintCore
import EntitlintWorkspace
import PropertyList

// A unit a project defines, the cache that parses each entitlements file once, and the build
// settings read for every unit.

/// A unit a project defines, with the files it depends on (to decide which units a run's paths
/// concern: "a path to one `.entitlements` file inside a project lints the units that use it").
struct ProjectUnit {
    var unit: DiscoveredUnit
    /// Absolute paths: the entitlements file, the xcconfig files, the project file.
    var uses: Set<String>
    /// Absolute path of the entitlements file, when there is one.
    var entitlements: String?
    /// Where the unit's entitlements file lives, for "units below this folder".
    var targetKey: String
}

/// Parses each entitlements file once for all the units that use it.
final class EntitlementsCache: @unchecked Sendable {
    let files: ProjectFiles
    let limits: PlistLimits
    private var parsed: [String: Result<PlistDocument, ProjectProblem>] = [:]
    private var variables: [String: [String]] = [:]
    static let plistExtensions: [[UInt8]] = ["entitlements", "xcent", "plist"].map { Array($0.utf8) }

    init(files: ProjectFiles, limits: PlistLimits) {
        self.files = files
        self.limits = limits
    }

    func document(_ path: String) -> Result<PlistDocument, ProjectProblem> {
        let abs = files.absolute(path)
        if let r = parsed[abs] { return r }
        let shown = files.shown(abs)
        let result: Result<PlistDocument, ProjectProblem>
        switch files.read(abs) {
        case .failure(let why):
            result = .failure(ProjectProblem(rule: ToolFindings.unreadablePath, file: shown, location: .unknown,
                                             message: "cannot parse property list: cannot read the file: \(why)"))
        case .success(let bytes):
            switch DocumentReader.parse(bytes: bytes, path: abs, limits: limits) {
            case .entitlements(let doc): result = .success(doc)
            case .unread(let reason, let rule):
                result = .failure(ProjectProblem(rule: rule, file: shown, location: .unknown, message: "cannot parse property list: " + reason))
            case .failed(let reason, let loc):
                // The reader's reason may quote the file; it is shown only for a file named as
                // entitlements or a plist. Another file a setting names is not quoted.
                let named = InputFiles.hasExtension(abs, in: Self.plistExtensions)
                result = .failure(ProjectProblem(file: shown, location: loc, message: "cannot parse property list: " + (named ? reason
                    : "not a property list (the file is not named .entitlements, .xcent or .plist, so none of it is shown)")))
            case .profile:
                result = .failure(ProjectProblem(file: shown, location: .unknown, message: "cannot parse property list: this is a provisioning profile, not an entitlements file"))
            }
        }
        parsed[abs] = result
        return result
    }

    /// `referencedVariables` of the document `document(abs)` gave for `abs`, found once for all
    /// the units (every configuration of every target) that use the file.
    func referencedVariables(_ abs: String, in document: PlistDocument) -> [String] {
        if let known = variables[abs] { return known }
        let names = XcodeProject.referencedVariables(document)
        variables[abs] = names
        return names
    }
}

/// The settings Entitlint reads for every unit.
enum KeySetting {
    static let bundleID = "PRODUCT_BUNDLE_IDENTIFIER"
    static let team = "DEVELOPMENT_TEAM"
    static let entitlements = "CODE_SIGN_ENTITLEMENTS"
    static let specifier = "PROVISIONING_PROFILE_SPECIFIER"
    static let profile = "PROVISIONING_PROFILE"
    static let style = "CODE_SIGN_STYLE"
    /// Read for macOS units only (`UnitOrigin.signsToRunLocally`), so not among `all`.
    static let identity = "CODE_SIGN_IDENTITY"
    static let sdkRoot = "SDKROOT"
    static let platforms = "SUPPORTED_PLATFORMS"
    static let infoPlist = "INFOPLIST_FILE"
    static let catalyst = "SUPPORTS_MACCATALYST"
    static let deriveCatalystBundleID = "DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER"
    static let all = [bundleID, team, entitlements, specifier, profile, style, sdkRoot, platforms, infoPlist, catalyst, deriveCatalystBundleID]

    /// The signing settings that give a unit's facts (`UnitOrigin.unknownKeySettings`) and are
    /// unknown because only a missing file sets them: name -> that file, as shown.
    static func unknownForMissingFile(_ resolve: (String) -> ResolvedSetting?) -> [String: String] {
        var out: [String: String] = [:]
        for name in [team, bundleID] {
            guard let r = resolve(name), r.value == nil, r.isUnknownForMissingFile, let problem = r.problem else { continue }
            out[name] = EntitlementsSettings.missingFile(in: problem)
        }
        return out
    }
}

/// The variables (other than the standard signing ones) the entitlements refer to.
func referencedVariables(_ document: PlistDocument) -> [String] {
    var names: [String] = []
    func visit(_ node: PlistNode) {
        switch node.value {
        case .string(let s):
            guard s.utf8.contains(UInt8(ascii: "$")) else { return }
            for r in VariableExpander.references(in: s) where !r.isTemplate {
                let base = String(r.name.prefix { $0 != ":" })
                if !VariableExpander.standardNames.contains(base), !names.contains(base) { names.append(base) }
            }
        case .array(let items): items.forEach(visit)
        case .dict(let d): d.entries.forEach { visit($0.value) }
        default: return
        }
    }
    visit(document.root)
    return names
}
