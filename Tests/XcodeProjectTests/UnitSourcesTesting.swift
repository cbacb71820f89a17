import Foundation
import XCTest
import EntitlintCore
import EntitlintWorkspace
import EntitlintRules
import PropertyList
@testable import XcodeProject

/// What the unit-sources test classes share: the objects of a project graph written by a test,
/// the settings of its targets, and how a unit's sources are read from a run.
protocol UnitSourcesTesting {}

extension UnitSourcesTesting {
    typealias Objects = ProjectObjects

    static var appSettings: [(String, [(String, String)])] {
        [
            ("Debug", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app")]), ("Release", [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app")]),
        ]
    }

    func sources(_ result: LintResult, _ unit: String) throws -> UnitSources {
        let u = try XCTUnwrap(result.units.first { $0.name == unit }, "\(result.units.map(\.name))")
        return try XCTUnwrap(u.origin?.sources, "\(unit) has no sources")
    }

    /// Absolute paths of `relative` below `folder`, as discovery lists them (symlinks of the
    /// temporary folder kept as written).
    func absolute(_ folder: URL, _ relative: [String]) -> [String] { relative.map { folder.appendingPathComponent($0).path } }
}

/// Objects for `extraObjects`: IDs are made from a counter, so each test writes its own graph.
struct ProjectObjects {
    var text = ""
    var next = 0
    mutating func id() -> String { next += 1; return String(format: "AB%022X", next) }

    mutating func fileRef(_ path: String, tree: String = "\"<group>\"", type: String = "sourcecode.swift") -> String {
        let i = id()
        text += "\t\t\(i) = {isa = PBXFileReference; lastKnownFileType = \(type); path = \"\(path)\"; sourceTree = \(tree); };\n"
        return i
    }

    mutating func group(_ path: String, _ children: [String]) -> String {
        let i = id()
        text += "\t\t\(i) = {isa = PBXGroup; children = (\(children.map { $0 + "," }.joined())); path = \"\(path)\"; sourceTree = \"<group>\"; };\n"
        return i
    }

    /// A sources build phase holding `refs`.
    mutating func sourcesPhase(_ refs: [String]) -> String {
        var buildFiles: [String] = []
        for r in refs {
            let b = id()
            buildFiles.append(b)
            text += "\t\t\(b) = {isa = PBXBuildFile; fileRef = \(r); };\n"
        }
        let phase = id()
        text += "\t\t\(phase) = {isa = PBXSourcesBuildPhase; files = (\(buildFiles.map { $0 + "," }.joined())); };\n"
        return phase
    }

    /// `packageProductDependencies = (...)` for the target, with a local or remote package each.
    mutating func products(_ products: [(name: String, local: String?, remote: String?)]) -> String {
        var ids: [String] = []
        for p in products {
            var packageLine = ""
            if let local = p.local {
                let ref = id()
                text += "\t\t\(ref) = {isa = XCLocalSwiftPackageReference; relativePath = \"\(local)\"; };\n"
                packageLine = "package = \(ref); "
            } else if let remote = p.remote {
                let ref = id()
                text += "\t\t\(ref) = {isa = XCRemoteSwiftPackageReference; repositoryURL = \"\(remote)\"; requirement = {kind = upToNextMajorVersion; minimumVersion = 1.0.0; }; };\n"
                packageLine = "package = \(ref); "
            }
            let dep = id()
            ids.append(dep)
            text += "\t\t\(dep) = {isa = XCSwiftPackageProductDependency; \(packageLine)productName = \"\(p.name)\"; };\n"
        }
        return "\t\t\tpackageProductDependencies = (\(ids.map { $0 + "," }.joined()));\n"
    }
}
