import EntitlintCore
public import EntitlintWorkspace
import PropertyList

/// The xcconfig loader and the build-setting evaluator on one file, for the fuzz harness
/// (`Tests/Fuzz`, built in release mode, where `@testable import` is not available) and its
/// regression test. Not part of the supported API: it is visible only to an
/// `@_spi(Fuzzing) import XcodeProject`.
@_spi(Fuzzing)
public enum XCConfigEvaluation {
    public struct Result: Sendable {
        /// The settings the file assigns (includes flattened), each resolved for an iOS Debug
        /// and a macOS Release build: the value, or nil when it has a problem or is unset.
        public var values: [String: [String?]] = [:]
        /// What the loader and the evaluator reported (includes, syntax, cycles, lengths).
        public var problems: [String] = []
    }

    /// Loads `path` through `options` (its virtual files, else the disk) as `XcodeDiscoverer`
    /// does for a base configuration, then resolves the first `maxSettings` setting names it
    /// assigns, in two contexts, with references kept and dropped for undefined settings.
    public static func evaluate(_ path: String, options: LintOptions, cwd: String, maxSettings: Int = 256) -> Result {
        let loader = XCConfigLoader(files: ProjectFiles(options: options, cwd: cwd))
        let entries = loader.load(path, referencedFrom: ("", SourceLocation(line: 1, column: 1)))
        var result = Result()
        result.problems = loader.problems.map(\.message)
        var names: [String] = []
        var seen = Set<String>()
        for e in entries where e.hole == nil && names.count < maxSettings && seen.insert(e.name).inserted { names.append(e.name) }
        let builtins = ["TARGET_NAME": "App", "PRODUCT_NAME": "App", "SRCROOT": Paths.directoryName(path), "CONFIGURATION": "Debug"]
        let contexts = [SettingContext(sdk: "iphoneos", configuration: "Debug"), SettingContext(sdk: "macosx", arch: "x86_64", configuration: "Release")]
        for (i, context) in contexts.enumerated() {
            let evaluator = SettingsEvaluator(entries: entries, builtins: builtins, context: context, keepUndefined: i == 1)
            for name in names {
                let resolved = evaluator.resolve(name)
                result.values[name, default: []].append(resolved.value)
                if let problem = resolved.problem { result.problems.append("\(name): \(problem)") }
            }
        }
        return result
    }
}
