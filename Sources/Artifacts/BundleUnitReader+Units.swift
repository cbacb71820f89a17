import EntitlintCore
import PropertyList
import Provisioning

// How a read binary becomes a signing unit: its entitlements (XML, DER or simulator section), the
// slices compared, the bundle ID, App ID prefix and Team ID derived, and who signed it.

extension BundleUnitReader {
    /// Turns a read binary into a unit: the first slice with entitlements gives them; the other
    /// slices are compared with it.
    mutating func formUnit(name: String, executableShown: String, file: MachOFile, info bundleID: String?, profile: ProfileFile?,
                           hasProfile: Bool, platform: Platform, kind: BuiltArtifactFacts.BundleKind, bundleShown: String) {
        for slice in file.slices {
            if let error = slice.error { fail(executableShown, "\(slice.architecture) slice: \(error.reason)", unit: name) }
        }
        let good = file.slices.filter { $0.error == nil }
        guard let first = good.first(where: { $0.xmlEntitlements != nil || $0.derEntitlements != nil || $0.simulatorEntitlements != nil })
                ?? good.first else { return }

        var document = PlistDocument(root: PlistNode(.dict(PlistDictionary())), format: .xml)
        var source = BuiltArtifactFacts.EntitlementsSource.none
        var derNode: PlistNode?
        var derError: String?
        if let der = first.derEntitlements {
            do throws(DERValueError) { derNode = try DEREntitlements.decode(der, maxElements: limits.maxElements) } catch { derError = error.reason }
        }
        if let xml = first.xmlEntitlements ?? first.simulatorEntitlements {
            do {
                document = try PropertyListReader.parse(xml, limits: limits)
                source = first.xmlEntitlements != nil ? .codeSignatureXML : .simulatorSection
            } catch {
                let where_ = first.xmlEntitlements != nil ? "the XML entitlements (slot 5)" : "the __TEXT,__entitlements section"
                fail(executableShown, "\(first.architecture): \(where_) cannot be parsed: \(error.reason)", unit: name)
                return
            }
            if let problem = DocumentReader.entitlementsRootProblem(document.root) ?? DocumentReader.oversizedEntitlementString(in: document.root)?.reason {
                let where_ = first.xmlEntitlements != nil ? "the XML entitlements (slot 5)" : "the __TEXT,__entitlements section"
                fail(executableShown, "\(first.architecture): \(where_) cannot be parsed: \(problem)", unit: name)
                return
            }
        } else if let derNode {
            if let problem = DocumentReader.oversizedEntitlementString(in: derNode)?.reason {
                fail(executableShown, "\(first.architecture): the DER entitlements (slot 7) cannot be read: \(problem)", unit: name)
                return
            }
            document = PlistDocument(root: derNode, format: .binary)
            source = .codeSignatureDER
        }

        let disagreements = sliceDisagreements(with: document.root, of: first, among: good)

        var unit = SigningUnit(name: name, entitlementsPath: executableShown, document: document, profile: profile,
                               platform: profile.map { $0.profile.isMacOS ? .macOS : .iOS } ?? platform)
        Self.identify(&unit, bundleID: bundleID, profile: profile, bundleShown: bundleShown)
        unit.artifact = BuiltArtifactFacts(
            bundlePath: bundleShown, bundleKind: kind, infoPlistBundleID: bundleID, entitlementsSource: source,
            architectures: file.slices.map(\.architecture), isSigned: first.isSigned, derEntitlements: derNode,
            derEntitlementsError: derError, hasXMLEntitlements: first.xmlEntitlements != nil, hasEmbeddedProfile: hasProfile,
            sliceDisagreements: disagreements)
        // Who signed: the CMS of slot 0x10000. A damaged one is a problem with the product (like a
        // damaged blob), but the unit is still linted, as signed by an unknown certificate.
        if let cms = first.cmsSignature {
            do throws(ProfileError) {
                if let certificate = try CodeSignatureCMS.signingCertificate(cms, maxElements: limits.maxElements) {
                    unit.artifact?.signingCertificate = CertificateFact(certificate, from: .derived("the CMS signature (slot 0x10000) of \(executableShown)"))
                }
            } catch {
                unit.artifact?.signatureError = error.reason
                fail(executableShown, "\(first.architecture): the CMS signature (slot 0x10000) cannot be read: \(error.reason)", unit: name)
            }
        }
        result.units.append(unit)
    }

    /// The first difference between `root` (the entitlements of `first`) and each other readable
    /// slice's; a slice whose entitlements cannot be parsed is left out.
    private func sliceDisagreements(with root: PlistNode, of first: MachOSlice, among good: [MachOSlice]) -> [String] {
        var disagreements: [String] = []
        for other in good where other != first {
            let otherRoot: PlistNode?
            if let xml = other.xmlEntitlements ?? other.simulatorEntitlements {
                otherRoot = try? PropertyListReader.parse(xml, limits: limits).root
            } else if let der = other.derEntitlements {
                otherRoot = try? DEREntitlements.decode(der, maxElements: limits.maxElements)
            } else {
                otherRoot = PlistNode(.dict(PlistDictionary()))
            }
            guard let otherRoot else { continue }
            if let d = PlistComparison.differences(root, otherRoot, aName: first.architecture, bName: other.architecture, limit: 1).first {
                disagreements.append(d.description)
            }
        }
        return disagreements
    }

    /// The unit's bundle ID, App ID prefix and Team ID, as `FactResolver` orders them: the
    /// Info.plist, the embedded profile, the entitlements' application and team identifiers, the
    /// prefix last taken to be the Team ID. A unit whose platform is still unknown is a macOS one when its entitlements hold
    /// `com.apple.application-identifier` or the app sandbox.
    private static func identify(_ unit: inout SigningUnit, bundleID: String?, profile: ProfileFile?, bundleShown: String) {
        let ent = unit.entitlements
        var facts = FactResolver()
        facts.offer(.bundleID, from: .builtProduct, bundleID.map { Fact($0, from: .derived("CFBundleIdentifier of \(bundleShown)")) })
        // The embedded profile's App ID is not read for the bundle ID: the Info.plist states it.
        if let profile { facts.offerProfile(profile, bundle: false) }
        facts.offerEntitlements(ent)
        facts.apply(to: &unit)
        if unit.platform == .unknown, ent["com.apple.application-identifier"] != nil || ent["com.apple.security.app-sandbox"] != nil {
            unit.platform = .macOS
        }
    }
}
