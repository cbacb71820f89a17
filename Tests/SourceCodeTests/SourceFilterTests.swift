import XCTest
import SourceCode

/// The raw-byte checks that decide which files are lexed.
final class SourceFilterTests: XCTestCase {
    private func triggers(_ text: String) -> Bool { SourceFilter.mayHaveSites(Array(text.utf8)) }
    private func mentions(_ text: String, _ names: Set<String>) -> Bool { SourceFilter.mentions(Array(text.utf8), anyOf: names) }

    func testEveryKeychainIdiomHoldsATriggerWord() {
        let idioms: [(String, SourceLanguage)] = [
            ("let q = [kSecAttrAccessGroup as String: \"ABCDE12345.x\"]", .swift),
            ("let k = Keychain(service: \"s\", accessGroup: \"ABCDE12345.x\")", .swift),
            ("keychain.accessGroup = \"ABCDE12345.x\"", .swift),
            ("config.keychainSharingGroup = \"com.example.x\"", .swift),
            ("let v = Valet.sharedGroupValet(with: SharedGroupIdentifier(appIDPrefix: \"ABCDE12345\", nonEmptyGroup: \"x\")!, accessibility: .whenUnlocked)", .swift),
            ("func f() { let request = LocksmithRequest(userAccount: \"a\")\n request.group = \"ABCDE12345.x\" }", .swift),
            ("func f(q: [String: Any]) { let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]\n SecItemAdd(query as CFDictionary, nil) }", .swift),
            ("import KeychainAccess\nlet k = Keychain(service: \"s\")", .swift),
            ("[query setAccessGroup:@\"ABCDE12345.x\"];", .objectiveC),
            ("[[MSALPublicClientApplication alloc] initWithSharedKeychainAccessGroup:@\"com.example.x\" error:nil];", .objectiveC),
            ("[config setKeychainSharingGroup:@\"com.example.x\"];", .objectiveC),
        ]
        for (text, language) in idioms {
            let source = SourceScanner.scan(Array(text.utf8), language: language)
            XCTAssertFalse(source.groups.isEmpty && source.saves.isEmpty, "not an idiom the scanner reads: \(text)")
            XCTAssertTrue(triggers(text), text)
        }
    }

    func testOrdinaryCodeHoldsNone() {
        XCTAssertFalse(triggers("struct Model: Codable {\n    var name = \"a\" // Service and String\n}\n"))
        XCTAssertFalse(triggers(""))
        XCTAssertFalse(triggers("Grou"), "a trigger cut by the end of the file is not one")
    }

    func testNamesAreFoundAsWholeWordsOnly() {
        XCTAssertTrue(mentions("static let sharedGroup = \"x\"", ["sharedGroup"]))
        XCTAssertTrue(mentions("let `default` = \"x\"", ["default"]))
        XCTAssertTrue(mentions("#define GROUP @\"x\"", ["GROUP"]))
        XCTAssertTrue(mentions("group", ["group"]), "at both ends of the file")
        XCTAssertFalse(mentions("let sharedGroups = 1; let mysharedGroup = 2; let sharedGroup_ = 3; let $sharedGroup = 4", ["sharedGroup"]))
        XCTAssertFalse(mentions("let égroup = 1", ["group"]), "a letter of another script is part of the identifier")
        XCTAssertTrue(mentions("a.b + group", ["nothing", "group"]))
        XCTAssertFalse(mentions("group", []))
    }

    func testOneByteNamesAndNamesSharingTheirFirstBytesAreFound() {
        XCTAssertTrue(mentions("let a = x", ["x"]), "a one-byte name as the file's last byte")
        XCTAssertTrue(mentions("x = 1", ["x"]), "a one-byte name as the file's first byte")
        XCTAssertFalse(mentions("let xy = 1", ["x"]))
        XCTAssertTrue(mentions("let groupB = 1", ["groupA", "groupB"]), "the second of two names with the same first bytes")
        XCTAssertTrue(mentions("x", ["x"]))
        XCTAssertFalse(mentions("", ["x"]))
        let matcher = SourceFilter.NameMatcher(["sharedGroup", "k"])
        XCTAssertTrue(matcher.matches(Array("let sharedGroup = 1".utf8)))
        XCTAssertTrue(matcher.matches(Array("f(k)".utf8)))
        XCTAssertFalse(matcher.matches(Array("let kk = sharedGroups".utf8)), "one matcher for many files answers each alike")
    }

    func testManyNamesAreFoundInOnePassAsWholeWords() {
        let names: Set<String> = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "k"]
        XCTAssertTrue(mentions("let x = Keys.kappa", names))
        XCTAssertTrue(mentions("f(k)", names))
        XCTAssertTrue(mentions("eta", names))
        XCTAssertFalse(mentions("let betas = alphabet + etaX + kk", names))
        XCTAssertFalse(mentions("", names))
    }

    func testATriggerIsFoundWhereverItStartsAndEnds() {
        XCTAssertTrue(triggers("Group"), "the whole file")
        XCTAssertTrue(triggers("xGroupx"), "inside a longer word")
        XCTAssertTrue(triggers("SeSecItemAdd("), "after a false start with the same first bytes")
        XCTAssertFalse(triggers("SecItemAd"))
    }

    func testReferencedNamesAreEveryComponentOfEveryReference() {
        let expression = StringExpression.concatenation([
            .reference(["Constants", "Keychain", "group"]), .literal("."),
            .concatenation([.infoPlist(key: "AppIdentifierPrefix"), .reference(["suffix"])]), .unknown("a call"),
        ])
        XCTAssertEqual(expression.referencedNames, ["Constants", "Keychain", "group", "suffix"])
        XCTAssertEqual(StringExpression.literal("x").referencedNames, [])
    }
}
