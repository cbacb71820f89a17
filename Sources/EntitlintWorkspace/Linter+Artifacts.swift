public import EntitlintCore
public import PropertyList

/// The profiles and built products named on the command line.
extension Linter {
    /// The profiles among `profiles` that were named as files on the command line (`paths`),
    /// compared by absolute path.
    static func namedProfiles(_ profiles: [ProfileFile], paths: [String], cwd: String) -> [ProfileFile] {
        let named = Set(paths.map { Paths.absolute($0, cwd: cwd) })
        return profiles.filter { named.contains(Paths.absolute($0.path, cwd: cwd)) }
    }

    /// Lints the built products among `paths` with `reader`, checking each of their units with
    /// the rules (findings in built binaries have no line: the key path says where).
    func lintArtifacts(_ paths: [String], reader: any ArtifactReading, options: LintOptions, lock: LockFile?,
                       cwd: String) -> ArtifactReadResult {
        var total = ArtifactReadResult()
        for path in paths {
            let r = reader.read(path, shown: Paths.display(path, cwd: cwd), limits: options.limits)
            total.findings += r.findings
            total.profiles += r.profiles
            total.paths += r.paths
            for unit in r.units {
                let context = UnitContext(unit: unit, lock: lock, settings: options.settings)
                for rule in rules {
                    for var f in FactGate.check(rule, context) {
                        f.line = 0
                        f.column = 0
                        total.findings.append(f)
                    }
                }
                total.units.append(unit)
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
