/// What a project declares about where a target runs and which workspace lists it, kept for the
/// report only (no rule reads them): its device families (rules_apple's `families`, Tuist's
/// destinations), its minimum OS version, and the workspace manifest listing its project. Each
/// with where it is written (`families at app/BUILD:12`), or, when its value needs evaluation,
/// why (`value` nil).
public struct DeclaredFacts: Sendable, Hashable {
    public struct Item: Sendable, Hashable {
        /// The value as written (`iphone, ipad`, `15.0`); nil when it cannot be known statically.
        public var value: String?
        public var source: String

        public init(value: String?, source: String) {
            self.value = value
            self.source = source
        }
    }

    public var deviceFamilies: Item?
    public var minimumOS: Item?
    public var workspace: Item?

    public init(deviceFamilies: Item? = nil, minimumOS: Item? = nil, workspace: Item? = nil) {
        self.deviceFamilies = deviceFamilies
        self.minimumOS = minimumOS
        self.workspace = workspace
    }

    public var isEmpty: Bool { deviceFamilies == nil && minimumOS == nil && workspace == nil }
}
