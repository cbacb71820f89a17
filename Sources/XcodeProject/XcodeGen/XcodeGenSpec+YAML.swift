import EntitlintCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PropertyList
import YAMLReader

// The YAML nodes of a spec, with where each was written, and what is done to them under the
// value budget: conversion from Yams, XcodeGen's merge of included specs, token substitution.
extension XcodeGenSpec {
    /// A YAML node, with where it was written.
    indirect enum Value {
        case map([(key: String, keyLocation: SourceLocation, value: YNode)])
        case seq([YNode])
        case scalar(String, Scalar)
    }

    enum Scalar { case string, bool, int, float, null }

    struct YNode {
        var value: Value
        var location: SourceLocation
        var file: String

        subscript(_ key: String) -> YNode? {
            guard case .map(let entries) = value else { return nil }
            return entries.last { $0.key == key }?.value
        }

        var string: String? {
            if case .scalar(let s, let kind) = value, kind != .null { return s }
            return nil
        }

        var entries: [(key: String, keyLocation: SourceLocation, value: YNode)] {
            if case .map(let e) = value { return e }
            return []
        }

        var items: [YNode] {
            if case .seq(let s) = value { return s }
            return []
        }
    }

    /// Values a spec may hold once its aliases, includes and templates are expanded: YAML
    /// aliases share one node tree, so 483 bytes of nested aliases stand for a billion values,
    /// and a spec included ten times by each of 16 levels of includes for 10^16 specs. Each
    /// value made (converted, merged, substituted) is counted against `values`; includes are
    /// read once per file and counted against `includes`. Past either, the spec is not read.
    /// Real specs hold a few thousand values; a budget of a million still let one fuzzed spec
    /// take 10 s under the sanitizers, so the limit is a hundred thousand.
    final class Budget {
        static let maxValues = 100_000
        static let maxIncludes = 256
        var values = 0
        var includes = 0
        /// Files read, by absolute path, with what they hold (an include named twice is read once).
        var loaded: [String: YNode?] = [:]

        /// Takes `n` values; false when that passes the limit.
        func take(_ n: Int) -> Bool {
            values += n
            return values <= Self.maxValues
        }

        var exceeded: Bool { values > Self.maxValues }

        static let message = "the spec holds more than \(maxValues) values once its aliases, includes and templates are expanded (an alias or include bomb?); it is not read"
    }

    /// Nil when `budget` runs out.
    static func convert(_ node: YAMLNode, file: String, depth: Int = 0, budget: Budget) -> YNode? {
        let loc = SourceLocation(line: node.mark.line, column: node.mark.column)
        guard budget.take(1) else { return nil }
        guard depth < 200 else { return YNode(value: .scalar("", .null), location: loc, file: file) }
        if let mapping = node.mapping {
            var entries: [(key: String, keyLocation: SourceLocation, value: YNode)] = []
            for (k, v) in mapping {
                let kl = SourceLocation(line: k.mark.line, column: k.mark.column)
                guard let value = convert(v, file: file, depth: depth + 1, budget: budget) else { return nil }
                entries.append((k.scalar?.string ?? "", kl, value))
            }
            return YNode(value: .map(entries), location: loc, file: file)
        }
        if let sequence = node.sequence {
            var items: [YNode] = []
            for item in sequence {
                guard let value = convert(item, file: file, depth: depth + 1, budget: budget) else { return nil }
                items.append(value)
            }
            return YNode(value: .seq(items), location: loc, file: file)
        }
        let text = node.scalar?.string ?? ""
        let kind: Scalar
        switch node.tag {
        case .bool: kind = .bool
        case .int: kind = .int
        case .float: kind = .float
        case .null: kind = .null
        default: kind = .string
        }
        return YNode(value: .scalar(text, kind), location: loc, file: file)
    }

    /// XcodeGen's merge of an included spec (`base`) with the including one (`over`). Keys are
    /// found through an index (linear in the entries, not quadratic); each entry and item of the
    /// result is counted against `budget`, and past it nothing more is merged.
    static func merge(_ base: YNode, _ over: YNode, budget: Budget) -> YNode {
        switch (base.value, over.value) {
        case (.map(let a), .map(let b)):
            guard budget.take(a.count + b.count) else { return over }
            var out: [(key: String, keyLocation: SourceLocation, value: YNode)?] = a
            var index: [String: [Int]] = [:]
            for (i, e) in a.enumerated() { index[e.key, default: []].append(i) }
            for entry in b {
                if entry.key.hasSuffix(":REPLACE") {
                    let key = String(entry.key.dropLast(":REPLACE".count))
                    for i in index[key] ?? [] { out[i] = nil }
                    index[key] = [out.count]
                    out.append((key, entry.keyLocation, entry.value))
                } else if let i = index[entry.key]?.first {
                    out[i] = (entry.key, entry.keyLocation, merge(out[i]!.value, entry.value, budget: budget))
                } else {
                    index[entry.key] = [out.count]
                    out.append(entry)
                }
            }
            return YNode(value: .map(out.compactMap { $0 }), location: over.location, file: over.file)
        case (.seq(let a), .seq(let b)):
            guard budget.take(a.count + b.count) else { return over }
            return YNode(value: .seq(a + b), location: over.location, file: over.file)
        default:
            return over
        }
    }

    /// `node` with `token` replaced by `value` in every key and scalar; each value made is
    /// counted against `budget` (past it, the rest is left as it is).
    static func substitute(_ node: YNode, _ token: String, _ value: String, budget: Budget) -> YNode {
        guard budget.take(1) else { return node }
        var n = node
        switch node.value {
        case .scalar(let s, let kind): n.value = .scalar(s.replacing(token, with: value), kind)
        case .seq(let items): n.value = .seq(items.map { substitute($0, token, value, budget: budget) })
        case .map(let entries): n.value = .map(entries.map { ($0.key.replacing(token, with: value), $0.keyLocation, substitute($0.value, token, value, budget: budget)) })
        }
        return n
    }
}
