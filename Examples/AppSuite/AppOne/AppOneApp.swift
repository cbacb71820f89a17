import Security
import SwiftUI

@main
struct AppOneApp: App {
    var body: some Scene { WindowGroup { Text("App One") } }
}

/// The sign-in token AppOne saves for the suite (AppTwo reads it) in the shared keychain group,
/// named in full (code must spell the App ID prefix that Xcode puts before the group in the list).
enum SharedToken {
    static let group = "ABCDE12345.com.example.shared"

    static func save(_ token: Data) -> OSStatus {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrAccount as String: "sign-in",
                                    kSecAttrAccessGroup as String: group,
                                    kSecValueData as String: token]
        return SecItemAdd(query as CFDictionary, nil)
    }
}
