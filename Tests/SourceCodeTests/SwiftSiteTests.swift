import XCTest
import SourceCode

final class SwiftSiteTests: XCTestCase {
    func testLiteralInAQueryIsALiteralAtTheSite() {
        let file = """
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccessGroup as String: "ABCDE12345.com.example.shared",
        ]
        """
        let scanned = scan(file)
        XCTAssertEqual(scanned.groups, [KeychainGroupSite(line: 3, column: 5, api: "kSecAttrAccessGroup", value: .literal("ABCDE12345.com.example.shared"))])
        let resolved = resolveGroups([("Q.swift", file)])
        XCTAssertEqual(resolved.map(\.value), ["ABCDE12345.com.example.shared"])
        XCTAssertEqual(resolved.map(\.isLiteralAtSite), [true])
    }

    func testASiteInsideIfBranchesCarriesTheirConditionNestedOnesJoined() {
        let file = """
        import Locksmith
        func f(_ q: inout [String: Any]) {
        #if DEBUG
            q[kSecAttrAccessGroup as String] = "a"
        #elseif BETA
          #if os(iOS)
            q[kSecAttrAccessGroup as String] = "b"
          #endif
        #else
            let k = Keychain(service: "s", accessGroup: "c")
        #endif
            q[kSecAttrAccessGroup as String] = "d"
        }
        struct Token: GenericPasswordSecureStorable {
        #if !DEBUG
            let accessGroup = "e"
        #endif
        }
        """
        XCTAssertEqual(scan(file).groups.map(\.condition), [
            .flag("DEBUG"),
            .and(.and(.not(.flag("DEBUG")), .flag("BETA")), .unknown("os(iOS)")),
            .and(.not(.flag("DEBUG")), .not(.flag("BETA"))),
            nil,
            .not(.flag("DEBUG")),
        ])
    }

    func testEveryKeyFormIsASite() {
        let file = """
        func f() {
            var q = [String: Any]()
            q[kSecAttrAccessGroup as String] = "a"
            q.updateValue("b", forKey: kSecAttrAccessGroup as String)
            let d: [AnyHashable: Any] = [kSecAttrAccessGroup as AnyHashable: "c", String(kSecAttrAccessGroup): "d", kSecAttrAccessGroup: "e"]
            _ = (q, d)
        }
        """
        XCTAssertEqual(scan(file).groups.map(\.value), [.literal("a"), .literal("b"), .literal("c"), .literal("d"), .literal("e")])
    }

    func testConstantInAnotherFileNestedEnumAndExtension() {
        let constants = """
        enum AppConstants {
            enum AppGroups {
                static let main = "group.com.example"
            }
        }
        extension AppConstants.AppGroups {
            static let keychain = "ABCDE12345.com.example.keychain"
        }
        """
        let use = """
        let a: [String: Any] = [kSecAttrAccessGroup as String: AppConstants.AppGroups.main]
        let b: [String: Any] = [kSecAttrAccessGroup as String: AppGroups.keychain]
        """
        let scanned = scan(constants)
        XCTAssertEqual(scanned.definitions.map(\.path), [["AppConstants", "AppGroups", "main"], ["AppConstants", "AppGroups", "keychain"]])
        let resolved = resolveGroups([("Constants.swift", constants), ("Use.swift", use)])
        XCTAssertEqual(resolved.map(\.value), ["group.com.example", "ABCDE12345.com.example.keychain"])
        XCTAssertEqual(resolved[0].steps, ["AppConstants.AppGroups.main (Constants.swift:3)"])
        XCTAssertFalse(resolved[0].isLiteralAtSite)
    }

    func testInterpolationWithAnInfoPlistPrefix() {
        let file = """
        final class Container {
            init() {
                let prefix = Bundle.main.infoDictionary!["AppIdentifierPrefix"] as! String
                let query: [String: Any] = [kSecAttrAccessGroup as String: "\\(prefix)prt.ProtonVPN"]
                _ = query
            }
        }
        """
        let resolved = resolveGroups([("Container.swift", file)], infoPlist: ["AppIdentifierPrefix": "ABCDE12345."])
        XCTAssertEqual(resolved.map(\.value), ["ABCDE12345.prt.ProtonVPN"])
        XCTAssertEqual(resolved.map(\.usesInfoPlist), [true])
        XCTAssertEqual(resolved[0].steps, ["prefix (Container.swift:3)", "Info.plist AppIdentifierPrefix"])
        let missing = resolveGroups([("Container.swift", file)])
        XCTAssertEqual(missing[0].unknown, "part 1 is unknown: Info.plist has no entry AppIdentifierPrefix")
    }

