import Foundation
import XCTest
@testable import EntitlintCore
@testable import EntitlintWorkspace
import PropertyList

/// `Paths.walk` reads folders in the file system's order and sorts once with `Paths.sorted`, a
/// byte sort that must order exactly as Swift's `<` does; when the walk's file limit is
/// reached it walks again in sorted order so that the files kept do not depend on the file system.
final class WalkOrderTests: XCTestCase {
    /// Random lists of strings, ASCII only (the fast path) or not (the fallback), over ASCII,
    /// precomposed and decomposed accents, Hangul jamo that compose, combining marks that
    /// reorder, NUL and characters past the BMP: `Paths.sorted` gives `sorted()`'s order.
    func testSortedOrdersAsSwiftStringsDo() {
        let ascii: [String] = ["a", "b", "e", "z", "A", "Z", "0", "9", ".", "/", "-", "_", " ", "\u{0}", "\u{7F}", "fi", "ab"]
        let other: [String] = ["\u{E9}", "e\u{301}", "\u{301}", "\u{308}", "\u{323}", "\u{1100}", "\u{1161}", "\u{AC00}",
                               "\u{3A9}", "\u{2126}", "\u{1F600}", "\u{80}", "\u{FB01}"]
        var rng = SystemRandomNumberGenerator()
        for round in 0..<400 {
            let pieces = round % 2 == 0 ? ascii : ascii + other
            let strings = (0..<Int.random(in: 0...60, using: &rng)).map { _ in
                (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            }
            XCTAssertEqual(Paths.sorted(strings), strings.sorted(), "round \(round)")
        }
        XCTAssertEqual(Paths.sorted(["b", "a\u{301}", "\u{E1}", "a"]), ["a", "a\u{301}", "\u{E1}", "b"].sorted())
        // And on the corpus' own names.
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/entitlements")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        XCTAssertEqual(Paths.sorted(names.shuffled()), names.sorted())
    }

    func tempFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// Sorted as `<` sorts, whatever order the files were made in, across nested folders.
    func testWalkResultIsSorted() throws {
        let dir = try tempFolder()
        var made: [String] = []
        for name in ["b", "a", "\u{E9}", "e\u{301}x", "Z", "a b", "a.b"].shuffled() {
            for folder in ["", "sub/", "sub/deeper/", "sub\u{301}/"] {
                let rel = folder + name + ".entitlements"
                try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder.isEmpty ? "." : folder), withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(rel).path, contents: Data("x".utf8))
                made.append(dir.path + "/" + rel)
            }
        }
        let found = Paths.walk(dir.path) { $0.hasSuffix(".entitlements") }
        XCTAssertEqual(found, made.sorted())
    }

    /// At the limit the walk keeps the first files in sorted order, not the file system's.
    func testWalkLimitKeepsTheFirstFilesInSortedOrder() throws {
        let dir = try tempFolder()
        var made: [String] = []
        for i in (0..<200).shuffled() {
            let folder = i % 3 == 0 ? "" : "f\(i % 7)/"
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder.isEmpty ? "." : folder), withIntermediateDirectories: true)
            let rel = folder + "n\(i).entitlements"
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(rel).path, contents: Data("x".utf8))
            made.append(rel)
        }
        let first = Paths.walk(dir.path, limit: 50) { _ in true }
        XCTAssertEqual(first.count, 50)
        XCTAssertEqual(first, Paths.walk(dir.path, limit: 50) { _ in true }, "the same files on every walk")
        // The sorted walk reads each folder in sorted order, its files before the folders it
        // holds; what it keeps is sorted in the end.
        XCTAssertEqual(first, first.sorted())
        XCTAssertEqual(Paths.walk(dir.path, limit: 1_000) { _ in true }.count, 200)
    }
}

