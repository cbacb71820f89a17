public import EntitlintCore
import PropertyList

extension ProjectExampleUnit {
    /// The SDK the example's target builds for: a watch app builds for watchOS.
    var sdk: String { platform == .macOS ? "macosx" : kind == .watchApp ? "watchos" : "iphoneos" }
}

/// Runs and documents the examples of project rules: several units of one project
/// (`RuleExample.project`), each with its own entitlements file `<Target>.entitlements`.
public enum ProjectExampleRunner {
    /// A `↓` marker of a project example: the file of its unit and the position.
    public struct Marker: Sendable, Hashable {
        public var path: String
        public var location: SourceLocation
    }

    static func wrap(_ body: String) -> String {
        body.hasPrefix("<?xml") || body.hasPrefix("<plist") ? body + (body.hasSuffix("\n") ? "" : "\n")
            : ExampleText.header + body + ExampleText.footer
    }

    /// The markers of every unit, sorted by file then position (the order of sorted findings).
    public static func markers(_ example: RuleExample) -> [Marker] {
        files(example).flatMap { path, text in
            RuleExampleRunner.strip(text).markers.map { Marker(path: path, location: $0) }
        }
    }

    /// Every file of a project example (entitlements and sources), each once, sorted by path,
    /// markers still in.
    static func files(_ example: RuleExample) -> [(path: String, text: String)] {
        var byPath: [String: String] = [:]
        for u in example.project {
            byPath[u.path] = wrap(u.entitlements)
            for (path, text) in u.sources ?? [:] { byPath[path] = text }
        }
        return byPath.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Reads the source files of a project example (markers removed) for the code rules.
    static func codeIndex(_ example: RuleExample) -> CodeIndex {
        var texts: [String: [UInt8]] = [:]
        for (path, text) in files(example) { texts[path] = Array(RuleExampleRunner.strip(text).text.utf8) }
        let files = texts
        // The finding stage reads a file with findings by its absolute path: in memory, `/` + the path.
        return CodeIndex(read: { files[$0] ?? ($0.hasPrefix("/") ? files[String($0.dropFirst())] : nil) }, display: { $0 })
    }

    /// The units of a project example, formed as a project would form them.
    public static func units(_ example: RuleExample, linter: Linter) -> [SigningUnit] {
        var units: [SigningUnit] = []
        for u in example.project {
            let text = RuleExampleRunner.strip(wrap(u.entitlements)).text
            guard case .entitlements(let document) = DocumentReader.parse(bytes: Array(text.utf8), path: u.path, limits: .default) else { continue }
            var unit = linter.unit(document: document, path: u.path, name: "\(u.target) (\(u.configuration))",
                                   bundleID: u.bundleID, teamID: u.teamID)
            unit.platform = u.platform
            let host = u.host.flatMap { h in example.project.first { $0.target == h } }
            unit.origin = UnitOrigin(projectFile: "Example.xcodeproj/project.pbxproj", projectName: "Example", target: u.target,
                                     configuration: u.configuration, kind: u.kind, sdk: u.sdk,
                                     hostTarget: u.host, hostBundleID: host?.bundleID)
            if let sources = u.sources {
                unit.origin?.sources = UnitSources(files: sources.keys.sorted(), infoPlistPath: u.infoPlist.isEmpty ? nil : "\(u.target)/Info.plist",
                                                   infoPlist: u.infoPlist)
                unit.origin?.sources?.preprocessorMacros = u.macros
                unit.origin?.sources?.cplusplusMacros = u.macros
                unit.origin?.sources?.compilationConditions = u.swiftConditions
            }
            units.append(unit)
        }
        return units
    }

    /// The findings of `rule` alone on a project example (of every rule, for `unused-suppression`,
    /// which judges their findings).
    public static func run(_ rule: any Rule, on example: RuleExample) -> [Finding] {
        let id = type(of: rule).description.id
        let linter = Linter(rules: id == FindingStage.unusedSuppressionID ? RuleRegistry.all : [rule], severityOverrides: RuleExampleRunner.naming(rule))
        return linter.lint(units: units(example, linter: linter), settings: CheckSettings(now: RuleExampleRunner.now),
                           codeIndex: codeIndex(example)).filter { $0.rule == id }
    }

    /// The Markdown of a project example for `Rules/<id>.md`.
    static func markdown(_ example: RuleExample, rule: any Rule, triggering: Bool) -> String {
        var s = ""
        if let c = example.comment { s += c + "\n\n" }
        for u in example.project {
            var facts = ["\(u.kind.rawValue)"]
            if let h = u.host { facts[0] += " embedded in `\(h)`" }
            if let b = u.bundleID { facts.append("bundle ID `\(b)`") }
            if let t = u.teamID { facts.append("team `\(t)`") }
            facts.append(u.platform == .macOS ? "macOS" : u.sdk == "watchos" ? "watchOS" : "iOS")
            if example.project.contains(where: { $0.target == u.target && $0.configuration != u.configuration }) {
                facts.append("configuration \(u.configuration)")
            }
            s += "Target `\(u.target)` (\(facts.joined(separator: ", "))), `\(u.path)`:\n\n```xml\n" + u.entitlements + "\n```\n\n"
            if !u.infoPlist.isEmpty {
                s += "Its Info.plist: " + u.infoPlist.sorted { $0.key < $1.key }.map { "`\($0.key)` = `\($0.value)`" }.joined(separator: ", ") + ".\n\n"
            }
            if let macros = u.macros {
                s += "Its `GCC_PREPROCESSOR_DEFINITIONS`: " + (macros.isEmpty ? "none" : macros.sorted { $0.key < $1.key }
                    .map { "`\($0.key)=\($0.value)`" }.joined(separator: " ")) + ".\n\n"
            }
            if let conditions = u.swiftConditions {
                s += "Its `SWIFT_ACTIVE_COMPILATION_CONDITIONS`: " + (conditions.isEmpty ? "none" : conditions.sorted().map { "`\($0)`" }
                    .joined(separator: " ")) + ".\n\n"
            }
            if let sources = u.sources {
                s += sources.isEmpty ? "It compiles no source file.\n\n"
                    : "It compiles " + sources.keys.sorted().map { "`\($0)`" }.joined(separator: ", ") + ".\n\n"
            }
        }
        var shown = Set<String>()
        for u in example.project {
            for (path, text) in (u.sources ?? [:]).sorted(by: { $0.key < $1.key }) where shown.insert(path).inserted {
                let language = path.hasSuffix(".swift") ? "swift" : "objc"
                s += "`\(path)`:\n\n```\(language)\n" + text + (text.hasSuffix("\n") ? "" : "\n") + "```\n\n"
            }
        }
        if triggering {
            let findings = run(rule, on: example)
            if !findings.isEmpty {
                s += "```text\n"
                for f in findings { s += "\(f.path):\(f.line):\(f.column): \(f.severity.rawValue): \(f.shownMessage)\n" }
                s += "```\n\n"
            }
        }
        return s
    }
}