    func testInfoPlistReadsFromAnyBundleAndFallbacks() {
        let file = """
        let a = Bundle.main.object(forInfoDictionaryKey: "K1") as? String ?? "fallback"
        let b = Bundle.app.infoDictionary?["K2"] as! String
        let c = Bundle(for: Token.self).object(forInfoDictionaryKey: "K3") as! String
        let d = String(format: "%@.com.example", a)
        let e = b.appending(".x")
        """
        let values = Dictionary(uniqueKeysWithValues: scan(file).definitions.map { ($0.path.joined(), $0.value) })
        XCTAssertEqual(values["a"], .infoPlist(key: "K1"))
        XCTAssertEqual(values["b"], .infoPlist(key: "K2"))
        XCTAssertEqual(values["c"], .infoPlist(key: "K3"))
        XCTAssertEqual(values["d"], .concatenation([.reference(["a"]), .literal(".com.example")]))
        XCTAssertEqual(values["e"], .concatenation([.reference(["b"]), .literal(".x")]))
        XCTAssertEqual(scan(#"let f = String(format: "%d.x", 3)"#).definitions.first?.value, .unknown("a format with a placeholder other than %@"))
    }

    func testKeychainAccessWrapperAndSavesWithoutAGroup() {
        let file = """
        import KeychainAccess
        struct Store {
            let shared = Keychain(service: "s", accessGroup: "ABCDE12345.com.example")
            let plain = Keychain(service: "s")
        }
        """
        let scanned = scan(file)
        XCTAssertEqual(scanned.groups.map(\.api), ["KeychainAccess Keychain(accessGroup:)"])
        XCTAssertEqual(scanned.groups.map(\.value), [.literal("ABCDE12345.com.example")])
        XCTAssertEqual(scanned.saves, [KeychainSaveSite(line: 4, column: 17, api: "KeychainAccess Keychain(service:)", dataProtectionKeychain: false)])
        // Without `import KeychainAccess` a `Keychain(service:)` is some other type: no save.
        XCTAssertEqual(scan("let k = Keychain(service: \"s\")").saves, [])
    }

    func testOwnWrapperDeclarationsAndParameters() {
        let file = """
        enum Constants { static let group = "ABCDE12345.com.example.store" }
        final class Store {
            let accessGroup: String
            init(accessGroup: String) { self.accessGroup = accessGroup }
            func copy(accessGroup group: String?) -> Store { Store(accessGroup: group ?? "") }
            func query() -> [String: Any] { [kSecAttrAccessGroup as String: accessGroup] }
            func other() -> [String: Any] { [kSecAttrAccessGroup as String: self.accessGroup] }
        }
        let store = Store(accessGroup: Constants.group)
        """
        let groups = scan(file).groups
        XCTAssertEqual(groups.map(\.line), [5, 6, 7, 9])
        XCTAssertEqual(groups.map(\.value), [.unknown("parameter group"), .unknown("property accessGroup"),
                                              .unknown("property accessGroup"), .reference(["Constants", "group"])])
        XCTAssertEqual(groups[3].api, "accessGroup: argument of Store")
        XCTAssertEqual(resolveGroups([("Store.swift", file)]).map(\.value), [nil, nil, nil, "ABCDE12345.com.example.store"])
    }

    func testAPropertyWithTheSameNameAsAConstantIsNotResolvedToIt() {
        let constants = #"enum Other { static let accessGroup = "unrelated" }"#
        let use = """
        final class Store {
            var accessGroup: String?
            func add() { _ = [kSecAttrAccessGroup as String: accessGroup as Any] }
        }
        """
        XCTAssertEqual(resolveGroups([("C.swift", constants), ("S.swift", use)]).map(\.unknown), ["property accessGroup"])
    }

    func testCommentsAndStringsDoNotMakeSites() {
        let file = """
        // kSecAttrAccessGroup as String: "x"
        /* outer /* kSecAttrAccessGroup: "y" */ still a comment: Keychain(accessGroup: "z") */
        let text = "kSecAttrAccessGroup as String: \\"w\\""
        let raw = #"accessGroup: "v" \\(kSecAttrAccessGroup)"#
        let multi = \"\"\"
            [kSecAttrAccessGroup as String: "u"]
            \"\"\"
        """
        let scanned = scan(file)
        XCTAssertEqual(scanned.groups, [])
        XCTAssertEqual(scanned.definitions.map(\.value), [.literal(#"kSecAttrAccessGroup as String: "w""#),
                                                          .literal(#"accessGroup: "v" \(kSecAttrAccessGroup)"#),
                                                          .literal(#"[kSecAttrAccessGroup as String: "u"]"#)])
    }

    func testSecItemAddWithAndWithoutAGroup() {
        let file = """
        func save(service: String) {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
            SecItemAdd(query as CFDictionary, nil)
        }
        func saveShared() {
            var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecUseDataProtectionKeychain as String: true]
            query[kSecAttrAccessGroup as String] = "ABCDE12345.shared"
            SecItemAdd(query as CFDictionary, nil)
        }
        func saveLiteral() {
            SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrSynchronizable: true] as CFDictionary, nil)
        }
        func saveFromHelper() {
            SecItemAdd(makeQuery() as CFDictionary, nil)
            let q = makeQuery()
            SecItemAdd(q as CFDictionary, nil)
        }
        func saveWrapped() {
            let q = KeychainDictionary([kSecClass: kSecClassGenericPassword])
            SecItemAdd(q, nil)
        }
        """
        XCTAssertEqual(scan(file).saves, [KeychainSaveSite(line: 3, column: 5, api: "SecItemAdd", dataProtectionKeychain: false),
                                          KeychainSaveSite(line: 11, column: 5, api: "SecItemAdd", dataProtectionKeychain: true)])
    }

    func testFileLevelAliasOfTheKey() {
        let file = """
        let AttributeAccessGroup = String(kSecAttrAccessGroup)
        final class Keychain {
            let accessGroup: String?
            func query() -> [String: Any] {
                var query = [String: Any]()
                query[AttributeAccessGroup] = accessGroup
                return query
            }
        }
        """
        XCTAssertEqual(scan(file).groups.map(\.value), [.unknown("property accessGroup")])
    }

    func testEnumRawValuesAndComputedProperties() {
        let file = """
        enum Group: String {
            case shared = "ABCDE12345.com.example.shared"
            case plain
        }
        struct Settings {
            static var keychainAccessGroup: String {
                guard let group = Bundle.app.object(forInfoDictionaryKey: "keychainAccessGroup") as? String else {
                    fatalError("missing")
                }
                return group
            }
            static var literal: String { "ABCDE12345.lit" }
        }
        let a = [kSecAttrAccessGroup as String: Group.shared.rawValue]
        let b = [kSecAttrAccessGroup as String: Group.plain.rawValue]
        let c = [kSecAttrAccessGroup as String: Settings.keychainAccessGroup]
        let d = [kSecAttrAccessGroup as String: Settings.literal]
        """
        let resolved = resolveGroups([("E.swift", file)], infoPlist: ["keychainAccessGroup": "ABCDE12345.from.plist"])
        XCTAssertEqual(resolved.map(\.value), ["ABCDE12345.com.example.shared", "plain", "ABCDE12345.from.plist", "ABCDE12345.lit"])
    }

    func testValetMSALAndKeychainSwiftProperties() {
        let file = """
        let id = SharedGroupIdentifier(appIDPrefix: "ABCDE12345", nonEmptyGroup: "com.example.valet")!
        let valet = Valet.sharedGroupValet(with: id, accessibility: .whenUnlocked)
        let other = Identifier(nonEmpty: "com.example.notagroup")
        let keychain = KeychainSwift()
        keychain.accessGroup = "ABCDE12345.com.example.swift"
        config.cacheConfig.keychainSharingGroup = "com.example.msal"
        """
        let scanned = scan(file)
        XCTAssertEqual(scanned.groups.map(\.api), ["Valet SharedGroupIdentifier", "accessGroup property (KeychainSwift, SAMKeychainQuery)", "MSAL keychainSharingGroup"])
        XCTAssertEqual(resolveGroups([("V.swift", file)]).map(\.value), ["ABCDE12345.com.example.valet", "ABCDE12345.com.example.swift", "com.example.msal"])
    }
}