/// `InputFiles.isProfilePath` compares bytes (ASCII, case-insensitive) instead of extracting and
/// lower-casing the extension; it must answer as that did.
final class ProfilePathTests: XCTestCase {
    func testIsProfilePathAnswersAsTheExtensionDoes() {
        func reference(_ path: String) -> Bool {
            let base = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
            guard let dot = base.lastIndex(of: ".") else { return false }
            return InputFiles.profileExtensions.contains(String(base[base.index(after: dot)...]).lowercased())
        }
        let paths = ["a.mobileprovision", "A.MobileProvision", "dir/x.PROVISIONPROFILE", "x/.mobileprovision", ".provisionprofile",
                     "dir.mobileprovision/file", "a.mobileprovisionx", "mobileprovision", "a.entitlements", "a.b.mobileprovision",
                     "a.mobile-provision", "a.mobileprovision.bak", "é.mobileprovision", "a.provisionprofil", ""]
        for p in paths { XCTAssertEqual(InputFiles.isProfilePath(p), reference(p), p) }
        XCTAssertEqual(Set(InputFiles.profileExtensionBytes.map { String(decoding: $0, as: UTF8.self) }), InputFiles.profileExtensions)
    }
}

/// `Paths.baseName` reads the bytes in place; it must answer as the Substring version did.
final class BaseNameTests: XCTestCase {
    func testBaseNameAnswersAsBefore() {
        func reference(_ path: String) -> String {
            var p = Substring(path)
            while p.utf8.last == UInt8(ascii: "/") && p.utf8.count > 1 { p = p.dropLast() }
            guard let slash = p.utf8.lastIndex(of: UInt8(ascii: "/")) else { return String(p) }
            return String(p[p.utf8.index(after: slash)...])
        }
        for p in ["", "/", "//", "a", "a/", "a//", "/a", "/a/b", "a/b/", "./a.entitlements", "x/y/z.xcent", "é/ü.entitlements",
                  "/tmp/", "a/b//", "//a", "a b/c d", "Ünïcödé"] {
            XCTAssertEqual(Paths.baseName(p), reference(p), "\"\(p)\"")
        }
    }
}

/// The App ID derived for a unit whose file names none is expanded once when no variable has a
/// value; it must be the expansion `expandUncached` gives, and not used once one has a value.
final class DerivedAppIDTests: XCTestCase {
    func testTheCachedExpansionIsTheExpansion() {
        let empty = VariableExpander(appIDPrefix: nil, teamID: nil, bundleID: nil)
        XCTAssertEqual(empty.expand(VariableExpander.derivedAppID), empty.expandUncached(VariableExpander.derivedAppID))
        XCTAssertEqual(empty.expand(VariableExpander.derivedAppID).symbolic.count, 2)
        let known = VariableExpander(appIDPrefix: "ABCDE12345", teamID: nil, bundleID: "com.example.app")
        XCTAssertEqual(known.expand(VariableExpander.derivedAppID).text, "ABCDE12345.com.example.app")
        let onlyExtra = VariableExpander(appIDPrefix: nil, teamID: nil, bundleID: nil, extra: ["PRODUCT_BUNDLE_IDENTIFIER": "com.x"])
        XCTAssertEqual(onlyExtra.expand(VariableExpander.derivedAppID).text, "$(AppIdentifierPrefix)com.x")
    }
}

/// `UnitContext.accessGroups` is built when first asked for, and `keychainEntitlementHonoured`
/// answers without it; both must agree with the list built as before.
final class LazyAccessGroupsTests: XCTestCase {
    func testLazyListAndHonouredCheckAgreeWithTheList() throws {
        let bodies = ["", "<key>keychain-access-groups</key><array/>",
                      "<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)a</string><string>b</string></array>",
                      "<key>keychain-access-groups</key><array><string>a</string><integer>1</integer></array>",
                      "<key>keychain-access-groups</key><string>a</string>",
                      "<key>application-identifier</key><string>ABCDE12345.com.x</string><key>com.apple.security.application-groups</key><array><string>group.x</string></array>"]
        for body in bodies {
            let doc = try PropertyListReader.parse(Array("<plist><dict>\(body)</dict></plist>".utf8))
            let unit = SigningUnit(name: "U", entitlementsPath: "U.entitlements", document: doc)
            let context = UnitContext(unit: unit, lock: nil)
            XCTAssertEqual(context.keychainEntitlementHonoured, unit.accessGroups.keychainEntitlementHonoured, body)
            XCTAssertEqual(context.accessGroups, unit.accessGroups, body)
            XCTAssertEqual(context.accessGroups, context.accessGroups, "built once, the same after")
        }
    }
}
