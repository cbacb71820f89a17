import EntitlintCore
import PropertyList

// The platforms a unit is signed for: the variants of a target besides its first platform, the
// device SDK its settings name, and the platform that SDK is.

/// A platform a target is signed for besides its first one: Mac Catalyst (`SUPPORTS_MACCATALYST`
/// on an iOS target) or another device platform of `SUPPORTED_PLATFORMS`. Each is its own
/// signing unit, with the settings conditioned on its SDK (`[sdk=macosx*]`).
struct PlatformVariant: Hashable {
    var sdk: String
    var isMacCatalyst: Bool

    /// How the unit's name tells it apart: `App (Release, Mac Catalyst)`.
    var label: String {
        if isMacCatalyst { return "Mac Catalyst" }
        switch sdk {
        case "macosx": return "macOS"
        case "appletvos": return "tvOS"
        case "xros": return "visionOS"
        case "watchos": return "watchOS"
        case "iphoneos": return "iOS"
        default: return sdk
        }
    }

    /// The variants besides `primary`, from the target's settings.
    static func others(primary: String?, supportedPlatforms: String?, catalyst: String?) -> [PlatformVariant] {
        var out: [PlatformVariant] = []
        let devices = ["iphoneos", "macosx", "appletvos", "xros", "watchos"]
        let listed = Set((supportedPlatforms ?? "").split(separator: " ").map { String($0).lowercased() })
        for sdk in devices where listed.contains(sdk) && sdk != primary {
            out.append(PlatformVariant(sdk: sdk, isMacCatalyst: false))
        }
        if primary == "iphoneos", catalyst?.trimmed(" \t").uppercased() == "YES", !out.contains(where: { $0.sdk == "macosx" }) {
            out.append(PlatformVariant(sdk: "macosx", isMacCatalyst: true))
        }
        return out
    }
}

/// The device SDK a unit is signed for, from `SDKROOT` (`iphoneos`, `iphoneos17.2`, `macosx`, a
/// path to an SDK) or, for `auto` and multiplatform targets, the first device platform of
/// `SUPPORTED_PLATFORMS`.
func deviceSDK(sdkRoot: String?, supportedPlatforms: String?) -> String? {
    let known = ["iphoneos", "macosx", "watchos", "appletvos", "xros", "driverkit"]
    func base(_ s: String) -> String? {
        var name = Paths.baseName(s).lowercased()
        if name.hasSuffix(".sdk") { name = String(name.dropLast(4)) }
        return known.first { name.hasPrefix($0) }
    }
    if let root = sdkRoot, !root.isEmpty, root != "auto", let b = base(root) { return b }
    let platforms = (supportedPlatforms ?? "").split(separator: " ").map(String.init)
    for candidate in known where platforms.contains(candidate) { return candidate }
    return nil
}

func platform(ofSDK sdk: String?) -> Platform {
    switch sdk {
    case "macosx"?, "driverkit"?: return .macOS
    case "iphoneos"?, "watchos"?, "appletvos"?, "xros"?: return .iOS
    default: return .unknown
    }
}
