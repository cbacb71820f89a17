public import PropertyList

extension FindingStage {
    /// The id of the rule that reports directives that suppress nothing.
    public static let unusedSuppressionID = "unused-suppression"

    /// Rules whose directives are reported when they suppress nothing: those that judge a file
    /// on its own (`RuleDescription.readsOnlyTheFile`), so that finding nothing in this run means
    /// finding nothing in any run; not those about the file as a whole (it cannot be parsed, it is
    /// unused), which no directive inside it can be about. A rule that needs a fact (a profile,
    /// the project, the lock, the code) may be silent only because this run lacks it: its
    /// directives are never called unused.
    var unusedCheckedRules: Set<String> {
        Set(rules.map { type(of: $0).description }.filter { $0.readsOnlyTheFile && !RuleStage.deadFileRules.contains($0.id) }.map(\.id))
    }

    /// The entitlements documents of `units` by path as shown, for their directives: files read
    /// from source, not a built product's signature.
    /// `withCommentsOnly`: only those holding comments (where directives are), as `finish` needs.
    package static func documents(of units: [SigningUnit], withCommentsOnly: Bool = false) -> [String: PlistDocument] {
        var out: [String: PlistDocument] = [:]
        // Fields read in place: copying a whole unit costs a retain per field.
        for i in units.indices where units[i].artifact == nil && (!withCommentsOnly || !units[i].document.comments.isEmpty)
            && out[units[i].entitlementsPath] == nil {
            out[units[i].entitlementsPath] = units[i].document
        }
        return out
    }

    /// What every run does with its findings before reporting them: severities and `off` (and
    /// what `select`/`ignore` leave out), the configuration's `per-file-ignores`, then the inline
    /// directives of each file (`documents`: the parsed entitlements by path as shown; the
    /// Swift, Objective-C, xcconfig and YAML files that have findings, and `directiveFiles`, read
    /// through `readSource`), and the `unused-suppression` findings of directives that suppressed
    /// nothing. Sorted.
    ///
    /// A source, xcconfig or YAML file is read again when some finding is located in it or it is
    /// one of `directiveFiles` (the scanned sources whose bytes hold `entitlint:`, as shown). In a
    /// file read only for that, a directive is reported for what is wrong with it on its own (not
    /// a directive, no rule, an unknown rule, `all`, a tool finding) or for naming a rule that
    /// judges entitlements files alone, which never reports there; a directive naming a code or
    /// project rule is never called unused, since such a rule may be silent for want of a fact.
    public func finish(_ findings: [Finding], documents: [String: PlistDocument], configuration: Configuration?,
                       cwd: String, readSource: ((String) -> [UInt8]?)? = nil, directiveFiles: [String] = []) -> [Finding] {
        var ignoredByPath: [String: Set<String>] = [:]
        func ignored(_ path: String) -> Set<String> {
            if let known = ignoredByPath[path] { return known }
            let set = configuration?.ignoredRules(at: path, cwd: cwd) ?? []
            ignoredByPath[path] = set
            return set
        }
        var kept = applySeverities(findings).filter { !ignored($0.path).contains($0.rule) }
        var sets: [String: SuppressionSet] = [:]
        for (path, document) in documents where !document.comments.isEmpty {
            if let set = SuppressionSet(document: document) { sets[path] = set }
        }
        if let readSource {
            // A YAML spec may be a unit's document too (its entitlements properties), without comments.
            for path in Set(kept.map(\.path)).union(directiveFiles).sorted() where sets[path] == nil {
                guard let syntax = DirectiveSyntax(path: path), let bytes = readSource(Paths.absolute(path, cwd: cwd)),
                      let set = SuppressionSet(bytes: bytes, syntax: syntax) else { continue }
                sets[path] = set
            }
        }
        guard !sets.isEmpty else { return kept.sorted() }
        // Which rules each directive silenced, by path and directive index.
        var used: [String: [Int: Set<String>]] = [:]
        kept.removeAll { f in
            guard let set = sets[f.path], let i = set.directive(suppressing: f) else { return false }
            used[f.path, default: [:]][i, default: []].insert(f.rule)
            return true
        }
        let enabled = Set(rules.map { type(of: $0).description }.filter(isEnabled).map(\.id))
        guard let unusedRule = rules.first(where: { type(of: $0).description.id == Self.unusedSuppressionID }),
              enabled.contains(Self.unusedSuppressionID) else { return kept.sorted() }
        let known = Set(rules.map { type(of: $0).description.id })
        let checked = unusedCheckedRules
        var reported: [Finding] = []
        for (path, set) in sets where !ignored(path).contains(Self.unusedSuppressionID) {
            let inEffect = enabled.subtracting(ignored(path))
            for (i, d) in set.directives.enumerated() {
                let problems = Self.problems(of: d, covered: set.covered[i], used: used[path]?[i] ?? [], known: known,
                                             inEffect: inEffect.intersection(checked))
                guard !problems.isEmpty else { continue }
                reported.append(Finding(rule: Self.unusedSuppressionID, severity: type(of: unusedRule).description.severity,
                                        message: "entitlint:\(d.command) \(problems.joined(separator: "; "))",
                                        path: path, line: d.location.line, column: d.location.column))
            }
            if set.dropped > 0, let at = set.firstDropped {
                reported.append(Finding(rule: Self.unusedSuppressionID, severity: type(of: unusedRule).description.severity,
                                        message: "more than \(SuppressionDirective.maxPerFile) entitlint directives in this file: this one and the \(set.dropped - 1) after it are not read and suppress nothing",
                                        path: path, line: at.line, column: at.column))
            }
        }
        // A directive may name unused-suppression itself (for the file, or for a directive's line).
        reported = applySeverities(reported).filter { f in sets[f.path]?.directive(suppressing: f) == nil }
        return (kept + reported).sorted()
    }

