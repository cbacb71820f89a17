import EntitlintCore
import FuzzSupport
import PropertyList
import XcodeProject

/// libFuzzer entry point for old-style (OpenStep) plists, the format of `project.pbxproj`: the
/// reader first; then, when the input parses, the Xcode project model on top of it (objects,
/// targets, configuration lists, groups and paths, xcconfig and entitlements files), through
/// `XcodeDiscoverer` over in-memory files (an exclusive `VirtualFiles`: nothing is read from the
/// disk). The project lives in `/fuzz`, with the files the AppSuite example names beside it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenStepPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    do {
        let document = try OpenStepPlistReader.parse(bytes)
        FuzzCheck.walk(document.root)
    } catch {
        FuzzCheck.error(error.reason)
        return 0
    }
    var files = ProjectWorld.files
    files[ProjectWorld.pbxproj] = bytes
    FuzzCheck.discover(ProjectWorld.pbxproj, files: files)
    return 0
}

/// The files around the project: what `Examples/AppSuite` names (a base xcconfig that includes
/// another, four entitlements files using build-setting variables).
enum ProjectWorld {
    static let pbxproj = "/fuzz/AppSuite.xcodeproj/project.pbxproj"

    static let entitlements = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>keychain-access-groups</key>
        \t<array>
        \t\t<string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        \t\t<string>$(TeamIdentifierPrefix)shared</string>
        \t</array>
        \t<key>com.apple.security.application-groups</key>
        \t<array><string>group.$(BUNDLE_ID_PREFIX).suite</string></array>
        </dict>
        </plist>

        """.utf8)

    static let files: [String: [UInt8]] = [
        "/fuzz/Config/Shared.xcconfig": Array("""
            DEVELOPMENT_TEAM = ABCDE12345
            BUNDLE_ID_PREFIX = com.example
            SDKROOT = iphoneos
            CODE_SIGN_IDENTITY[sdk=iphoneos*] = Apple Development
            OTHER = $(inherited) $(BUNDLE_ID_PREFIX:lower)
            #include "Local.xcconfig"
            #include? "Missing.xcconfig"

            """.utf8),
        "/fuzz/Config/Local.xcconfig": Array("CODE_SIGN_STYLE = Manual\n#include \"Shared.xcconfig\"\n".utf8),
        "/fuzz/AppOne/AppOne.entitlements": entitlements,
        "/fuzz/AppTwo/AppTwo.entitlements": entitlements,
        "/fuzz/ShareExtension/ShareExtension.entitlements": entitlements,
        "/fuzz/Widget/Widget.entitlements": Array("<plist><dict><key>a</key><string>$(UNDEFINED)</string></dict></plist>".utf8),
    ]
}
