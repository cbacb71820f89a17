import EntitlintCore
import PropertyList

/// The profiles and built products named on the command line.
extension Linter {
    /// The profiles among `profiles` that were named as files on the command line (`paths`),
    /// compared by absolute path.
    static func namedProfiles(_ profiles: [ProfileFile], paths: [String], cwd: String) -> [ProfileFile] {
        let named = Set(paths.map { Paths.absolute($0, cwd: cwd) })
        return profiles.filter { named.contains(Paths.absolute($0.path, cwd: cwd)) }
    }

    /// Checks each unit the sources read from built products with the rules (findings in built
    /// binaries have no line: the key path says where).
    func lintArtifacts(_ products: ArtifactReadResult, options: LintOptions, lock: LockFile?) -> ArtifactReadResult {
        var total = products
        for unit in products.units {
            let context = UnitContext(unit: unit, lock: lock, settings: options.settings)
            for rule in rules {
                for var f in FactGate.check(rule, context) {
                    f.line = 0
                    f.column = 0
                    total.findings.append(f)
                }
            }
        }
        return total
    }
}

extension LintOptions {
    /// The same options without `paths` among the inputs (built products read separately).
    func without(paths removed: [String]) -> LintOptions {
        var o = self
        o.paths.removeAll { removed.contains($0) }
        return o
    }
}
