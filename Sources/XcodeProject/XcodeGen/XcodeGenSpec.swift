import EntitlintCore
import EntitlintWorkspace
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PropertyList
import YAMLReader

/// XcodeGen project specs (`project.yml`; XcodeGen's `Docs/ProjectSpec.md`), read into the same
/// units as Xcode projects:
///
/// - `name`, `include` (other specs merged first: dictionaries merged, lists appended, `KEY:REPLACE`
///   replaces), `options.bundleIdPrefix` (a target without `PRODUCT_BUNDLE_IDENTIFIER` at any level
///   gets `bundleIdPrefix.TargetName`, the name stripped to letters, digits, `-` and `.`, `_` made `-`);
/// - `configs` (default `Debug` and `Release`), `configFiles` (an `.xcconfig` per configuration),
///   `settings` (a map, or `groups` / `base` / `configs`, the `configs` keys matching any
///   configuration whose name contains them, case-insensitively), `settingGroups`;
/// - `targets` with `type`, `platform`, `settings`, `configFiles`, `templates` (from
///   `targetTemplates`, `${target_name}` replaced), `dependencies` (`target:`: an app depending on an
///   extension is its host), and `entitlements`: `path` (XcodeGen writes the file there and sets
///   `CODE_SIGN_ENTITLEMENTS`) and `properties` (the file's contents). With `properties`, the
///   entitlements are read from the spec, and findings point into `project.yml`; without, from `path`.
///
/// Settings levels, lowest first: the project's config file, the project's settings, the target's
/// config file, XcodeGen's target presets that matter here (`SDKROOT` from `platform`,
/// `CODE_SIGN_ENTITLEMENTS` from `entitlements.path`), the target's settings. Multi-platform targets
/// (`platform: [iOS, macOS]`) are reported, not guessed.
enum XcodeGenSpec {
    static let maxIncludeDepth = 16

    /// The spec with its includes merged in. Problems name the file and line.
    static func load(_ path: String, files: ProjectFiles, problems: inout [ProjectProblem], read: inout [String],
                     stack: [String] = [], budget: Budget = Budget()) -> YNode? {
        let abs = files.absolute(path)
        let shown = files.shown(abs)
        if let known = budget.loaded[abs], !stack.contains(abs) { return known }
        guard stack.count < maxIncludeDepth, !stack.contains(abs) else {
            problems.append(ProjectProblem(file: files.shown(stack.last ?? abs), location: .unknown,
                                           message: "include loop or nesting too deep: \((stack + [abs]).map(files.shown).joined(separator: " -> "))"))
            return nil
        }
        let bytes: [UInt8]
        switch files.read(abs) {
        case .success(let b): bytes = b
        case .failure(let why):
            problems.append(ProjectProblem(file: shown, location: .unknown, message: "cannot read the XcodeGen spec: \(why)"))
            return nil
        }
        read.append(shown)
        let text = String(decoding: bytes, as: UTF8.self)
        // Yams composes nested collections recursively: bound the nesting first.
        if let line = YAMLNestingLimit.firstLineDeeperThan(200, in: text) {
            problems.append(ProjectProblem(file: shown, location: SourceLocation(line: line, column: 0), message: "cannot parse the XcodeGen spec: nested more than 200 levels deep"))
            return nil
        }
        let node: YAMLNode?
        do { node = try YAMLNode.compose(yaml: text) } catch {
            // The problem and its place, never the lines Yams quotes: an `include:` may name
            // any file of the project.
            let problem = Configuration.yamlProblem(error)
            problems.append(ProjectProblem(file: shown, location: SourceLocation(line: problem.line, column: 0),
                                           message: "cannot parse the XcodeGen spec: \(problem.text)"))
            return nil
        }
        guard let node else { return nil }
        guard var spec = convert(node, file: shown, budget: budget) else {
            problems.append(ProjectProblem(file: shown, location: .unknown, message: Budget.message))
            return nil
        }
        var includes: [YNode] = []
        if let inc = spec["include"] {
            for item in inc.items.isEmpty ? [inc] : inc.items {
                guard let rel = item.string ?? item["path"]?.string else { continue }
                budget.includes += 1
                guard budget.includes <= Budget.maxIncludes else {
                    problems.append(ProjectProblem(file: shown, location: item.location, message: "include: more than \(Budget.maxIncludes) includes in all; the settings the rest would give are unknown"))
                    break
                }
                var p = ProjectFiles.normalize(ProjectFiles.join(Paths.directoryName(path), rel))
                if files.kind(p) == .missing, !files.isOutside(p), let variant = files.caseVariant(of: p) {
                    // As XcodeGen on a case-insensitive volume (the macOS default) reads it.
                    problems.append(ProjectProblem(file: shown, location: item.location,
                                                   message: "include: \(files.shown(p)) does not exist, but \(files.shown(variant)) does: the names differ only in case, which a case-insensitive volume (the macOS default) accepts; it breaks on a case-sensitive volume and on Linux, so write the name as it is",
                                                   severity: .note))
                    p = variant
                }
                if files.isOutside(p) {
                    problems.append(ProjectProblem(file: shown, location: item.location,
                                                   message: "include: \(OutputText.reference(rel)) is outside the project root (symbolic links resolved): not read; the settings it would give are unknown"))
                    continue
                }
                if files.kind(p) != .file {
                    problems.append(ProjectProblem(file: shown, location: item.location, message: "include: \(files.shown(p)) does not exist; the settings it would give are unknown"))
                    continue
                }
                if let included = load(p, files: files, problems: &problems, read: &read, stack: stack + [abs], budget: budget) { includes.append(included) }
            }
        }
        if !includes.isEmpty {
            var merged = includes[0]
            for extra in includes.dropFirst() { merged = merge(merged, extra, budget: budget) }
            spec = merge(merged, spec, budget: budget)
        }
        guard !budget.exceeded else {
            problems.append(ProjectProblem(file: shown, location: .unknown, message: Budget.message))
            budget.loaded[abs] = .some(nil)
            return nil
        }
        budget.loaded[abs] = spec
        return spec
    }

