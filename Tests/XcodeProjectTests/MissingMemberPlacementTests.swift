import XCTest
import EntitlintCore
import EntitlintWorkspace
@testable import XcodeProject

/// Whether a workspace member a checkout lacks is explained (a submodule of the project: a notice)
/// or not (a reference left behind: a finding) depends on the project's own files, never on where
/// the checkout sits: its own git work tree, a folder inside another repository, or no repository.
final class MissingMemberPlacementTests: XCTestCase {
    enum Placement: CaseIterable { case ownWorkTree, insideAnotherRepository, noRepository }

    /// A workspace naming `Lib/Lib.xcodeproj` (a submodule the project lists) and
    /// `Old/Old.xcodeproj` (listed nowhere: a submodule removed without its reference), written at
    /// `project/` under a fresh folder placed as asked; the run lints `project/`.
    func lint(_ placement: Placement) throws -> (findings: [String], notices: [String]) {
        let dir = try Fixture.temporaryDirectory(self)
        let project = dir.appendingPathComponent("project")
        var p = ProjectFixture()
        p.name = "App"
        p.targets = [.init(name: "App", productType: "com.apple.product-type.application",
                           settings: [("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.App")])])]
        try p.write(to: project)
        try Fixture.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace version = "1.0">
           <FileRef location = "group:App.xcodeproj"></FileRef>
           <FileRef location = "group:Lib/Lib.xcodeproj"></FileRef>
           <FileRef location = "group:Old/Old.xcodeproj"></FileRef>
        </Workspace>
        """, "App.xcworkspace/contents.xcworkspacedata", in: project)
        try Fixture.write("[submodule \"Lib\"]\n\tpath = Lib\n\turl = https://example.com/lib.git\n", ".gitmodules", in: project)
        let gitFolder: URL?
        switch placement {
        case .ownWorkTree: gitFolder = project.appendingPathComponent(".git")
        case .insideAnotherRepository: gitFolder = dir.appendingPathComponent(".git")
        case .noRepository: gitFolder = nil
        }
        if let gitFolder { try FileManager.default.createDirectory(at: gitFolder, withIntermediateDirectories: true) }
        let result = try Fixture.lint([project.path])
        let strip = { (path: String) in path.replacingOccurrences(of: project.path + "/", with: "") }
        // Each run has its own temporary folder: compared relative to the project.
        return (result.findings.map { strip("\($0.path):\($0.line) \($0.rule) \($0.message)") },
                result.notices.map { strip("\($0.path):\($0.line) \($0.message)") })
    }

    func testASubmoduleMemberIsANoticeAndALeftoverMemberAFindingWhereverTheCheckoutSits() throws {
        let own = try lint(.ownWorkTree)
        XCTAssertTrue(own.notices.contains { $0.contains("Lib/Lib.xcodeproj") && $0.contains("git submodule update --init") }, "\(own.notices)")
        XCTAssertTrue(own.findings.contains { $0.contains("Old/Old.xcodeproj") }, "a member no submodule explains is reported: \(own.findings)")
        XCTAssertFalse(own.findings.contains { $0.contains("Lib/Lib.xcodeproj") }, "\(own.findings)")
        for placement in [Placement.insideAnotherRepository, .noRepository] {
            let other = try lint(placement)
            XCTAssertEqual(other.findings, own.findings, "\(placement)")
            XCTAssertEqual(other.notices, own.notices, "\(placement)")
        }
    }
}
