public import EntitlintCore
import PropertyList
import Provisioning

/// Runs a rule's examples: what the tests check and what `Rules/<id>.md` shows.
public enum RuleExampleRunner {
    public struct Prepared: Sendable {
        /// The whole entitlements file, markers removed.
        public var text: String
        /// Positions of the `↓` markers (line, column of the character after the marker).
        public var markers: [SourceLocation]
        /// The whole profile plist of the example, markers removed (nil without a profile).
        public var profileText: String? = nil
        /// Positions of the `↓` markers in the profile (findings in `profilePath`).
        public var profileMarkers: [SourceLocation] = []
        /// A project example's markers, in each unit's file (ProjectExampleRunner.swift).
        public var projectMarkers: [ProjectExampleRunner.Marker] = []
    }

    /// The path of an example's entitlements file and profile, as findings show them.
    public static let entitlementsPath = "Example.entitlements"
    public static let profilePath = "Example.mobileprovision"
    /// "Today" for the examples, so that expiry examples never go stale: 2025-06-01.
    public static let now = PlistDate(year: 2025, month: 6, day: 1, hour: 0, minute: 0, second: 0)

    /// Wraps a dict body into a whole entitlements file (unless it already is one) and finds the markers.
    public static func prepare(_ example: RuleExample) -> Prepared {
        if !example.project.isEmpty {
            return Prepared(text: example.project.map { $0.path + ":\n" + $0.entitlements }.joined(separator: "\n"), markers: [],
                            projectMarkers: ProjectExampleRunner.markers(example))
        }
        let source = example.entitlements
        let whole = source.hasPrefix("<?xml") || source.hasPrefix("<plist")
            ? source + (source.hasSuffix("\n") ? "" : "\n")
            : ExampleText.header + source + ExampleText.footer
        var prepared = strip(whole)
        if let profile = profileSource(for: example) {
            let p = strip(profile)
            prepared.profileText = p.text
            prepared.profileMarkers = p.markers
        }
        return prepared
    }

