public import EntitlintCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import PropertyList

/// `entitlint init`: a commented starter `.entitlint.yml` for the entitlements files and profiles
/// found in a folder.
///
/// It writes only what the files say: an app per entitlements file, named after it; a bundle ID
/// and a Team ID only where a literal `application-identifier` (`ABCDE12345.com.example.App`) or
/// `com.apple.developer.team-identifier` states them. Everything else is a commented-out line to
/// fill in: Entitlint never guesses a value.
public enum StarterConfiguration {
    /// One entitlements file found: its path relative to the configuration's folder, and its
    /// parsed contents (nil when it does not parse).
    public struct EntitlementsFile: Sendable {
        public var path: String
        public var entitlements: PlistDictionary?
        public init(path: String, entitlements: PlistDictionary?) {
            self.path = path
            self.entitlements = entitlements
        }
    }

    /// A unit a project defines (a target in one configuration), as the starter file mentions it:
    /// the project already tells Entitlint its entitlements file, bundle ID and team, so the file
    /// needs no `apps:` entry for it.
    public struct ProjectUnit: Sendable, Equatable {
        /// `Target (Configuration)`.
        public var name: String
        /// Relative to the configuration's folder.
        public var entitlementsPath: String
        public var bundleID: String?
        public var teamID: String?
        public init(name: String, entitlementsPath: String, bundleID: String?, teamID: String?) {
            self.name = name
            self.entitlementsPath = entitlementsPath
            self.bundleID = bundleID
            self.teamID = teamID
        }
    }

    /// What a file states of itself.
    struct Stated {
        var team: (value: String, source: String)?
        var bundleID: String?
    }

    static func stated(_ file: EntitlementsFile) -> Stated {
        var s = Stated()
        guard let ent = file.entitlements else { return s }
        let key = ent["application-identifier"] != nil ? "application-identifier" : "com.apple.application-identifier"
        if let appID = ent[key]?.string, !appID.containsASCII(sequence: "$("), !appID.containsASCII(sequence: "${"),
           let dot = appID.firstIndex(of: "."), String(appID[..<dot]).isTeamIDLike {
            let bundle = String(appID[appID.index(after: dot)...])
            if !bundle.isEmpty, !bundle.containsASCII("*") { s.bundleID = bundle }
            s.team = (String(appID[..<dot]), "the \(key) \"\(appID)\" of \(file.path)")
        }
        if let t = ent["com.apple.developer.team-identifier"]?.string, t.isTeamIDLike {
            s.team = (t, "the com.apple.developer.team-identifier of \(file.path)")
        }
        return s
    }

    /// The entitlements files that get an `apps:` entry: those no project unit signs with, by path.
    public static func listedFiles(_ entitlements: [EntitlementsFile], projectUnits: [ProjectUnit]) -> [EntitlementsFile] {
        let signedByProject = Set(projectUnits.map(\.entitlementsPath))
        return entitlements.filter { !signedByProject.contains($0.path) }.sorted { $0.path < $1.path }
    }

