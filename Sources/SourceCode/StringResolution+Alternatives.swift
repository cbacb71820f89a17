/// Resolving sets of possible values (`ValueSets.swift`): each alternative on its own, `#if`
/// branches kept only when the unit's compilation conditions may compile them, parts with
/// several values joined in every combination. At most `Alternative.maxValues` values come out of
/// one expression (more: unknown, at that bound).
extension StringResolution {
    static let tooManyValues = "more than \(Alternative.maxValues) possible values"

    /// The alternatives of a value set, flattened; `#if` branches the unit's conditions rule out
    /// are dropped, those they do not decide are marked `undecided`; an empty value (a fallback
    /// such as `return ""`) is no group and is left out.
    mutating func alternatives(_ list: [Alternative], file: String, line: Int, context: ArraySlice<String>, depth: Int,
                               nesting: Int, state: inout State) -> Outcome {
        var out: [Outcome] = []
        for a in list {
            var undecided: String?
            if let c = a.condition {
                switch c.holds(resolver.conditions(in: file)) {
                case false?: continue
                case nil: undecided = c.text
                case true?: break
                }
            }
            let r = resolve(a.value, file: file, line: a.line, context: context, depth: depth, nesting: nesting + 1, state: &state)
            for var option in r.alternatives.isEmpty ? [r] : r.alternatives {
                if option.value == "" { continue }
                option.steps.insert("\(a.label) (\(file):\(a.line))", at: 0)
                if option.steps.count > StringResolver.maxKeptSteps { option.steps.removeLast() }
                option.undecided = option.undecided ?? undecided
                out.append(option)
                if out.count > Alternative.maxValues { return .limited(Self.tooManyValues) }
            }
        }
        if out.isEmpty { return .unknown("no branch gives a value in this configuration") }
        return out.count == 1 ? out[0] : Outcome(value: nil, unknown: nil, alternatives: out)
    }

    /// A concatenation some of whose parts have several values: every combination, in order.
    mutating func joined(_ parts: [StringExpression], file: String, line: Int, context: ArraySlice<String>, depth: Int,
                         nesting: Int, state: inout State) -> Outcome {
        var partial = [Outcome(value: "")]
        for (n, part) in parts.enumerated() {
            let r = resolve(part, file: file, line: line, context: context, depth: depth, nesting: nesting + 1, state: &state)
            let options = r.alternatives.isEmpty ? [r] : r.alternatives
            guard partial.count * options.count <= Alternative.maxValues else { return .limited(Self.tooManyValues) }
            var next: [Outcome] = []
            for head in partial {
                for option in options {
                    guard let piece = option.value, let sofar = head.value else {
                        var unknown = head
                        if head.value != nil {
                            unknown = Outcome.unknown("part \(n + 1) is unknown: \(option.unknown ?? "unknown")")
                            unknown.limit = option.limit
                            unknown.steps = head.steps
                            unknown.undecided = head.undecided ?? option.undecided
                        }
                        next.append(unknown)
                        continue
                    }
                    guard sofar.utf8.count + piece.utf8.count <= StringResolver.maxValueBytes else { return .limited(Self.tooLong) }
                    var joined = head
                    joined.value = sofar + piece
                    joined.usesInfoPlist = head.usesInfoPlist || option.usesInfoPlist
                    joined.variableInCode = head.variableInCode ?? option.variableInCode
                    joined.undecided = head.undecided ?? option.undecided
                    joined.steps += option.steps.prefix(max(0, StringResolver.maxKeptSteps - joined.steps.count))
                    next.append(joined)
                }
            }
            partial = next
        }
        return partial.count == 1 ? partial[0] : Outcome(value: nil, unknown: nil, alternatives: partial)
    }

