import EntitlintCore
import PropertyList

/// The units stage for loose entitlements files (no target read in the run signs with them).
extension UnitFormer {
    /// The unit of each loose entitlements document, formed on `jobs` threads, each written
    /// straight into the result (a SigningUnit is over a kilobyte: no second copy of them all).
    /// A file inside a project's folder that no target uses is a dead file, or a variant of a
    /// used one; in a run with project units, each used file is compared within the app family
    /// of its folder (`Discovery.family(ofLoose:)`), and without them with nothing.
    static func looseUnits(_ documents: [(path: String, shown: String, doc: PlistDocument)], options: LintOptions,
                           profiles: [ProfileFile], byAbs: [String: ParsedInput], discovery: Discovery?, cwd: String) -> [PlannedUnit] {
        // Indexed once: pairing each file with its profile costs its bundle ID's length, not a
        // pass over every profile.
        let knownProfiles = ProfileIndex(profiles)
        let facts = options.statedFacts
        let projectFolders = discovery.map { !$0.units.isEmpty || !$0.foreignFolders.isEmpty } == true ? discovery! : Discovery()
        let comparesFamilies = discovery.map { !$0.units.isEmpty } ?? false
        let names = fileUnitNames(documents.map(\.shown))
        return [PlannedUnit](unsafeUninitializedCapacity: documents.count) { buffer, initialized in
            nonisolated(unsafe) let out = buffer
            Parallel.forEach(documents.count, jobs: options.workers) { i in
                let d = documents[i]
                var unit = makeUnit(path: d.path, shown: d.shown, document: d.doc, facts: facts,
                                    profiles: knownProfiles, byAbs: byAbs, cwd: cwd, fileName: names[i])
                let abs = Paths.absolute(d.path, cwd: cwd)
                var checks = PlannedUnit.Checks.all
                if projectFolders.hasProjects, projectFolders.isInProjectFolder(abs) {
                    unit.isUnused = true
                    unit.isVariant = projectFolders.isVariant(abs)
                    checks = unit.isVariant ? .fileAlone : .deadFile
                }
                let family = comparesFamilies && !unit.isUnused ? projectFolders.family(ofLoose: abs) : nil
                (out.baseAddress! + i).initialize(to: PlannedUnit(unit, checks: checks, family: family))
            }
            initialized = documents.count
        }
    }
}
