/// Where a fact about a signing unit came from, so messages can say why Entitlint believes it.
public enum FactSource: Sendable, Hashable, CustomStringConvertible {
    case flag(String)                    // e.g. "--team-id"
    case config(String)                  // path of .entitlint.yml
    case profile(String)                 // path of the profile
    case entitlements(key: String)       // a key of the entitlements file itself
    case derived(String)                 // e.g. "App ID prefix assumed equal to the Team ID"
    case xcode(String)                   // a build setting: "PRODUCT_BUNDLE_IDENTIFIER at App.xcodeproj/project.pbxproj:301"

    public var description: String {
        switch self {
        case .flag(let f): return "flag \(f)"
        case .config(let p): return "config \(p)"
        case .profile(let p): return "profile \(p)"
        case .entitlements(let k): return "\(k) in the entitlements file"
        case .derived(let why): return why
        case .xcode(let setting): return setting
        }
    }
}

/// A value with its source.
public struct Fact<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var source: FactSource
    public init(_ value: Value, from source: FactSource) {
        self.value = value
        self.source = source
    }
}
