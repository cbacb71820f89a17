import EntitlintCore
import EntitlintWorkspace
import XCTest
@testable import XcodeProject

/// What the Xcode source tells the engine: the files a folder walk collects for it and the files
/// that are its projects (never linted as loose property lists, read at a revision, changed ones
/// start a run). Recorded here so a change to the lists is a decision.
final class DiscoverySourceRecognitionTests: XCTestCase {
    let source = XcodeDiscoverer()

    func testWalkCollectsProjectsWorkspacesYAMLAndForeignBuildFiles() {
        for path in ["A.xcodeproj/project.pbxproj", "W.xcworkspace/contents.xcworkspacedata", "project.yml", "app/mail-project.yaml",
                     "CMakeLists.txt", "cmake/sign.cmake", "BUILD", "ios/BUILD.bazel", "Project.swift", "App.csproj"] {
            XCTAssertTrue(source.walkedFiles.matches(path), path)
        }
        for path in ["App.entitlements", "Base.xcconfig", "Package.swift", "main.swift", "Info.plist", "BUILD.txt", "project.pbxproj.orig"] {
            XCTAssertFalse(source.walkedFiles.matches(path), path)
        }
    }

    func testProjectFilesAreProjectsWorkspacesSpecsAndXCConfigs() {
        for path in ["A.xcodeproj/project.pbxproj", "W.xcworkspace/contents.xcworkspacedata", "project.yml", "Base.xcconfig", "C/Base.XCCONFIG"] {
            XCTAssertTrue(source.projectFiles.matches(path), path)
        }
        for path in ["mail-project.yml", "CMakeLists.txt", "App.entitlements", "main.swift"] {
            XCTAssertFalse(source.projectFiles.matches(path), path)
        }
    }

    func testTheSourcesAnswerForTheEngine() {
        let sources: [any DiscoverySource] = [source]
        XCTAssertTrue(sources.walks("BUILD"))
        XCTAssertTrue(sources.isProjectFile("Base.xcconfig"))
        XCTAssertFalse(sources.takeInput("App.ipa"), "the Xcode source takes no command-line input whole")
        XCTAssertFalse(([] as [any DiscoverySource]).isProjectFile("project.yml"))
    }

    /// Names are matched against the whole last component of a path, as written (case counts),
    /// with trailing slashes ignored: never a suffix of a longer name.
    func testNamesMatchTheWholeLastComponent() {
        let r = FileRecognition(names: ["BUILD", "project.yml", "Project.swift"])
        for path in ["BUILD", "a/BUILD", "/abs/x/BUILD", "a/BUILD/", "project.yml", "x/project.yml", "Project.swift", "é/Project.swift"] {
            XCTAssertTrue(r.matches(path), path)
        }
        for path in ["XBUILD", "a/XBUILD", "build", "a/BUILD.txt", "myproject.yml", "a/my-project.yml", "project.swift", "", "/"] {
            XCTAssertFalse(r.matches(path), path)
        }
    }

    /// A source that only takes named paths whole, as built products are.
    struct ProductsOnly: DiscoverySource {
        var name: String { "products" }
        var walkedFiles: FileRecognition { .none }
        var projectFiles: FileRecognition { .none }
        func takes(input path: String) -> Bool { path.hasSuffix(".ipa") }
        func discover(_ request: DiscoveryRequest) -> Discovery { Discovery() }
    }

    /// What keeps a source out of a run that lints files as loose files (`DiscoverySources.withoutProjects`):
    /// decided by what it recognises, so a new project source is left out without naming its type.
    func testReadingProjectsIsWhatTheSourceRecognises() {
        XCTAssertTrue(source.readsProjects)
        XCTAssertTrue(StubSpecSource().readsProjects, "a source with files of its own reads projects")
        XCTAssertFalse(ProductsOnly().readsProjects)
        XCTAssertTrue(FileRecognition.none.isEmpty)
        XCTAssertFalse(FileRecognition(extensions: ["json"]).isEmpty)
    }
}
