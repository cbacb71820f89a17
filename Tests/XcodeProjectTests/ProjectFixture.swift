import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
@testable import XcodeProject

/// Writes small, real-looking Xcode projects (and their files) into a temporary folder.
struct ProjectFixture {
    struct Target {
        var name: String
        var productType = "com.apple.product-type.application"
        /// Configuration name -> build settings (written in this order).
        var settings: [(String, [(String, String)])]
        /// Configuration name -> base xcconfig path, relative to the project folder.
        var baseConfigurations: [String: String] = [:]
        /// Names of the targets whose products this one embeds (a copy-files phase) and links (a frameworks phase).
        var embeds: [String] = []
        /// Embedded target name -> the `platformFilter` its build file carries (`ios`: not Mac Catalyst).
        var embedFilters: [String: String] = [:]
        var links: [String] = []
        /// Names of the targets it depends on (`PBXTargetDependency`).
        var dependsOn: [String] = []
        /// File-system synchronised folders (Xcode 16), each with the files the target excludes.
        var synchronizedFolders: [(path: String, exceptions: [String])] = []
        /// IDs of build phases written in `extraObjects`, and raw entries of the target's dict.
        var extraBuildPhases: [String] = []
        var extraEntries = ""
    }

    var name = "Fixture"
    var projectSettings: [(String, [(String, String)])] = [("Debug", [("SDKROOT", "iphoneos")]), ("Release", [("SDKROOT", "iphoneos")])]
    var projectBaseConfigurations: [String: String] = [:]
    var targets: [Target] = []
    /// Extra object entries, written verbatim into `objects` (for broken projects).
    var extraObjects = ""
    /// IDs (of `extraObjects`) added to the main group's children.
    var extraMainGroupChildren: [String] = []
    /// Exception sets for another target, attached to the synchronised folder `folder` (of the
    /// target that declares it): membership exceptions of `target`, which does not hold the folder.
    var foreignExceptions: [(folder: String, target: String, files: [String])] = []

    static func id(_ n: Int) -> String { String(format: "F0%022X", n) }

    func quote(_ s: String) -> String {
        let plain = !s.isEmpty && s.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c == 0x5F || c == 0x2E || c == 0x2F || c == 0x2D
        }
        return plain ? s : "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The text of `project.pbxproj`.
    func pbxproj() -> String {
        var next = 100
        func fresh() -> String { next += 1; return Self.id(next) }
        var objects = ""
        var fileRefs: [String: String] = [:]   // xcconfig path -> file ref id
        let mainGroup = fresh()
        var mainChildren: [String] = []
        func fileRef(_ path: String) -> String {
            if let id = fileRefs[path] { return id }
            let id = fresh()
            fileRefs[path] = id
            mainChildren.append(id)
            objects += "\t\t\(id) /* \(path) */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = \(quote(path)); sourceTree = \"<group>\"; };\n"
            return id
        }
        func configList(_ configs: [(String, [(String, String)])], bases: [String: String], owner: String) -> String {
            var ids: [String] = []
            for (name, settings) in configs {
                let cid = fresh()
                ids.append(cid)
                var body = "\t\t\(cid) /* \(name) */ = {\n\t\t\tisa = XCBuildConfiguration;\n"
                if let base = bases[name] { body += "\t\t\tbaseConfigurationReference = \(fileRef(base));\n" }
                body += "\t\t\tbuildSettings = {\n"
                for (k, v) in settings { body += "\t\t\t\t\(quote(k)) = \(quote(v));\n" }
                body += "\t\t\t};\n\t\t\tname = \(quote(name));\n\t\t};\n"
                objects += body
            }
            let lid = fresh()
            objects += "\t\t\(lid) /* Build configuration list for \(owner) */ = {\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n"
                + ids.map { "\t\t\t\t\($0),\n" }.joined()
                + "\t\t\t);\n\t\t\tdefaultConfigurationName = Release;\n\t\t};\n"
            return lid
        }
        var targetIDs: [String: String] = [:]
        var productIDs: [String: String] = [:]
        for t in targets {
            targetIDs[t.name] = fresh()
            productIDs[t.name] = fresh()
            objects += "\t\t\(productIDs[t.name]!) /* \(t.name) */ = {isa = PBXFileReference; explicitFileType = wrapper.application; path = \(quote(t.name + ".app")); sourceTree = BUILT_PRODUCTS_DIR; };\n"
        }
        for t in targets {
            let list = configList(t.settings, bases: t.baseConfigurations, owner: t.name)
            var phases: [String] = []
            if !t.embeds.isEmpty {
                var files: [String] = []
                for e in t.embeds {
                    let bf = fresh()
                    files.append(bf)
                    let filter = t.embedFilters[e].map { " platformFilter = \($0);" } ?? ""
                    objects += "\t\t\(bf) = {isa = PBXBuildFile; fileRef = \(productIDs[e]!);\(filter) };\n"
                }
                let phase = fresh()
                phases.append(phase)
                objects += "\t\t\(phase) /* Embed Foundation Extensions */ = {\n\t\t\tisa = PBXCopyFilesBuildPhase;\n\t\t\tdstSubfolderSpec = 13;\n\t\t\tfiles = (\n"
                    + files.map { "\t\t\t\t\($0),\n" }.joined() + "\t\t\t);\n\t\t};\n"
            }
            if !t.links.isEmpty {
                let files = t.links.map { l -> String in
                    let bf = fresh()
                    objects += "\t\t\(bf) = {isa = PBXBuildFile; fileRef = \(productIDs[l]!); };\n"
                    return bf
                }
                let phase = fresh()
                phases.append(phase)
                objects += "\t\t\(phase) /* Frameworks */ = {\n\t\t\tisa = PBXFrameworksBuildPhase;\n\t\t\tfiles = (\n"
                    + files.map { "\t\t\t\t\($0),\n" }.joined() + "\t\t\t);\n\t\t};\n"
            }
            let dependencies = t.dependsOn.map { d -> String in
                let dep = fresh()
                objects += "\t\t\(dep) = {isa = PBXTargetDependency; target = \(targetIDs[d]!); };\n"
                return dep
            }
            var synchronized: [String] = []
            for folder in t.synchronizedFolders {
                let group = fresh()
                synchronized.append(group)
                var sets: [String] = []
                for (files, owner) in [(folder.exceptions, t.name)] + foreignExceptions.filter({ $0.folder == folder.path }).map({ ($0.files, $0.target) }) {
                    let set = fresh()
                    sets.append(set)
                    objects += "\t\t\(set) = {\n\t\t\tisa = PBXFileSystemSynchronizedBuildFileExceptionSet;\n\t\t\tmembershipExceptions = (\n"
                        + files.map { "\t\t\t\t\(quote($0)),\n" }.joined()
                        + "\t\t\t);\n\t\t\ttarget = \(targetIDs[owner]!);\n\t\t};\n"
                }
                objects += "\t\t\(group) = {\n\t\t\tisa = PBXFileSystemSynchronizedRootGroup;\n\t\t\texceptions = (\n"
                    + sets.map { "\t\t\t\t\($0),\n" }.joined() + "\t\t\t);\n"
                    + "\t\t\tpath = \(quote(folder.path));\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"
            }
            let synchronizedList = synchronized.isEmpty ? ""
                : "\t\t\tfileSystemSynchronizedGroups = (\n" + synchronized.map { "\t\t\t\t\($0),\n" }.joined() + "\t\t\t);\n"
            objects += "\t\t\(targetIDs[t.name]!) /* \(t.name) */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = \(list);\n" + synchronizedList
                + "\t\t\tbuildPhases = (\n" + (phases + t.extraBuildPhases).map { "\t\t\t\t\($0),\n" }.joined() + "\t\t\t);\n" + t.extraEntries
                + "\t\t\tdependencies = (\n" + dependencies.map { "\t\t\t\t\($0),\n" }.joined() + "\t\t\t);\n\t\t\tname = \(quote(t.name));\n\t\t\tproductName = \(quote(t.name));\n"
                + "\t\t\tproductReference = \(productIDs[t.name]!);\n\t\t\tproductType = \(quote(t.productType));\n\t\t};\n"
        }
        let projectList = configList(projectSettings, bases: projectBaseConfigurations, owner: "project")
        let root = fresh()
        objects += "\t\t\(mainGroup) = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n" + (mainChildren + extraMainGroupChildren).map { "\t\t\t\t\($0),\n" }.joined()
            + "\t\t\t);\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"
        objects += "\t\t\(root) /* Project object */ = {\n\t\t\tisa = PBXProject;\n\t\t\tbuildConfigurationList = \(projectList);\n"
            + "\t\t\tmainGroup = \(mainGroup);\n\t\t\tprojectDirPath = \"\";\n\t\t\ttargets = (\n"
            + targets.map { "\t\t\t\t\(targetIDs[$0.name]!) /* \($0.name) */,\n" }.joined() + "\t\t\t);\n\t\t};\n"
        objects += extraObjects
        return "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n\tobjects = {\n\n" + objects
            + "\t};\n\trootObject = \(root) /* Project object */;\n}\n"
    }