    static func projectName(_ specPath: String, files: ProjectFiles) -> String? {
        var problems: [ProjectProblem] = []
        var read: [String] = []
        return load(specPath, files: files, problems: &problems, read: &read)?["name"]?.string
    }

    static let productTypes: [String: String] = [
        "application": "com.apple.product-type.application",
        "application.on-demand-install-capable": "com.apple.product-type.application.on-demand-install-capable",
        "application.messages": "com.apple.product-type.application.messages",
        "application.watchapp": "com.apple.product-type.application.watchapp",
        "application.watchapp2": "com.apple.product-type.application.watchapp2",
        "application.watchapp2-container": "com.apple.product-type.application.watchapp2-container",
        "app-extension": "com.apple.product-type.app-extension",
        "app-extension.messages": "com.apple.product-type.app-extension.messages",
        "app-extension.messages-sticker-pack": "com.apple.product-type.app-extension.messages-sticker-pack",
        "app-extension.intents-service": "com.apple.product-type.app-extension.intents-service",
        "extensionkit-extension": "com.apple.product-type.extensionkit-extension",
        "tv-app-extension": "com.apple.product-type.tv-app-extension",
        "watchkit-extension": "com.apple.product-type.watchkit-extension",
        "watchkit2-extension": "com.apple.product-type.watchkit2-extension",
        "xpc-service": "com.apple.product-type.xpc-service",
        "system-extension": "com.apple.product-type.system-extension",
        "driver-extension": "com.apple.product-type.driver-extension",
    ]

    static let platformSDKs: [String: String] = ["iOS": "iphoneos", "macOS": "macosx", "tvOS": "appletvos", "watchOS": "watchos", "visionOS": "xros"]
}

extension XcodeGenSpec {
    /// Whether a project path of the run is a spec (a YAML file), not an `.xcodeproj` folder.
    static func isSpecPath(_ path: String) -> Bool { path.hasSuffix(".yml") || path.hasSuffix(".yaml") }

    /// The largest YAML file the search of a file's folders reads to tell whether it is a spec.
    static let ancestorSpecLimit = 256 << 10

    /// Of `candidates` (YAML files a walk met, not named `project.yml`), the XcodeGen specs to read
    /// as projects: a file whose top level has both `name:` and `targets:` (XcodeGen's required
    /// keys: `mail-project.yml`, `App.yml`), unless another spec of the run includes it (its
    /// `include:` entries are read with that spec). Each file is read once, at most 256 KiB, at
    /// most 512 files.
    static func rootSpecs(_ candidates: [String], named: [String], files: ProjectFiles) -> [String] {
        var specs: [(path: String, text: String)] = []
        for path in candidates.prefix(512) {
            guard case .success(let bytes) = files.read(path) else { continue }
            let text = String(decoding: bytes.prefix(256 << 10), as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            guard lines.contains(where: { $0.hasPrefix("targets:") }), lines.contains(where: { $0.hasPrefix("name:") }) else { continue }
            specs.append((path, text))
        }
        var includedNames = Set<String>()
        for text in specs.map(\.text) + named.compactMap({ p -> String? in
            guard case .success(let b) = files.read(p) else { return nil }
            return String(decoding: b.prefix(256 << 10), as: UTF8.self)
        }) {
            // Names of YAML files an `include:` may list; any spec naming a file makes it an include.
            for token in text.split(whereSeparator: { " \t\n\r\"',[]".contains($0) }) where token.hasSuffix(".yml") || token.hasSuffix(".yaml") {
                includedNames.insert(Paths.baseName(String(token)))
            }
        }
        return specs.map(\.path).filter { !includedNames.contains(Paths.baseName($0)) }
    }
}
