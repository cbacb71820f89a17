import EntitlintCore
import EntitlintWorkspace
import Foundation
import PropertyList

/// A discovery source for a made-up build tool, written as a new source would be: this file only.
/// `app.stub` holds one line, the entitlements file its app `Stub` signs with, and the tool
/// generates `Stub.xcodeproj` beside it (so the source supersedes that project when asked to).
struct StubSpecSource: DiscoverySource {
    /// Whether the spec stands for the `Stub.xcodeproj` beside it.
    var supersedesGeneratedProject = true

    var name: String { "stub specs" }
    var walkedFiles: FileRecognition { FileRecognition(names: ["app.stub"]) }
    var projectFiles: FileRecognition { FileRecognition(names: ["app.stub"]) }

    /// The specs of the run: those a walk collected and those named on the command line.
    func specs(_ request: DiscoveryRequest) -> [String] {
        (request.files + request.paths).filter { projectFiles.matches($0) }
    }

    func supersededProjects(_ request: DiscoveryRequest) -> [String] {
        guard supersedesGeneratedProject else { return [] }
        return specs(request).map { Paths.directoryName(Paths.absolute($0, cwd: request.cwd)) + "/Stub.xcodeproj" }
    }

    func discover(_ request: DiscoveryRequest) -> Discovery {
        var discovery = Discovery()
        for spec in specs(request) {
            let folder = Paths.directoryName(Paths.absolute(spec, cwd: request.cwd))
            guard let line = try? String(contentsOfFile: spec, encoding: .utf8).split(separator: "\n").first else { continue }
            let entitlements = folder + "/" + line.trimmingCharacters(in: .whitespaces)
            guard let bytes = FileManager.default.contents(atPath: entitlements),
                  let document = try? PropertyListReader.parse(Array(bytes), limits: request.reading.limits) else { continue }
            let shown = Paths.display(entitlements, cwd: request.cwd)
            var unit = DiscoveredUnit(name: "Stub (Release)", entitlementsPath: entitlements, shownPath: shown, document: document,
                                      bundleID: Fact("com.example.FromStub", from: .derived("the stub spec")), teamID: nil, platform: .iOS,
                                      origin: UnitOrigin(projectFile: Paths.display(spec, cwd: request.cwd), projectName: "Stub", target: "Stub",
                                                         configuration: "Release", kind: .app),
                                      variables: [:], inScope: true)
            unit.family = Paths.absolute(spec, cwd: request.cwd)
            discovery.units.append(unit)
            discovery.claimed.insert(entitlements)
            discovery.files += [Paths.display(spec, cwd: request.cwd), shown]
            discovery.projectFolders.append(folder)
            discovery.familyFolders.append((folder, unit.family))
        }
        return discovery
    }
}