    /// Writes the project into `folder/<name>.xcodeproj`.
    @discardableResult
    func write(to folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("\(name).xcodeproj")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try pbxproj().write(to: bundle.appendingPathComponent("project.pbxproj"), atomically: true, encoding: .utf8)
        return bundle
    }
}

enum Fixture {
    static func entitlements(_ groups: [String], appGroups: [String] = []) -> String {
        var s = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>keychain-access-groups</key>
        \t<array>

        """
        for g in groups { s += "\t\t<string>\(g)</string>\n" }
        s += "\t</array>\n"
        if !appGroups.isEmpty {
            s += "\t<key>com.apple.security.application-groups</key>\n\t<array>\n"
            for g in appGroups { s += "\t\t<string>\(g)</string>\n" }
            s += "\t</array>\n"
        }
        return s + "</dict>\n</plist>\n"
    }

    /// An unsigned profile named `name` (a fresh UUID) for com.example.App of team ABCDE12345,
    /// expired since 2021-11-27.
    static func expiredProfile(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        <key>Name</key><string>\(name)</string>
        <key>UUID</key><string>\(UUID().uuidString)</string>
        <key>TeamIdentifier</key><array><string>ABCDE12345</string></array>
        <key>ApplicationIdentifierPrefix</key><array><string>ABCDE12345</string></array>
        <key>ExpirationDate</key><date>2021-11-27T00:00:00Z</date>
        <key>Entitlements</key><dict><key>application-identifier</key><string>ABCDE12345.com.example.App</string></dict>
        </dict>
        </plist>
        """
    }

    static func temporaryDirectory(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("entitlint-xc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    static func write(_ text: String, _ path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Lints `paths` with every rule and project discovery, as the CLI does.
    static func lint(_ paths: [String], configure: (inout LintOptions) -> Void = { _ in }) throws -> LintResult {
        var options = LintOptions()
        options.paths = paths
        options.discoverySources = [XcodeDiscoverer()]
        options.parallel = false
        configure(&options)
        return try Linter(rules: RuleRegistry.all).lint(options)
    }

    /// The package root (for the bundled examples).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
