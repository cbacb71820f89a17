// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Entitlint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "entitlint", targets: ["entitlint"]),
        .library(name: "EntitlintKit", targets: ["PropertyList", "Provisioning", "EntitlintCore", "EntitlintRules", "Reporters",
                                                 "XcodeProject", "Artifacts", "SourceCode"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // The system zlib: raw inflate and CRC-32 for .ipa entries.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "PropertyList", dependencies: ["CLibXML2"]),
        // Swift and Objective-C lexing for the keychain groups code passes; no dependency.
        .target(name: "SourceCode"),
        .target(name: "Provisioning", dependencies: [
            "PropertyList",
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .target(name: "EntitlintCore", dependencies: [
            "PropertyList", "Provisioning", "SourceCode",
            .product(name: "Yams", package: "Yams"),
        ]),
        .target(name: "EntitlintRules", dependencies: ["EntitlintCore", "PropertyList", "Provisioning"]),
        .target(name: "XcodeProject", dependencies: ["EntitlintCore", "PropertyList", "Provisioning",
                                                     .product(name: "Yams", package: "Yams")]),
        .target(name: "Artifacts", dependencies: [
            "EntitlintCore", "PropertyList", "Provisioning",
            .product(name: "SwiftASN1", package: "swift-asn1"), "CZlib",
        ]),
        .target(name: "Reporters", dependencies: ["EntitlintCore"]),
        .executableTarget(
            name: "entitlint",
            dependencies: [
                "EntitlintCore", "EntitlintRules", "Reporters", "XcodeProject", "Artifacts",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "PropertyListTests", dependencies: ["PropertyList"]),
        .testTarget(name: "SourceCodeTests", dependencies: ["SourceCode"]),
        .testTarget(name: "ProvisioningTests", dependencies: [
            "Provisioning", "PropertyList",
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "EntitlintCoreTests", dependencies: ["EntitlintCore", "EntitlintRules", "PropertyList", "Provisioning"]),
        .testTarget(name: "EntitlintRulesTests", dependencies: ["EntitlintRules", "EntitlintCore", "PropertyList", "Provisioning", "Reporters"]),
        .testTarget(name: "EntitlintCLITests", dependencies: ["EntitlintCore", "Reporters", "EntitlintRules"]),
        .testTarget(name: "ReportersTests", dependencies: ["Reporters", "EntitlintCore", "EntitlintRules"]),
        .testTarget(name: "XcodeProjectTests", dependencies: ["XcodeProject", "EntitlintCore", "EntitlintRules", "PropertyList", "Provisioning"]),
        .testTarget(name: "ArtifactsTests", dependencies: ["Artifacts", "EntitlintCore", "EntitlintRules", "PropertyList", "Provisioning",
                                                           .product(name: "SwiftASN1", package: "swift-asn1"), "CZlib"]),
    ]
)
