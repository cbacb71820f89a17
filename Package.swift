// swift-tools-version:6.0
import PackageDescription

// What static Foundation needs besides itself. The modules were compiled against the shared
// Foundation, whose link entries name only `Foundation`; these complete the static link.
let staticFoundationLibraries = [
    "FoundationEssentials", "FoundationInternationalization", "CoreFoundation", "_FoundationICU",
    "_FoundationCShims", "_FoundationCollections", "swiftSynchronization", "swiftDispatch", "dispatch", "BlocksRuntime",
]

let package = Package(
    name: "Entitlint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "entitlint", targets: ["entitlint"]),
        .library(name: "EntitlintKit", targets: ["PropertyList", "Provisioning", "EntitlintCore", "EntitlintWorkspace", "EntitlintRules", "Reporters",
                                                 "XcodeProject", "Artifacts", "SourceCode", "EntitlintKit"]),
        .plugin(name: "EntitlintPlugin", targets: ["EntitlintPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
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
        // The system libyaml: its event parser, which YAMLReader composes into nodes.
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // YAML text to nodes (scalars with their YAML 1.1 tags, sequences, ordered mappings, aliases
        // shared), on libyaml's events; no Foundation.
        .target(name: "YAMLReader", dependencies: ["CLibYAML"]),
        .target(name: "PropertyList", dependencies: ["CLibXML2"]),
        // Swift and Objective-C lexing for the keychain groups code passes; no dependency.
        .target(name: "SourceCode"),
        .target(name: "Provisioning", dependencies: [
            "PropertyList",
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        // The model and the rule engine: signing units, facts, findings, rules. It reads no file,
        // runs no process and parses no YAML (RepositoryHygieneTests keeps it so).
        .target(name: "EntitlintCore", dependencies: ["PropertyList", "Provisioning", "SourceCode"]),
        // A run over files and folders: walks, git, configuration and lock files, baselines,
        // standard input, where output goes.
        .target(name: "EntitlintWorkspace", dependencies: [
            "EntitlintCore", "PropertyList", "Provisioning", "SourceCode", "YAMLReader", "CLibYAML",
        ]),
        .target(name: "EntitlintRules", dependencies: ["EntitlintCore", "PropertyList", "Provisioning"]),
        .target(name: "XcodeProject", dependencies: ["EntitlintCore", "EntitlintWorkspace", "PropertyList", "Provisioning", "YAMLReader", "SourceCode"]),
        .target(name: "Artifacts", dependencies: [
            "EntitlintCore", "EntitlintWorkspace", "PropertyList", "Provisioning",
            .product(name: "SwiftASN1", package: "swift-asn1"), "CZlib",
        ]),
        .target(name: "Reporters", dependencies: ["EntitlintCore", "EntitlintWorkspace", "PropertyList"]),
        // One whole lint run (a request in, an outcome out): what the command line, the plugin and
        // the tests call, so none of them wires configuration, baselines or limits by hand.
        .target(name: "EntitlintKit", dependencies: ["EntitlintCore", "EntitlintWorkspace", "EntitlintRules", "Reporters", "XcodeProject", "Artifacts"]),
        .executableTarget(
            name: "entitlint",
            dependencies: [
                "EntitlintKit", "EntitlintCore", "EntitlintWorkspace", "EntitlintRules", "Reporters", "XcodeProject", "Artifacts", "PropertyList",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // On Linux the release binary links the Swift runtime and Foundation statically: loading
            // them as shared libraries costs more at start-up than a one-file lint takes. The flag
            // is on the executable only; SwiftPM refuses unsafe flags in a versioned dependency's
            // library products, not in an executable that a command plugin runs, so EntitlintKit and
            // the plugin stay usable from a tagged release. `--no-export-dynamic` undoes the static
            // standard library's `-export-dynamic`: nothing loads code into the tool, and the Swift
            // runtime's start-up `dladdr` walks every exported symbol (about 9,000 of them, else).
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic"],
                                          .when(platforms: [.linux], configuration: .release))]
                + staticFoundationLibraries.map { .linkedLibrary($0, .when(platforms: [.linux], configuration: .release)) }
        ),
        // `swift package entitlint [lint arguments]` in a package that depends on this one. It asks for
        // no permission: linting only reads (see README, "Install and first run").
        .plugin(
            name: "EntitlintPlugin",
            capability: .command(
                intent: .custom(verb: "entitlint", description: "Lint the package's entitlements, profiles and Xcode projects with Entitlint"),
                permissions: []
            ),
            dependencies: ["entitlint"],
            path: "Sources/EntitlintPlugin"
        ),
        // What several test targets share (the fuzz harnesses' inputs, the report schema validators); not a product.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "YAMLReaderTests", dependencies: ["YAMLReader"]),
        .testTarget(name: "PropertyListTests", dependencies: ["PropertyList", "TestSupport"]),
        .testTarget(name: "SourceCodeTests", dependencies: ["SourceCode", "TestSupport"]),
        .testTarget(name: "ProvisioningTests", dependencies: [
            "Provisioning", "PropertyList", "TestSupport",
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "EntitlintCoreTests", dependencies: ["EntitlintCore", "EntitlintRules", "PropertyList", "Provisioning", "TestSupport"]),
        .testTarget(name: "EntitlintWorkspaceTests", dependencies: ["EntitlintWorkspace", "EntitlintCore", "EntitlintRules", "PropertyList", "Provisioning", "TestSupport"]),
        .testTarget(name: "EntitlintRulesTests", dependencies: ["EntitlintRules", "EntitlintCore", "EntitlintWorkspace", "PropertyList", "Provisioning", "Reporters"]),
        .testTarget(name: "EntitlintCLITests", dependencies: ["EntitlintKit", "EntitlintCore", "EntitlintWorkspace", "Reporters", "EntitlintRules", "entitlint", "TestSupport", "YAMLReader",
                                                           .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "EntitlintKitTests", dependencies: ["EntitlintKit", "EntitlintCore", "EntitlintWorkspace", "PropertyList", "Reporters", "TestSupport"]),
        .testTarget(name: "ReportersTests", dependencies: ["Reporters", "EntitlintCore", "EntitlintWorkspace", "EntitlintRules", "TestSupport"]),
        .testTarget(name: "XcodeProjectTests", dependencies: ["XcodeProject", "EntitlintCore", "EntitlintWorkspace", "EntitlintRules", "PropertyList", "Provisioning", "TestSupport"]),
        .testTarget(name: "ArtifactsTests", dependencies: ["Artifacts", "EntitlintCore", "EntitlintWorkspace", "EntitlintRules", "PropertyList", "Provisioning", "TestSupport",
                                                           .product(name: "SwiftASN1", package: "swift-asn1"), "CZlib"]),
    ]
)
