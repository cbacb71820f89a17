/// What conditional settings (`NAME[sdk=iphoneos*][arch=arm64][config=Release]`) are evaluated
/// against: the device SDK a unit is signed for, `arm64`, the configuration, the `normal` variant.
public struct SettingContext: Sendable, Hashable {
    public var sdk: String
    public var arch: String
    public var configuration: String
    public var variant: String

    public init(sdk: String, arch: String = "arm64", configuration: String, variant: String = "normal") {
        self.sdk = sdk
        self.arch = arch
        self.configuration = configuration
        self.variant = variant
    }

    /// Every condition must match; an unknown condition key never does.
    public func matches(_ conditions: [SettingCondition]) -> Bool {
        for c in conditions {
            let subject: String
            switch c.key {
            case "sdk": subject = sdk
            case "arch": subject = arch
            case "config": subject = configuration
            case "variant": subject = variant
            default: return false
            }
            guard !subject.isEmpty, globMatches(c.pattern, subject) else { return false }
        }
        return true
    }
}