    /// The value of definition `index`, with it as the first step.
    mutating func definition(_ index: Int, depth: Int, state: inout State) -> Outcome {
        let entry = resolver.entries[index]
        var r = resolve(entry.definition.value, file: entry.file, line: entry.definition.line,
                        context: entry.definition.path.dropLast(), depth: depth + 1, state: &state)
        let step = "\(entry.definition.path.joined(separator: ".")) (\(entry.file):\(entry.definition.line))"
        if r.alternatives.isEmpty {
            r.steps.insert(step, at: 0)
            if r.steps.count > StringResolver.maxKeptSteps { r.steps.removeLast() }
        } else {
            for k in r.alternatives.indices {
                r.alternatives[k].steps.insert(step, at: 0)
                if r.alternatives[k].steps.count > StringResolver.maxKeptSteps { r.alternatives[k].steps.removeLast() }
            }
        }
        return r
    }

    /// Candidates some of which are compiled only under an `#if` condition: those the unit's
    /// conditions rule out are dropped; when several remain and each is in an `#if` branch
    /// (`#if BETA static let g = "A" #else static let g = "B" #endif`), each is a possible value,
    /// undecided when its condition is; else they must agree, as any candidates.
    mutating func conditioned(_ list: [Int], shown: String, depth: Int, state: inout State) -> Outcome {
        let kept = list.filter { resolver.entries[$0].definition.condition?.holds(resolver.conditions(in: resolver.entries[$0].file)) != false }
        if kept.isEmpty { return .unknown("no definition of \(shown) is compiled in this configuration") }
        let allConditioned = kept.allSatisfy { resolver.entries[$0].definition.condition != nil }
        guard allConditioned, kept.count <= Alternative.maxValues else { return agreeing(kept, shown: shown, depth: depth, state: &state) }
        var out: [Outcome] = []
        for index in kept {
            guard !state.visiting.contains(index) else {
                state.contextual += 1
                return .unknown("\(shown) is defined in terms of itself")
            }
            let condition = resolver.entries[index].definition.condition!
            let undecided = condition.holds(resolver.conditions(in: resolver.entries[index].file)) == nil ? condition.text : nil
            state.visiting.insert(index)
            let r = definition(index, depth: depth, state: &state)
            state.visiting.remove(index)
            for var option in r.alternatives.isEmpty ? [r] : r.alternatives {
                if kept.count > 1 || undecided != nil {
                    option.steps.insert("#if \(condition.text)", at: 0)
                    if option.steps.count > StringResolver.maxKeptSteps { option.steps.removeLast() }
                }
                option.undecided = option.undecided ?? undecided
                out.append(option)
                if out.count > Alternative.maxValues { return .limited(Self.tooManyValues) }
            }
        }
        return out.count == 1 ? out[0] : Outcome(value: nil, unknown: nil, alternatives: out)
    }

    /// Resolves each candidate of a list; one result, or the values all agree, or unknown.
    mutating func agreeing(_ list: [Int], shown: String, depth: Int, state: inout State) -> Outcome {
        var results: [Outcome] = []
        for index in list {
            guard !state.visiting.contains(index) else {
                state.contextual += 1
                return .unknown("\(shown) is defined in terms of itself")
            }
            state.visiting.insert(index)
            let r = definition(index, depth: depth, state: &state)
            state.visiting.remove(index)
            results.append(r)
            // Past the step budget every later candidate is unknown too: the list is ambiguous.
            if state.steps > StringResolver.stepBudget || isExhausted, results.count < list.count {
                var out = Outcome()
                out.ambiguous = list.count
                out.limit = isExhausted ? Self.exhausted : "too many steps to resolve"
                return out
            }
        }
        if results.count == 1 { return results[0] }
        let values = Set(results.compactMap(\.value))
        guard values.count == 1, results.allSatisfy({ $0.value != nil && $0.alternatives.isEmpty }) else {
            var out = Outcome()
            out.ambiguous = results.count
            out.limit = results.lazy.compactMap(\.limit).first
            return out
        }
        return results[0]
    }
}
