import Artifacts
import EntitlintWorkspace
import XcodeProject

/// Every discovery source of the command line, one line each, in precedence order: when two
/// form units with the same entitlements file, the first keeps it (`Discovery.merge`).
enum DiscoverySources {
    static let registered: [any DiscoverySource] = [
        XcodeDiscoverer(),   // Xcode projects, workspaces, XcodeGen specs, the Swift packages they use
        ArtifactReader(),    // .app, .ipa, .xcarchive and Mach-O paths
    ]
}
