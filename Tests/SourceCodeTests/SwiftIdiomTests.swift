import XCTest
import SourceCode

/// Swift idioms that name a group through another name: type aliases and functions without
/// parameters that return a string.
final class SwiftIdiomTests: XCTestCase {
    func testATypeAliasOfAnotherFilesTypeIsFollowed() {
        let manager = """
        enum KeychainManager {
            static let sharedKeychainGroup = "ABCDE12345.com.example.shared"
            enum Inner { static let group = "ABCDE12345.com.example.inner" }
        }
        """
        let store = """
        private typealias KcM = KeychainManager
        typealias Deep = KeychainManager.Inner
        func save() {
            let a = [kSecAttrAccessGroup as String: KcM.sharedKeychainGroup]
            let b = [kSecAttrAccessGroup as String: Deep.group]
            let c = [kSecAttrAccessGroup as String: KcM.Inner.group]
        }
        """
        let resolved = resolveGroups([("Manager.swift", manager), ("Store.swift", store)])
        XCTAssertEqual(resolved.map(\.value), ["ABCDE12345.com.example.shared", "ABCDE12345.com.example.inner", "ABCDE12345.com.example.inner"])
        XCTAssertEqual(resolved.first?.steps, ["typealias KcM = KeychainManager (Store.swift:1)",
                                               "KeychainManager.sharedKeychainGroup (Manager.swift:2)"])
    }

    func testAnAliasThatIsNotOneOrDisagreesIsNotFollowed() {
        let file = """
        enum A { static let group = "ABCDE12345.a" }
        enum B { static let group = "ABCDE12345.b" }
        typealias K = A
        struct S { typealias K = B }
        typealias Cycle = Cycle
        let x = [kSecAttrAccessGroup as String: K.group]
        let y = [kSecAttrAccessGroup as String: Missing.group]
        let z = [kSecAttrAccessGroup as String: Cycle.nothing]
        """
        let resolved = resolveGroups([("A.swift", file)])
        XCTAssertEqual(resolved.map(\.value), [nil, nil, nil])
        XCTAssertEqual(resolved.map(\.unknown), ["no definition of K.group found", "no definition of Missing.group found",
                                                 "references nested more than 16 deep"])
    }

    func testAFunctionWithoutParametersReturningAStringIsItsBody() {
        let file = """
        enum Keys {
            static func sharedGroup() -> String {
                return "ABCDE12345.com.example.shared"
            }
            static func prefixed() -> String { teamPrefix() + ".com.example.prefixed" }
            static func teamPrefix() -> String { Bundle.main.object(forInfoDictionaryKey: "TeamPrefix") as! String }
            static func withParameter(_ name: String) -> String { "ABCDE12345." + name }
            static func notAString() -> Int { 1 }
        }
        let a = [kSecAttrAccessGroup as String: Keys.sharedGroup()]
        let b = [kSecAttrAccessGroup as String: Keys.prefixed()]
        let c = [kSecAttrAccessGroup as String: Keys.withParameter("x")]
        let d = [kSecAttrAccessGroup as String: Keys.notAString()]
        let e = [kSecAttrAccessGroup as String: Keys.sharedGroup]
        """
        let resolved = resolveGroups([("K.swift", file)], infoPlist: ["TeamPrefix": "ABCDE12345"])
        XCTAssertEqual(resolved.map(\.value), ["ABCDE12345.com.example.shared", "ABCDE12345.com.example.prefixed", nil, nil, nil])
        XCTAssertEqual(resolved[3].unknown, "no definition of Keys.notAString() found")
        XCTAssertEqual(resolved[4].unknown, "no definition of Keys.sharedGroup found", "a function is not a property of the same name")
    }
}