    /// Removes the `↓` markers of a text and records where they were.
    static func strip(_ whole: String) -> Prepared {
        var text = ""
        var markers: [SourceLocation] = []
        var line = 1
        var column = 1
        for ch in whole {
            if ch == RuleExample.marker {
                markers.append(SourceLocation(line: line, column: column))
                continue
            }
            text.append(ch)
            if ch == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return Prepared(text: text, markers: markers)
    }

    /// The profile plist an example describes, markers included: `Name`, `TeamIdentifier` and
    /// `ApplicationIdentifierPrefix`, then the example's `profile` keys, then `Entitlements` from
    /// `profileEntitlements`. Nil when the example has neither.
    static func profileSource(for example: RuleExample) -> String? {
        guard example.profileEntitlements != nil || example.profile != nil else { return nil }
        let team = example.teamID ?? "ABCDE12345"
        var plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        <key>Name</key><string>Example Profile</string>
        <key>TeamIdentifier</key><array><string>\(team)</string></array>
        <key>ApplicationIdentifierPrefix</key><array><string>\(team)</string></array>

        """
        if let keys = example.profile { plist += keys + "\n" }
        if let body = example.profileEntitlements { plist += "<key>Entitlements</key>\n<dict>\n" + body + "\n</dict>\n" }
        plist += "</dict>\n</plist>"
        return plist
    }

    /// The profile an example describes, as a plain plist decoded by the real decoder.
    public static func profile(for example: RuleExample) -> ProfileFile? {
        guard let text = prepare(example).profileText, let p = try? ProfileDecoder.decode(Array(text.utf8)) else { return nil }
        return ProfileFile(path: profilePath, profile: p)
    }

    /// The severity overrides of a run that names `rule`: an opt-in rule given its default
    /// severity, as `--select` gives it (else it would report nothing).
    public static func naming(_ rule: any Rule) -> [String: Configuration.RuleSetting] {
        let d = type(of: rule).description
        guard d.optIn, let setting = Configuration.RuleSetting(rawValue: d.severity.rawValue) else { return [:] }
        return [d.id: setting]
    }

    /// The findings of `rule` alone on `example`.
    public static func run(_ rule: any Rule, on example: RuleExample) -> [Finding] {
        if !example.project.isEmpty { return ProjectExampleRunner.run(rule, on: example) }
        let prepared = prepare(example)
        var lock: LockFile?
        if let locked = example.lockedDefaultGroup {
            lock = LockFile(units: ["Example": .init(bundleID: nil, defaultAccessGroup: locked, accessGroups: [locked])])
        }
        if !example.locked.isEmpty { lock = LockFile(units: example.locked) }
        let id = type(of: rule).description.id
        // unused-suppression judges the findings of the other rules: its examples run them all.
        let linter = Linter(rules: id == FindingStage.unusedSuppressionID ? RuleRegistry.all : [rule], severityOverrides: Self.naming(rule))
        guard example.profile != nil || example.built != nil || rule.asProfileRule != nil || !example.settings.isEmpty || example.unused
                || !example.locked.isEmpty else {
            return linter.lint(entitlements: Array(prepared.text.utf8), path: entitlementsPath, name: "Example",
                               bundleID: example.bundleID, teamID: example.teamID, profile: profile(for: example), lock: lock)
                .filter { $0.rule == id }
        }
        // Examples with a full profile or a built product: the unit is formed here, "today" is `now`.
        guard case .entitlements(let document) = DocumentReader.parse(bytes: Array(prepared.text.utf8), path: entitlementsPath, limits: .default) else {
            return []
        }
        var unit = linter.unit(document: document, path: entitlementsPath, name: "Example", bundleID: example.bundleID,
                               teamID: example.teamID, profile: profile(for: example))
        unit.isUnused = example.unused
        if !example.settings.isEmpty {
            // A target's configuration: settings the example leaves empty are recorded as the
            // project reader records them.
            unit.variables.merge(example.settings) { _, new in new }
            let mac = example.settings["SDKROOT"] == "macosx"
            var origin = UnitOrigin(projectFile: "Example.xcodeproj/project.pbxproj", projectName: "Example", target: "Example",
                                    configuration: "Debug", kind: .app, sdk: mac ? "macosx" : "iphoneos")
            if mac {
                unit.platform = .macOS
                origin.signsToRunLocally = UnitOrigin.signsToRunLocally(
                    identity: example.settings["CODE_SIGN_IDENTITY"], team: example.settings["DEVELOPMENT_TEAM"] ?? example.teamID,
                    profiles: [example.settings["PROVISIONING_PROFILE_SPECIFIER"], example.settings["PROVISIONING_PROFILE"]])
                origin.signingIdentitySource = example.settings["CODE_SIGN_IDENTITY"].map { _ in "Example.xcodeproj/project.pbxproj:12" }
            }
            for (name, value) in example.settings where value.isEmpty {
                origin.emptySettings[name] = "it is set only as \(name)[config=Release] at Config/Release.xcconfig:3"
            }
            unit.origin = origin
        }
        if let built = example.built {
            var der = document.root
            if let body = built.derEntitlements,
               let parsed = try? PropertyListReader.parse(Array((ExampleText.header + body + ExampleText.footer).utf8)) {
                der = parsed.root
            }
            unit.platform = built.platform
            unit.artifact = BuiltArtifactFacts(bundlePath: "Example.app", bundleKind: built.bundleKind, infoPlistBundleID: example.bundleID,
                                               entitlementsSource: .codeSignatureXML, architectures: ["arm64"], derEntitlements: der,
                                               hasEmbeddedProfile: unit.profile != nil)
            if !built.phoneAppGroups.isEmpty {
                unit.artifact?.bundlePath = "Example.ipa!Payload/App.app/Watch/Example.app"
                unit.artifact?.embeddingPhoneApp = "Example.ipa!Payload/App.app"
                unit.artifact?.embeddingPhoneAppGroups = Dictionary(built.phoneAppGroups.map { ($0, false) }) { a, _ in a }
                unit.artifact?.watchMentionsSynchronizable = built.watchSynchronizable
            }
            if let name = built.signingCertificate {
                let certificate = DeveloperCertificate(
                    commonName: name, organizationalUnit: example.teamID, organization: nil,
                    notBefore: PlistDate(year: 2025, month: 1, day: 1, hour: 0, minute: 0, second: 0),
                    notAfter: PlistDate(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0), serialNumber: "01")
                unit.artifact?.signingCertificate = CertificateFact(certificate, from: .derived("the CMS signature (slot 0x10000) of Example.app/Example"))
            }
        }
        if !example.locked.isEmpty {
            // The whole run: a unit renamed since is paired with its entry once every unit is known.
            // In memory the example's file is the only one, so a file a lock entry names is gone;
            // the run is one over the lock file's folder (which holds the example's file), so an
            // entry that records no file is covered too.
            let settings = CheckSettings(now: now)
            let cwd = settings.workingDirectory
            let file = Paths.absolute(entitlementsPath, cwd: cwd)
            lock?.path = Paths.absolute("entitlint.lock", cwd: cwd)
            var plan = UnitPlan(units: [PlannedUnit(unit, family: "")], lock: lock, settings: settings)
            plan.isMissing = { $0 != file }
            plan.walkedFolders = { [cwd] }
            return linter.run(plan).findings.filter { $0.rule == id }
        }
        return linter.check(unit, lock: lock, settings: CheckSettings(now: now)).filter { $0.rule == id }
    }
}

extension RuleExampleRunner {
    /// The example's entitlements file after the rule's fixes (safe and unsafe) are applied to
    /// its bytes, as `lint --fix --unsafe-fixes` places them: nil when the rule offers no fix
    /// here or the fixes' edits touch each other.
    public static func corrected(_ rule: any Rule, on example: RuleExample) -> String? {
        let text = prepare(example).text
        let bytes = Array(text.utf8)
        var edits: [Finding.Edit] = []
        for f in run(rule, on: example) {
            guard let fix = f.fix, let e = FixResolver.edits(fix.operations, bytes: bytes, path: f.path) else { continue }
            edits += e
        }
        guard !edits.isEmpty, let fixed = FixApplier.apply(edits, to: bytes) else { return nil }
        return String(decoding: fixed, as: UTF8.self)
    }
}
