import EntitlintCore
import EntitlintWorkspace
import PropertyList
import XCTest

/// `Discovery.merge` (the first source keeps an entitlements file two claim; the rest is the union
/// in source order) and `FileRecognition` (names as written, extensions in any case).
final class DiscoveryMergeTests: XCTestCase {
    static let document = PlistDocument(root: PlistNode(.dict(PlistDictionary())), format: .xml)

    func unit(_ name: String, _ entitlements: String?) -> DiscoveredUnit {
        DiscoveredUnit(name: name, entitlementsPath: entitlements, shownPath: entitlements ?? "P/project.pbxproj", document: Self.document,
                       bundleID: nil, teamID: nil, platform: .iOS,
                       origin: UnitOrigin(projectFile: "P/project.pbxproj", projectName: "P", target: name, configuration: "Release", kind: .app),
                       variables: [:], inScope: true)
    }

    func discovery(_ units: [DiscoveredUnit], files: [String] = [], mentioned: String? = nil) -> Discovery {
        var d = Discovery()
        d.units = units
        d.claimed = Set(units.compactMap { $0.entitlementsPath.map { Paths.absolute($0, cwd: "/w") } })   // claimed paths are absolute
        d.files = files
        if let mentioned { d.isMentioned = { $0 == mentioned } }
        return d
    }

    func testFirstSourceKeepsAFileBothClaimWithOneNotice() {
        let first = discovery([unit("A", "/w/App.entitlements"), unit("A2", "/w/App.entitlements")])
        let second = discovery([unit("B", "/w/App.entitlements"), unit("C", "/w/Other.entitlements"), unit("D", nil)])
        let merged = Discovery.merge([("first", first), ("second", second)], cwd: "/w")
        XCTAssertEqual(merged.units.map(\.name), ["A", "A2", "C", "D"])
        XCTAssertEqual(merged.claimed, ["/w/App.entitlements", "/w/Other.entitlements"])
        XCTAssertEqual(merged.notices.count, 1)
        XCTAssertEqual(merged.notices.first?.path, "App.entitlements")
        XCTAssertTrue(merged.notices.first?.message.contains("read from first") == true, "\(merged.notices)")
        XCTAssertTrue(merged.notices.first?.message.contains("second") == true, "\(merged.notices)")
    }

    func testRelativeEntitlementsPathsAreComparedAbsolute() {
        let merged = Discovery.merge([("first", discovery([unit("A", "/w/App.entitlements")])),
                                      ("second", discovery([unit("B", "App.entitlements")]))], cwd: "/w")
        XCTAssertEqual(merged.units.map(\.name), ["A"])
    }

    func testEverythingElseIsTheUnionInSourceOrder() {
        var first = discovery([unit("A", "/w/A.entitlements")], files: ["A.xcodeproj/project.pbxproj", "A.entitlements"], mentioned: "/w/X.entitlements")
        first.findings = [Finding(rule: "parse-error", severity: .error, message: "one", path: "A")]
        first.projectFolders = ["/w/A"]
        var second = discovery([unit("B", "/w/B.entitlements")], files: ["A.entitlements", "b.spec"], mentioned: "/w/Y.entitlements")
        second.findings = [Finding(rule: "parse-error", severity: .error, message: "two", path: "B")]
        second.foreignFolders = ["/w/B"]
        second.built.paths = ["App.ipa"]
        let merged = Discovery.merge([("first", first), ("second", second)], cwd: "/w")
        XCTAssertEqual(merged.units.map(\.name), ["A", "B"])
        XCTAssertEqual(merged.files, ["A.xcodeproj/project.pbxproj", "A.entitlements", "b.spec"], "each file once")
        XCTAssertEqual(merged.findings.map(\.message), ["one", "two"])
        XCTAssertEqual(merged.built.paths, ["App.ipa"])
        XCTAssertTrue(merged.isMentioned("/w/X.entitlements"))
        XCTAssertTrue(merged.isMentioned("/w/Y.entitlements"))
        XCTAssertFalse(merged.isMentioned("/w/Z.entitlements"))
        XCTAssertTrue(merged.isInProjectFolder("/w/A/a.entitlements"))
        XCTAssertTrue(merged.isInProjectFolder("/w/B/b.entitlements"))
        XCTAssertTrue(merged.notices.isEmpty)
    }

    func testOneSourceIsItsOwnDiscovery() {
        let only = discovery([unit("A", "/w/App.entitlements"), unit("B", "/w/App.entitlements")])
        XCTAssertEqual(Discovery.merge([("only", only)], cwd: "/w").units.map(\.name), ["A", "B"])
        XCTAssertTrue(Discovery.merge([], cwd: "/w").units.isEmpty)
    }

    func testRecognitionComparesNamesAsWrittenAndExtensionsInAnyCase() {
        let r = FileRecognition(names: ["project.yml", "BUILD", "CMakeLists.txt"], extensions: ["xcconfig", "tar.gz"])
        for path in ["project.yml", "a/b/project.yml", "BUILD", "x/BUILD", "CMakeLists.txt", "Base.xcconfig", "c/Base.XCConfig", "d/x.tar.gz"] {
            XCTAssertTrue(r.matches(path), path)
        }
        for path in ["Project.yml", "myproject.yml", "project.yaml", "BUILDS", "build", "x/BUILD/y", "xcconfig", "a.xcconfig.bak", "x.gz", "cmakelists.txt"] {
            XCTAssertFalse(r.matches(path), path)
        }
        XCTAssertFalse(FileRecognition.none.matches("project.pbxproj"))
    }
}
