import Provisioning

/// The profile rules of a run: once per profile in use, however many units it signs.
extension RuleStage {
    /// The profiles the profile rules check: those that sign a unit of the run (paired with an
    /// entitlements file, given with `--profile` or a config app's `profile:`, embedded in a built
    /// product), plus those in `named` (profile files named on the command line). A profile found
    /// by walking a folder that signs no unit of the run is only decoded: a folder of old test
    /// fixtures does not fail because its profiles expired years ago.
    public static func profilesInUse(units: [SigningUnit], named: [ProfileFile]) -> [(ProfileFile, [String])] {
        var order: [String] = []
        var byPath: [String: (ProfileFile, [String])] = [:]
        func add(_ p: ProfileFile, unit: String?) {
            if byPath[p.path] == nil {
                order.append(p.path)
                byPath[p.path] = (p, [])
            }
            if let unit { byPath[p.path]!.1.append(unit) }
        }
        for u in units { if let p = u.profile { add(p, unit: u.name) } }
        for p in named { add(p, unit: nil) }
        return order.sorted().map { path in
            let (p, names) = byPath[path]!
            return (p, Array(Set(names)).sorted())
        }
    }

    /// Runs the profile rules on each profile in use (see `profilesInUse`): those of the units
    /// the run reports on, and the named ones.
    func profileFindings(_ plan: UnitPlan, reported: [SigningUnit]) -> [Finding] {
        let profileRules = rules.compactMap { $0.asProfileRule }
        guard !profileRules.isEmpty else { return [] }
        var out: [Finding] = []
        for (profile, names) in Self.profilesInUse(units: reported, named: plan.namedProfiles) {
            let context = ProfileContext(profile: profile, settings: plan.settings, unitNames: names)
            for rule in profileRules { out += rule.check(profile: context) }
        }
        return out
    }
}