    /// The starter file's text. `rules`: every rule id with its default severity, listed
    /// commented out.
    /// `projectUnits`: the units the folder's projects define; their entitlements files get no
    /// `apps:` entry (the project says everything an entry would) and are listed in a comment.
    public static func text(entitlements: [EntitlementsFile], profiles: [String], rules: [(id: String, severity: Severity)],
                            projectUnits: [ProjectUnit] = []) -> String {
        let files = listedFiles(entitlements, projectUnits: projectUnits)
        let stated = files.map(Self.stated)
        let teams = Set(stated.compactMap { $0.team?.value })
        let sharedTeam = teams.count == 1 ? stated.compactMap(\.team).first : nil

        var out = """
        # Entitlint configuration, written by `entitlint init`. Every key is optional; paths are
        # relative to this file. `entitlint lint` finds it in the current folder or above.
        # JSON Schema: Examples/entitlint.schema.json in the Entitlint repository.

        """
        out += "\n"
        if let sharedTeam {
            out += "# Team ID, from \(comment(sharedTeam.source)).\n"
            out += "# Check it: the App ID prefix of an App ID made before 2011 is not the Team ID.\n"
            out += "team: \(quoted(sharedTeam.value))\n"
        } else {
            if teams.count > 1 {
                out += "# The files name more than one team (\(teams.sorted().joined(separator: ", "))): each app says its own below.\n"
            }
            out += "# team: ABCDE12345            # your Team ID (10 characters; Membership details in your developer account)\n"
        }
        out += "\n"

        out += projectSummary(projectUnits)
        if files.isEmpty, !projectUnits.isEmpty {
            out += """
            # apps:                          # only for entitlements files no project target signs with
            #   - name: Tool
            #     entitlements: Tool/Tool.entitlements
            #     bundle-id: com.example.Tool

            """
        } else if files.isEmpty {
            out += """
            # No entitlements files were found. Describe each app (or extension) like this:
            # apps:
            #   - name: App
            #     entitlements: App/App.entitlements
            #     bundle-id: com.example.App    # PRODUCT_BUNDLE_IDENTIFIER
            #     profile: profiles/App.mobileprovision

            """
        } else {
            out += "# One entry per entitlements file no project target signs with. Such a unit is named after\n"
            out += "# `name` (a project's units are named `Target (Configuration)`); the lock file is keyed by it.\n"
            out += "apps:\n"
            let names = uniqueNames(files.map(\.path))
            for (i, file) in files.enumerated() {
                out += "  - name: \(quoted(names[i]))\n"
                out += "    entitlements: \(quoted(file.path))\n"
                if let bundle = stated[i].bundleID {
                    out += "    bundle-id: \(quoted(bundle))    # from its application-identifier\n"
                } else {
                    out += "    # bundle-id: com.example.\(placeholderComponent(names[i]))    # PRODUCT_BUNDLE_IDENTIFIER of the target\n"
                }
                if sharedTeam == nil, let team = stated[i].team {
                    out += "    team: \(quoted(team.value))    # from \(comment(team.source))\n"
                }
                if file.entitlements == nil {
                    out += "    # (this file does not parse: `entitlint lint \(comment(file.path))` says why)\n"
                }
                let macOS = file.entitlements.map(isMacOS) ?? false
                out += "    # profile: profiles/\(comment(names[i])).\(macOS ? "provisionprofile" : "mobileprovision")\n"
            }
            out += "\n"
        }

        // Profile folders, so that a hook given one changed file still pairs its profile.
        let folders = Set(profiles.map(Paths.directoryName))
        if !profiles.isEmpty {
            out += "# Provisioning profiles to pair with the apps (folders are searched).\n"
            out += "profiles:\n"
            var listed: [String] = []
            for folder in folders.sorted() {
                if folder == "." {
                    listed += profiles.filter { Paths.directoryName($0) == "." }.sorted()
                } else {
                    listed.append(folder)
                }
            }
            for p in listed { out += "  - \(quoted(p))\n" }
        } else {
            out += "# profiles: [profiles]          # folders or files of provisioning profiles to pair with the apps\n"
        }
        out += "\n"

        out += "# Severity of each rule: error, warning, note or off (`entitlint rules`, `entitlint explain ID`).\n"
        out += "# rules:\n"
        let width = rules.map(\.id.count).max() ?? 0
        for r in rules {
            out += "#   \(r.id):" + String(repeating: " ", count: width - r.id.count + 1) + r.severity.rawValue + "\n"
        }
        out += """

        # exclude: ["Tests/**"]          # globs of files not to lint, even when named on the command line
        # lock: entitlint.lock           # each app's default access group: `entitlint lock`, then commit it
        # baseline: entitlint.baseline.json  # known findings: `entitlint lint --write-baseline entitlint.baseline.json`
        # fail-on: error                 # the lowest severity that fails the run: error, warning or note
        # variables:                     # values of custom build variables used in entitlements
        #   BUNDLE_ID_PREFIX: com.example

        """
        return out
    }

