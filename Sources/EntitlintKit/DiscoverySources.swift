import Artifacts
public import EntitlintWorkspace
import XcodeProject

/// Every discovery source of a run, one line each, in precedence order: when two form units with
/// the same entitlements file, the first keeps it (`Discovery.merge`).
public enum DiscoverySources {
    public static let registered: [any DiscoverySource] = [
        XcodeDiscoverer(),   // Xcode projects, workspaces, XcodeGen specs, the Swift packages they use
        TuistSource(),       // Tuist Project.swift manifests and their ProjectDescriptionHelpers
        BazelSource(),       // Bazel BUILD files' rules_apple bundle rules and the .bzl macros they load
        ArtifactReader(),    // .app, .ipa, .xcarchive and Mach-O paths
    ]

    /// The sources that read paths as they are named (built products), not the projects around
    /// them: for a run that lints files as loose files. A source that a walk collects files for,
    /// or that has project files, reads projects, whatever its type: a new one needs no edit here.
    public static var withoutProjects: [any DiscoverySource] { registered.filter { !$0.readsProjects } }
}
