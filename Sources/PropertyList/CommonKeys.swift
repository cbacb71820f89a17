/// Keys found in most entitlements files and provisioning profiles (Apple's entitlement and
/// profile key names), each made once. A key read from a file that equals one of them shares that
/// storage instead of allocating its own: most such keys are longer than the 15 bytes a String
/// holds inline, so this saves an allocation per key, and the memory (page faults) of a run over
/// thousands of files keeps shorter. The result is the same string either way.
enum CommonKeys {
    static let all: [String] = [
        // Entitlements.
        "application-identifier", "com.apple.application-identifier", "com.apple.developer.team-identifier",
        "com.apple.developer.associated-application-identifier", "keychain-access-groups", "get-task-allow",
        "aps-environment", "com.apple.developer.aps-environment", "previous-application-identifiers",
        "com.apple.security.application-groups", "com.apple.security.app-sandbox", "com.apple.security.network.client",
        "com.apple.security.network.server", "com.apple.security.files.user-selected.read-only",
        "com.apple.security.files.user-selected.read-write", "com.apple.security.files.downloads.read-write",
        "com.apple.security.files.bookmarks.app-scope", "com.apple.security.device.camera",
        "com.apple.security.device.audio-input", "com.apple.security.device.usb", "com.apple.security.print",
        "com.apple.security.personal-information.photos-library", "com.apple.security.personal-information.location",
        "com.apple.security.personal-information.addressbook", "com.apple.security.personal-information.calendars",
        "com.apple.security.cs.allow-jit", "com.apple.security.cs.allow-unsigned-executable-memory",
        "com.apple.security.cs.allow-dyld-environment-variables", "com.apple.security.cs.disable-library-validation",
        "com.apple.security.cs.disable-executable-page-protection", "com.apple.security.automation.apple-events",
        "com.apple.security.inherit", "com.apple.security.get-task-allow",
        "com.apple.developer.associated-domains", "com.apple.developer.icloud-services",
        "com.apple.developer.icloud-container-identifiers", "com.apple.developer.icloud-container-environment",
        "com.apple.developer.ubiquity-container-identifiers", "com.apple.developer.ubiquity-kvstore-identifier",
        "com.apple.developer.siri", "com.apple.developer.healthkit", "com.apple.developer.healthkit.access",
        "com.apple.developer.homekit", "com.apple.developer.in-app-payments", "com.apple.developer.pass-type-identifiers",
        "com.apple.developer.nfc.readersession.formats", "com.apple.developer.networking.networkextension",
        "com.apple.developer.networking.wifi-info", "com.apple.developer.networking.vpn.api",
        "com.apple.developer.default-data-protection", "com.apple.developer.applesignin",
        "com.apple.developer.authentication-services.autofill-credential-provider", "com.apple.developer.game-center",
        "com.apple.developer.usernotifications.time-sensitive", "com.apple.developer.usernotifications.communication",
        "com.apple.developer.on-demand-install-capable", "com.apple.developer.parent-application-identifiers",
        "com.apple.developer.kernel.increased-memory-limit", "com.apple.external-accessory.wireless-configuration",
        "inter-app-audio", "beta-reports-active",
        // Provisioning profiles.
        "AppIDName", "ApplicationIdentifierPrefix", "CreationDate", "DeveloperCertificates", "Entitlements",
        "ExpirationDate", "IsXcodeManaged", "Name", "Platform", "ProvisionedDevices", "ProvisionsAllDevices",
        "TeamIdentifier", "TeamName", "TimeToLive", "UUID", "Version", "DER-Encoded-Profile", "PPQCheck",
    ]

    /// `all` by UTF-8 length: (bytes, string).
    static let byLength: [[([UInt8], String)]] = {
        var table = [[([UInt8], String)]](repeating: [], count: (all.map(\.utf8.count).max() ?? 0) + 1)
        for key in all { table[key.utf8.count].append((Array(key.utf8), key)) }
        return table
    }()

    /// The common key spelled by `bytes`, if it is one.
    static func lookup(_ bytes: [UInt8]) -> String? {
        guard bytes.count < byLength.count else { return nil }
        return bytes.withUnsafeBufferPointer { b -> String? in
            byLength.withUnsafeBufferPointer { table -> String? in
                let candidates = table[b.count]
                for index in candidates.indices {
                    let same = candidates[index].0.withUnsafeBufferPointer { k -> Bool in
                        var i = k.count - 1
                        // From the end: the keys share their beginnings.
                        while i >= 0 { if k[i] != b[i] { return false }; i -= 1 }
                        return true
                    }
                    if same { return candidates[index].1 }
                }
                return nil
            }
        }
    }
}
