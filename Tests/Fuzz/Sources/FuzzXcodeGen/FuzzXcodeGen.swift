import EntitlintCore
import FuzzSupport
import XcodeProject

/// libFuzzer entry point for XcodeGen specs: the input is `/fuzz/project.yml`, read by
/// `XcodeDiscoverer` over in-memory files (an exclusive `VirtualFiles`: nothing from the disk)
/// as `entitlint lint project.yml` reads it: YAMLReader, `include:`, templates, settings groups and
/// configurations, config files (xcconfig), entitlements paths and properties, the units built
/// from them. Beside it: an included spec, an xcconfig and an entitlements file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXcodeGen(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var files = XcodeGenWorld.files
    files[XcodeGenWorld.spec] = fuzzInput(data, size)
    FuzzCheck.discover(XcodeGenWorld.spec, files: files)
    return 0
}

enum XcodeGenWorld {
    static let spec = "/fuzz/project.yml"
    static let files: [String: [UInt8]] = [
        "/fuzz/base.yml": Array("""
            options:
              bundleIdPrefix: com.example
            settings:
              base:
                DEVELOPMENT_TEAM: ABCDE12345

            """.utf8),
        "/fuzz/Config/Release.xcconfig": Array("CODE_SIGN_STYLE = Manual\nHOST_ID = $(PRODUCT_BUNDLE_IDENTIFIER)\n".utf8),
        "/fuzz/App/App.entitlements": Array("""
            <plist><dict><key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string></array></dict></plist>
            """.utf8),
    ]
}
