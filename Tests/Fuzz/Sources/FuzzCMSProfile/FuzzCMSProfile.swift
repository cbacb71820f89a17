import FuzzSupport
import PropertyList
import Provisioning

/// libFuzzer entry point for provisioning profiles: the CMS envelope (swift-asn1, DER and BER),
/// then the embedded plist, then the profile's typed fields.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCMSProfile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let profile = try ProfileDecoder.decode(fuzzInput(data, size))
        FuzzCheck.walk(profile.document.root)
        FuzzCheck.sink &+= profile.teamIdentifiers.count &+ profile.deviceCount
            &+ profile.entitlements.count &+ (profile.applicationIdentifier?.utf8.count ?? 0)
    } catch {
        FuzzCheck.error(error.reason)
    }
    return 0
}