    /// What is wrong with one directive, each as a phrase; empty when every rule it names
    /// suppressed something or cannot be judged in this run. `inEffect`: the rules whose unused
    /// directives are reported here (enabled, not ignored for the file, judging the file alone).
    static func problems(of d: SuppressionDirective, covered: ClosedRange<Int>?, used: Set<String>, known: Set<String>,
                         inEffect: Set<String>) -> [String] {
        guard d.scope != nil else {
            let hint = Suggestion.hint(for: d.command, in: SuppressionDirective.Scope.allCases.map(\.rawValue))
            return ["is not a directive\(hint): it suppresses nothing (known: disable-next-line, disable-file)"]
        }
        guard !d.rules.isEmpty else {
            return ["names no rule: it suppresses nothing (write `entitlint:\(d.command) RULE: reason`)"]
        }
        var problems: [String] = []
        var unused: [String] = []
        for id in d.rules {
            if id == "all" {
                problems.append("names 'all', which is not accepted: name the rules it should silence, so that new problems there are still reported")
            } else if !known.contains(id) {
                let shown = id.count > SuppressionDirective.maxRuleLength ? String(id.prefix(SuppressionDirective.maxRuleLength - 3)) + "..." : id
                problems.append("names an unknown rule '\(shown)'\(Suggestion.hint(for: id, in: known.sorted())) (see `entitlint rules`)")
            } else if id == ToolFindings.parseError {
                problems.append("names parse-error, which no directive suppresses (a file that does not parse has no directives)")
            } else if ToolFindings.contains(id) {
                problems.append("names \(id), which no directive suppresses (it is about reading or showing files, not about a line)")
            } else if !used.contains(id), inEffect.contains(id) {
                unused.append(id)
            }
        }
        if d.tooManyRules {
            problems.append("names more than \(SuppressionDirective.maxRules) rules: those after the \(SuppressionDirective.maxRules)th are not read")
        }
        if !unused.isEmpty {
            let names = unused.joined(separator: ", ")
            let place: String
            switch (d.scope!, covered) {
            case (.file, _): place = "in this file"
            case (.nextLine, let range?): place = range.count == 1 ? "on line \(range.lowerBound)" : "on lines \(range.lowerBound)-\(range.upperBound) (the next element)"
            case (.nextLine, nil): place = "after it (no element follows)"
            }
            problems.append("suppressed nothing: no \(names) finding \(place); remove \(unused.count == d.rules.count ? "the directive" : "\(unused.count == 1 ? "that rule" : "those rules") from it")")
        }
        return problems
    }
}