    /// The comment listing the units read from the projects, grouped by entitlements file.
    static func projectSummary(_ units: [ProjectUnit]) -> String {
        guard !units.isEmpty else { return "" }
        var byFile: [String: [ProjectUnit]] = [:]
        for u in units { byFile[u.entitlementsPath, default: []].append(u) }
        var out = "# Read from the project (no entry needed: `entitlint lint` reads the same settings):\n"
        for path in byFile.keys.sorted() {
            let group = byFile[path]!
            let names = group.map(\.name).sorted().joined(separator: ", ")
            let bundles = Set(group.compactMap(\.bundleID)).sorted().joined(separator: ", ")
            let teams = Set(group.compactMap(\.teamID)).sorted().joined(separator: ", ")
            out += "#   \(comment(path)): \(comment(names))"
            if !bundles.isEmpty { out += "; bundle ID \(comment(bundles))" }
            out += teams.isEmpty ? "; team not set in the project (give it with `team:` or --team-id)" : "; team \(comment(teams))"
            out += "\n"
        }
        return out + "\n"
    }

    /// A bundle-ID component made from a name: letters, digits and hyphens only (a bundle ID may
    /// hold nothing else), so a placeholder filled in as written is valid.
    static func placeholderComponent(_ name: String) -> String {
        let mapped = String(String.UnicodeScalarView(name.unicodeScalars.map { u in
            (u.isASCII && (u.properties.isAlphabetic || ("0"..."9").contains(u))) ? u : "-"
        }))
        let trimmed = mapped.split(separator: "-").joined(separator: "-")
        return trimmed.isEmpty ? "App" : trimmed
    }

    /// Whether an entitlements dictionary is a macOS app's: the App Sandbox key, or the macOS
    /// spelling of the application identifier.
    static func isMacOS(_ ent: PlistDictionary) -> Bool {
        ent["com.apple.security.app-sandbox"] != nil || ent["com.apple.application-identifier"] != nil
    }

    /// Unit names from file names; a name two files share gets its folder's name in front, and
    /// one still taken the first free `-2`, `-3`, ... after it.
    static func uniqueNames(_ paths: [String]) -> [String] {
        var tries = 0
        return uniqueNames(paths, tries: &tries)
    }

    /// `uniqueNames`, counting the candidate names tried. Linear: each name keeps the number it
    /// reached, since every number before it was taken (and taken names stay taken), so a
    /// thousand files of one name try a thousand candidates, not half a million.
    static func uniqueNames(_ paths: [String], tries: inout Int) -> [String] {
        let stems = paths.map(Paths.stem)
        var counts: [String: Int] = [:]
        for s in stems { counts[s, default: 0] += 1 }
        var used = Set<String>()
        var next: [String: Int] = [:]
        return zip(paths, stems).map { path, stem in
            var name = stem
            if counts[stem]! > 1 {
                let folder = Paths.baseName(Paths.directoryName(path))
                name = folder == "." || folder == "/" ? stem : "\(folder)-\(stem)"
            }
            tries += 1
            if used.insert(name).inserted { return name }
            var n = next[name] ?? 2
            while true {
                tries += 1
                let candidate = "\(name)-\(n)"
                n += 1
                if used.insert(candidate).inserted {
                    next[name] = n
                    return candidate
                }
            }
        }
    }

    /// Scans `directory` as `lint` walks it: its entitlements files (parsed) and profiles, with
    /// paths relative to it.
    public static func scan(_ directory: String, limits: PlistLimits = .default) -> (entitlements: [EntitlementsFile], profiles: [String]) {
        let found = Paths.walk(directory) { p in
            let e = InputFiles.ext(p)
            return InputFiles.entitlementsExtensions.contains(e) || InputFiles.profileExtensions.contains(e)
        }
        func relative(_ p: String) -> String {
            if directory == "." { return p }
            let base = directory.hasSuffix("/") ? directory : directory + "/"
            return p.hasPrefix(base) ? String(p.dropFirst(base.count)) : p
        }
        var entitlements: [EntitlementsFile] = []
        var profiles: [String] = []
        for p in found {
            if InputFiles.isProfilePath(p) {
                profiles.append(relative(p))
                continue
            }
            var dict: PlistDictionary?
            if case .entitlements(let doc) = DocumentReader.parse(path: p, limits: limits) { dict = doc.root.dict ?? PlistDictionary() }
            entitlements.append(EntitlementsFile(path: relative(p), entitlements: dict))
        }
        return (entitlements, profiles)
    }
}
