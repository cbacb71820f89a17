import EntitlintCore
import EntitlintWorkspace
import FuzzSupport
@_spi(Fuzzing) import XcodeProject

/// libFuzzer entry point for `.xcconfig` files: the loader (`#include` and `#include?` of the
/// files beside it, conditions, comments) and the build-setting evaluator (`$(X)`, `${X}`, `$X`,
/// nested `$(A_$(B))`, `$(inherited)`, operators, cycles, growth), through
/// `XCConfigEvaluation.evaluate` over in-memory files: the input is `/fuzz/Config/Fuzz.xcconfig`,
/// beside a file that includes it back (a loop) and one that sets a few settings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXCConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var files = XCConfigWorld.files
    files[XCConfigWorld.path] = fuzzInput(data, size)
    var options = LintOptions()
    options.parallel = false
    options.virtualFiles = VirtualFiles(files: files, exclusive: true)
    let result = XCConfigEvaluation.evaluate(XCConfigWorld.path, options: options, cwd: "/fuzz")
    for (name, values) in result.values {
        precondition(values.count == 2, "a setting was not resolved in both contexts")
        FuzzCheck.sink &+= name.utf8.count
        for v in values { FuzzCheck.sink &+= v?.utf8.count ?? 0 }
    }
    for p in result.problems { FuzzCheck.error(p) }
    return 0
}

enum XCConfigWorld {
    static let path = "/fuzz/Config/Fuzz.xcconfig"
    static let files: [String: [UInt8]] = [
        "/fuzz/Config/Shared.xcconfig": Array("""
            DEVELOPMENT_TEAM = ABCDE12345
            BUNDLE_ID_PREFIX = com.example
            PRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_ID_PREFIX).$(PRODUCT_NAME:rfc1034identifier)
            OTHER[sdk=iphoneos*][arch=arm64] = $(inherited) device

            """.utf8),
        "/fuzz/Config/Loop.xcconfig": Array("#include \"Fuzz.xcconfig\"\nLOOP = 1\n".utf8),
    ]
}
