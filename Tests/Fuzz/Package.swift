// swift-tools-version:6.0
// libFuzzer harnesses for Entitlint's parsers, one executable per parser.
//
// Built only by `Scripts/fuzz.sh` (with `-sanitize=fuzzer,address -parse-as-library`, in
// `.build-fuzzers`); the root package neither lists nor builds anything here.
import PackageDescription

let package = Package(
    name: "EntitlintFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Entitlint", path: "../.."),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [
            .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzXMLPlist", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzBinaryPlist", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzCMSProfile", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzYAMLConfig", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzOpenStepPlist", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzMachO", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzIPA", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzXCConfig", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzXcodeGen", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzGlob", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzGitIgnore", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzSourceScan", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
        .executableTarget(name: "FuzzGitOutput", dependencies: [
            "FuzzSupport", .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
    ]
)
