import EntitlintCore

// The readable summary of an `Inspection` (the default format of `entitlint inspect`): every string
// that comes from the file is escaped with `OutputText` before it is printed.

extension Inspector {
    // MARK: - Text

    /// The readable summary.
    public static func text(_ i: Inspection) -> String {
        var s = ""
        switch i.kind {
        case .entitlements:
            s += "\(OutputText.lineStart(i.path)): entitlements\n"
            s += render(i.entitlements ?? .object([:]), indent: "  ")
        case .profile:
            for p in i.profiles { s += text(p) }
        case .product:
            s += "\(OutputText.lineStart(i.path)): built product, \(i.units.count) signing unit\(i.units.count == 1 ? "" : "s")\n"
            for u in i.units {
                s += "\n\(OutputText.lineStart(u.name)) (\(e(u.bundleKind))): \(e(u.executable))\n"
                s += "  bundle ID:     \(e(u.bundleID ?? "unknown"))\n"
                s += "  platform:      \(e(u.platform))\n"
                s += "  architectures: \(e(u.architectures.joined(separator: ", ")))\n"
                s += "  signed:        \(u.signed ? "yes" : "no")\(u.signed ? ", \(e(u.signature))" : "")\n"
                if let c = u.signingCertificate {
                    s += "  certificate:   \(e(c.subject ?? "no subject"))\(c.team.map { ", team \(e($0))" } ?? "") - expires \(e(c.notAfter ?? "?"))"
                        + (c.daysLeft.map { $0 < 0 ? " (expired \(-$0) day\($0 == -1 ? "" : "s") ago)" : " (\($0) day\($0 == 1 ? "" : "s") left)" } ?? "") + "\n"
                }
                s += "  entitlements:  from the \(e(u.entitlementsSource)); DER (slot 7): \(e(u.derEntitlements))\n"
                s += "  profile:       \(e(u.profile ?? "none embedded"))\n"
                s += render(u.entitlements, indent: "    ")
            }
            for p in i.profiles { s += "\n" + text(p) }
        }
        if !i.problems.isEmpty {
            s += "\nproblems:\n"
            for p in i.problems { s += "  \(e("\(p)"))\n" }
        }
        return s
    }

    static func text(_ p: ProfileSummary) -> String {
        var s = "\(OutputText.lineStart(p.path)): provisioning profile\n"
        func line(_ label: String, _ value: String) { s += "  " + label + String(repeating: " ", count: max(1, 15 - label.count)) + e(value) + "\n" }
        line("name:", p.name ?? "none")
        line("UUID:", p.uuid ?? "none")
        line("team:", (p.teamIdentifiers.joined(separator: ", ")) + (p.teamName.map { " (\($0))" } ?? ""))
        line("App ID:", (p.applicationIdentifier ?? "none") + (p.appIDName.map { " (\($0))" } ?? ""))
        if p.applicationIdentifierPrefixes != p.teamIdentifiers { line("App ID prefix:", p.applicationIdentifierPrefixes.joined(separator: ", ")) }
        line("kind:", p.kind)
        line("platforms:", p.platforms.joined(separator: ", "))
        line("created:", p.creationDate ?? "unknown")
        if let e = p.expirationDate, let d = p.daysLeft {
            line("expires:", "\(e) (" + (d < 0 ? "expired \(-d) day\(d == -1 ? "" : "s") ago" : "\(d) day\(d == 1 ? "" : "s") left") + ")")
        } else {
            line("expires:", "unknown")
        }
        line("devices:", p.provisionsAllDevices ? "all (ProvisionsAllDevices)" : "\(p.deviceCount)")
        line("envelope:", p.envelope)
        line("DER copy:", p.derEncodedProfile)
        s += "  certificates:  \(p.certificates.count)\n"
        for c in p.certificates {
            if let problem = c.problem { s += "    unreadable: \(e(problem))\n"; continue }
            let left = c.daysLeft.map { $0 < 0 ? "expired" : "\($0) days left" } ?? ""
            s += "    \(e(c.subject ?? "no subject")) - expires \(e(c.notAfter ?? "?")) (\(left))\n"
        }
        s += "  entitlements:\n" + render(p.entitlements, indent: "    ")
        return s
    }

    /// Strings from the file, escaped for a line of text (`OutputText.escape`).
    static func e(_ s: String) -> String { OutputText.escape(s) }

    /// `key: value` lines, nested values indented.
    static func render(_ v: JSONValue, indent: String) -> String {
        var s = ""
        func scalar(_ v: JSONValue) -> String? {
            switch v {
            case .string(let x): return "\"\(e(x))\""
            case .integer(let i): return "\(i)"
            case .number(let d): return "\(d)"
            case .bool(let b): return b ? "true" : "false"
            case .array(let a) where a.isEmpty: return "[]"
            case .object(let o) where o.isEmpty: return "{}"
            default: return nil
            }
        }
        switch v {
        case .object(let o):
            for k in o.keys.sorted() {
                if let sc = scalar(o[k]!) { s += "\(indent)\(e(k)): \(sc)\n" } else { s += "\(indent)\(e(k)):\n" + render(o[k]!, indent: indent + "  ") }
            }
        case .array(let a):
            for e in a {
                if let sc = scalar(e) { s += "\(indent)- \(sc)\n" } else { s += "\(indent)-\n" + render(e, indent: indent + "  ") }
            }
        default:
            s += indent + (scalar(v) ?? "") + "\n"
        }
        return s
    }
}
