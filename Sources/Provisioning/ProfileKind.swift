/// What a provisioning profile is for. There is no such field in the plist: the kind is inferred
/// (keychain-access-groups.md section 3):
///
/// > Development = devices + `get-task-allow` true; Ad Hoc = devices + `get-task-allow` false;
/// > App Store = no devices and no `ProvisionsAllDevices`; Enterprise = `ProvisionsAllDevices` on
/// > iOS; Developer ID = `ProvisionsAllDevices` on `OSX`.
public enum ProfileKind: String, Sendable, Hashable, Codable, CaseIterable {
    case development
    case adHoc = "ad-hoc"
    case appStore = "app-store"
    case enterprise
    case developerID = "developer-id"
    /// The profile lists devices but has no boolean `get-task-allow`, so development and ad hoc
    /// cannot be told apart.
    case unknown
}

extension ProfileKind {
    /// The keychain-access-groups.md section 3 heuristic.
    ///
    /// - Parameters:
    ///   - hasDeviceList: the plist has a `ProvisionedDevices` array, even an empty one (real App
    ///     Store and Enterprise profiles have no such key; fake development profiles used in
    ///     tests, such as rules_apple's, have an empty one).
    ///   - provisionsAllDevices: `ProvisionsAllDevices` is `true`.
    ///   - getTaskAllow: the boolean `get-task-allow` entitlement (or macOS's
    ///     `com.apple.security.get-task-allow`), nil when absent or not a boolean.
    ///   - isMacOS: `Platform` names OSX / macOS.
    static func infer(hasDeviceList: Bool, provisionsAllDevices: Bool, getTaskAllow: Bool?, isMacOS: Bool) -> ProfileKind {
        if provisionsAllDevices { return isMacOS ? .developerID : .enterprise }
        guard hasDeviceList else { return .appStore }
        switch getTaskAllow {
        case true?: return .development
        case false?: return .adHoc
        case nil: return .unknown
        }
    }
}
