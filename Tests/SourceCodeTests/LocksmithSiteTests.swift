import XCTest
import SourceCode

/// Locksmith's ways of passing an access group: the `accessGroup` property of a type adopting one
/// of its storable protocols, the `accessGroup:` argument of its convenience functions, and the
/// `group` property of a Locksmith 1.x `LocksmithRequest`.
final class LocksmithSiteTests: XCTestCase {
    func testStoredAndComputedAccessGroupOfStorableTypesAreSites() {
        let file = """
        import Locksmith
        enum Keys { static let group = "ABCDE12345.com.example.locksmith" }
        struct Account: ReadableSecureStorable, CreateableSecureStorable, GenericPasswordSecureStorable {
            let username: String
            var service: String { "Chat" }
            var account: String { username }
            var data: [String: Any] { [:] }
            var accessGroup: String? { return Keys.group }
        }
        struct Token: GenericPasswordSecureStorable, CreateableSecureStorable {
            let service = "Token"
            let account = "token"
            var data: [String: Any] { [:] }
            let accessGroup = "ABCDE12345.com.example.token"
        }
        struct Legacy: Locksmith.DeleteableSecureStorable, GenericPasswordSecureStorable {
            let service = "Legacy"
            let account = "legacy"
            var accessGroup: String? {
                get { "ABCDE12345.com.example.legacy" }
            }
        }
        """
        let groups = scan(file).groups
        XCTAssertEqual(groups, [
            KeychainGroupSite(line: 8, column: 9, api: "Locksmith accessGroup property", value: .reference(["Keys", "group"])),
            KeychainGroupSite(line: 14, column: 9, api: "Locksmith accessGroup property", value: .literal("ABCDE12345.com.example.token")),
            KeychainGroupSite(line: 19, column: 9, api: "Locksmith accessGroup property", value: .literal("ABCDE12345.com.example.legacy")),
        ])
        XCTAssertEqual(resolveGroups([("Account.swift", file)]).map(\.value),
                       ["ABCDE12345.com.example.locksmith", "ABCDE12345.com.example.token", "ABCDE12345.com.example.legacy"])
    }

    func testConformanceInAnExtensionBelowTheTypeAndInAWhereClause() {
        let file = """
        struct Outer {
            struct Item {
                let account: String
                var accessGroup: String? { "\\(Outer.prefix).com.example.item" }
            }
            static let prefix = "ABCDE12345"
        }
        extension Outer.Item: GenericPasswordSecureStorable, ReadableSecureStorable {
            var service: String { "Item" }
        }
        protocol Shared {}
        extension Shared where Self: CreateableSecureStorable {
            var accessGroup: String? { "ABCDE12345.com.example.where" }
        }
        """
        let groups = scan(file).groups
        XCTAssertEqual(groups.map(\.line), [4, 13])
        XCTAssertEqual(resolveGroups([("Item.swift", file)]).map(\.value), ["ABCDE12345.com.example.item", "ABCDE12345.com.example.where"])
    }

    func testOtherTypesProtocolRequirementsAndNilAreNotSites() {
        let file = """
        struct Settings {
            let accessGroup = "ABCDE12345.com.example.not-keychain"
            var other: String? { "x" }
        }
        protocol MyStorable: SecureStorable {
            var accessGroup: String? { get }
        }
        struct NoGroup: GenericPasswordSecureStorable, CreateableSecureStorable {
            let service = "s"
            let account = "a"
            var accessGroup: String? { return nil }
        }
        struct Injected: GenericPasswordSecureStorable, ReadableSecureStorable {
            let service: String
            let account: String
            let accessGroup: String?
        }
        struct Result: GenericPasswordSecureStorableResultType {
            var resultDictionary: [String: Any]
            var accessGroup: String? { "ABCDE12345.com.example.result" }
        }
        """
        XCTAssertEqual(scan(file).groups, [])
        // The value a memberwise initialiser is given is an `accessGroup:` argument like any other.
        let use = #"let item = Injected(service: "s", account: "a", accessGroup: "ABCDE12345.com.example.arg")"#
        XCTAssertEqual(scan(use).groups.map(\.value), [.literal("ABCDE12345.com.example.arg")])
    }

    func testConvenienceFunctionsAndLocksmithRequest() {
        let file = """
        func save(_ data: [String: Any]) throws {
            try Locksmith.saveData(data: data, forUserAccount: "me", inService: "svc", accessGroup: "ABCDE12345.com.example.conv")
            let request = LocksmithRequest(userAccount: "me", requestType: .Create, data: data)
            request.group = "ABCDE12345.com.example.request"
            let other = Team()
            other.group = "not a keychain group"
        }
        func unrelated(request: Request) {
            request.group = "not a keychain group either"
        }
        """
        let groups = scan(file).groups
        XCTAssertEqual(groups.map(\.api), ["accessGroup: argument of saveData", "Locksmith LocksmithRequest group"])
        XCTAssertEqual(groups.map(\.value), [.literal("ABCDE12345.com.example.conv"), .literal("ABCDE12345.com.example.request")])
    }
}
