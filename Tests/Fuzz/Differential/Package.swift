// swift-tools-version:6.0
// The differential-testing tool of Scripts/differential.sh: reads each input with Entitlint's
// plist reader and with Foundation's PropertyListSerialization (CoreFoundation's parser) and
// prints both results in one canonical JSON form; Tests/Fuzz/Differential/differential.py adds
// CPython's plistlib and compares. Not built by the root package.
import PackageDescription

let package = Package(
    name: "PlistDifferential",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Entitlint", path: "../../.."),
    ],
    targets: [
        .executableTarget(name: "PlistDifferential", dependencies: [
            .product(name: "EntitlintKit", package: "Entitlint"),
        ]),
    ]
)
