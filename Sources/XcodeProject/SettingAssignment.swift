public import PropertyList
public import EntitlintCore

/// A condition of a conditional build setting: `sdk=iphoneos*` in `CODE_SIGN_IDENTITY[sdk=iphoneos*]`.
public struct SettingCondition: Sendable, Hashable {
    public var key: String
    public var pattern: String
}

/// One assignment of a build setting, where it was written: a line of a `project.pbxproj`
/// `buildSettings` dict, of an `.xcconfig`, or of an XcodeGen spec.
///
/// A *hole* stands for settings that could not be read (a missing `.xcconfig`, an `#include` loop, a
/// broken file): a lookup that reaches a hole before finding an assignment cannot know the value,
/// so the value is unresolved (never guessed). A *missing-file hole* stands for a file the project
/// names that is not here but is expected to be missing (a per-developer or generated xcconfig, an
/// optional `#include?`): a setting some committed file assigns is known whatever that file would
/// add, but a setting no committed file assigns is unknown, not empty (the missing file may well
/// set it).
public struct SettingAssignment: Sendable, Hashable {
    public var name: String
    public var conditions: [SettingCondition]
    public var value: String
    /// The file, as shown in findings.
    public var file: String
    public var location: SourceLocation
    /// Why the settings here cannot be known; nil for a real assignment.
    public var hole: String?
    /// The missing file (as shown) a missing-file hole stands for; nil for other holes and assignments.
    public var missingFile: String?
    /// For a missing-file hole: the settings the template committed beside the missing file sets
    /// (`Local.xcconfig.sample`); the developer's copy will set them too, over what comes before it.
    public var templateSettings: Set<String> = []

    public init(name: String, conditions: [SettingCondition] = [], value: String, file: String, location: SourceLocation) {
        self.name = name
        self.conditions = conditions
        self.value = value
        self.file = file
        self.location = location
        self.hole = nil
    }

    public static func hole(_ reason: String, file: String, location: SourceLocation) -> SettingAssignment {
        var a = SettingAssignment(name: "", value: "", file: file, location: location)
        a.hole = reason
        return a
    }

    /// A missing-file hole: answers only lookups that no assignment answers.
    public static func missingFileHole(_ missing: String, reason: String, file: String, location: SourceLocation,
                                       templateSettings: Set<String> = []) -> SettingAssignment {
        var a = hole(reason, file: file, location: location)
        a.missingFile = missing
        a.templateSettings = templateSettings
        return a
    }

    /// `file:line`, for provenance in messages and reports.
    public var place: String { location.isKnown ? "\(file):\(location.line)" : file }

    /// Splits a setting key with conditions: `NAME[sdk=iphoneos*][arch=arm64]` (also `[sdk=a,arch=b]`).
    /// Nil when the key is not of that form.
    public static func splitKey(_ key: String) -> (name: String, conditions: [SettingCondition])? {
        // No `[` byte, no `[` character: the usual key answers without a search by characters.
        guard key.utf8.contains(UInt8(ascii: "[")), let open = key.firstIndex(of: "[") else { return isSettingName(key) ? (key, []) : nil }
        let name = String(key[..<open])
        guard isSettingName(name) else { return nil }
        var conditions: [SettingCondition] = []
        var rest = key[open...]
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
            let body = rest[rest.index(after: rest.startIndex)..<close]
            for part in body.split(separator: ",", omittingEmptySubsequences: false) {
                guard let eq = part.firstIndex(of: "=") else { return nil }
                let k = part[..<eq].trimmed(" \t")
                let v = part[part.index(after: eq)...].trimmed(" \t")
                guard !k.isEmpty else { return nil }
                conditions.append(SettingCondition(key: k, pattern: v))
            }
            rest = rest[rest.index(after: close)...]
            while rest.first == " " { rest = rest.dropFirst() }
        }
        return (name, conditions)
    }

    /// A build setting name: a letter or `_`, then letters, digits and `_`.
    public static func isSettingName<S: StringProtocol>(_ s: S) -> Bool {
        guard let f = s.utf8.first, f == UInt8(ascii: "_") || (f | 0x20 >= UInt8(ascii: "a") && f | 0x20 <= UInt8(ascii: "z")) else { return false }
        return s.utf8.allSatisfy { c in
            c == UInt8(ascii: "_") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
        }
    }
}

/// A problem with a project input, reported as a finding naming the file and line.
public struct ProjectProblem: Error, Sendable, Hashable {
    /// `parse-error` (a file that cannot be read as the project needs it) or `unresolved-variable`.
    public var rule: String
    public var file: String
    public var location: SourceLocation
    public var message: String
    /// Nil: the rule's usual severity for project problems (`parse-error` an error, others warnings).
    public var severity: Severity?
    /// The target the problem concerns (`targetKey`), when it concerns one: a run that names one
    /// file of a project reports the problems of the targets using that file, not of the others.
    public var target: String?
    /// A notice (`Notice`), not a finding: what the run could not see, such as a file a fresh clone lacks.
    public var isNotice = false

    /// Identifies a target of a project: the project file as shown, and the target's name.
    public static func targetKey(projectFile: String, target: String) -> String { projectFile + "\t" + target }

    public init(rule: String = "parse-error", file: String, location: SourceLocation, message: String, severity: Severity? = nil) {
        self.rule = rule
        self.file = file
        self.location = location
        self.message = message
        self.severity = severity
    }
}

extension StringProtocol {
    /// Without the scalars of `set` at either end. By Unicode scalar, not Character: the first
    /// and last Character of a value that is one grapheme cluster of megabytes (a letter and a
    /// million combining marks) are the whole value; a scalar is found in constant time.
    func trimmed(_ set: String) -> String {
        let trim = Set(set.unicodeScalars)
        var s = Substring(self).unicodeScalars
        while let f = s.first, trim.contains(f) { s.removeFirst() }
        while let l = s.last, trim.contains(l) { s.removeLast() }
        return String(Substring(s))
    }
}

/// Glob match with `*` (any run) and `?` (one character), as build setting conditions use them.
func globMatches(_ pattern: String, _ text: String) -> Bool {
    let p = Array(pattern.utf8), t = Array(text.utf8)
    var pi = 0, ti = 0, star = -1, mark = 0
    while ti < t.count {
        if pi < p.count, p[pi] == UInt8(ascii: "?") || p[pi] == t[ti] {
            pi += 1; ti += 1
        } else if pi < p.count, p[pi] == UInt8(ascii: "*") {
            star = pi; mark = ti; pi += 1
        } else if star >= 0 {
            pi = star + 1; mark += 1; ti = mark
        } else {
            return false
        }
    }
    while pi < p.count, p[pi] == UInt8(ascii: "*") { pi += 1 }
    return pi == p.count
}

extension SettingAssignment {
    /// The value as a message quotes it: its first 200 characters, then "..." (a value may be
    /// megabytes long, and a finding's message is not the place for all of it).
    var quotedValue: String {
        guard let cut = value.index(value.startIndex, offsetBy: 200, limitedBy: value.endIndex), cut != value.endIndex else { return value }
        return String(value[..<cut]) + "..."
    }
}
