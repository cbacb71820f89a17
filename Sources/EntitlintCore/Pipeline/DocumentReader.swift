public import PropertyList
import Provisioning

/// The documents stage: one file's bytes parsed as what its name (or, failing that, its content)
/// says it is, an entitlements document or a profile, or why it cannot be either.
public enum DocumentReader {
    /// Parses one file's bytes as what its name says it is.
    public static func parse(bytes: [UInt8], path: String, limits: PlistLimits) -> ParsedInput {
        if InputFiles.isProfilePath(path) {
            do {
                return checked(try ProfileDecoder.decode(bytes, limits: limits))
            } catch {
                return .failed(reason: RunLimits.explain(error.reason, error.limit), location: error.location)
            }
        }
        // Decide by content when the name does not say: a DER/BER SEQUENCE is a CMS profile, and a
        // plist with the top-level keys of a profile is a decoded profile (`security cms -D` output).
        if bytes.first == 0x30 {
            do {
                return checked(try ProfileDecoder.decode(bytes, limits: limits))
            } catch {
                return .failed(reason: RunLimits.explain(error.reason, error.limit), location: error.location)
            }
        }
        do {
            let doc = try PropertyListReader.parse(bytes, limits: limits)
            if let root = doc.root.dict, root["Entitlements"]?.dict != nil,
               root["UUID"] != nil || root["TeamIdentifier"] != nil || root["ProvisionedDevices"] != nil,
               let profile = try? ProvisioningProfile(document: doc, envelope: .plainPlist) {
                return checked(profile)
            }
            if let problem = entitlementsRootProblem(doc.root) { return .failed(reason: problem, location: doc.root.location) }
            // No key or string of a document has more UTF-8 bytes than 4 per byte of its file (a
            // character of any encoding takes a byte at least and 4 UTF-8 bytes at most; escapes
            // shrink; entities other than XML's five are refused), so a file that small has none.
            if bytes.count * 4 > maxEntitlementStringBytes,
               let (problem, location) = oversizedEntitlementString(in: doc.root) { return .failed(reason: problem, location: location) }
            return .entitlements(doc)
        } catch {
            return .failed(reason: RunLimits.explain(error.reason, error.limit), location: error.location)
        }
    }

    /// A profile, unless its `Entitlements` hold a string no entitlement can be (`oversizedEntitlementString`).
    static func checked(_ profile: ProvisioningProfile) -> ParsedInput {
        if let (problem, _) = oversizedEntitlementString(in: PlistNode(.dict(profile.entitlements))) {
            return .failed(reason: "its Entitlements hold \(problem)", location: profile.entitlementsLocation)
        }
        return .profile(profile)
    }

    /// Bytes an entitlement's key or string value may have: PATH_MAX, far above any real one
    /// (identifiers, groups, domains and paths).
    public static let maxEntitlementStringBytes = 4_096

    /// A key or string of the entitlements in `root` longer than `maxEntitlementStringBytes`, as
    /// a reason and its place, or nil. Such a file is a `parse-error` and is not checked: each
    /// configuration that signs with it is a unit, and every rule compares, hashes and quotes
    /// its strings, so one string of megabytes (a letter and a million combining marks, which
    /// Swift compares after normalising) cost seconds per configuration. One walk of the document.
    public static func oversizedEntitlementString(in root: PlistNode) -> (reason: String, location: SourceLocation)? {
        var found: (String, SourceLocation)?
        PlistWalk.forEach(root) { element in
            let what: String
            let bytes: Int
            switch element {
            case .entry(let e):
                (what, bytes) = ("a key", e.key.utf8.count)
            case .value(let n):
                guard case .string(let s) = n.value else { return true }
                (what, bytes) = ("a string", s.utf8.count)
            }
            guard bytes > maxEntitlementStringBytes else { return true }
            found = ("\(what) of \(bytes) bytes, more than the \(maxEntitlementStringBytes) bytes an entitlement's key or value is read to (no real one is that long)",
                     element.location)
            return false
        }
        return found
    }

    /// Why a property list read as entitlements cannot be one, or nil: its root is not a dict.
    /// codesign and the system read entitlements as a dictionary of keys, so an array or a string
    /// at the root (even one holding `*`) entitles nothing the rules could check; it is a
    /// `parse-error`, never a silent pass.
    public static func entitlementsRootProblem(_ root: PlistNode) -> String? {
        let what: String
        switch root.value {
        case .dict: return nil
        case .array: what = "an array (<array>)"
        case .string: what = "a string (<string>)"
        case .integer: what = "an integer (<integer>)"
        case .real: what = "a real number (<real>)"
        case .bool(let b): what = "a boolean (<\(b)/>)"
        case .date: what = "a date (<date>)"
        case .data: what = "data (<data>)"
        }
        return "the root of an entitlements file must be a dictionary (<dict>), not \(what)"
    }
}
