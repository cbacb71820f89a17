import Security
import SwiftUI

@main
struct AppTwoApp: App {
    var body: some Scene { WindowGroup { Text("App Two") } }
}

/// The sign-in token AppOne saves in the shared keychain group; AppTwo only reads it, naming the
/// group in full as AppOne does (the App ID prefix that Xcode puts before it in the entitlements).
enum SharedToken {
    static let group = "ABCDE12345.com.example.shared"

    static func load() -> Data? {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrAccount as String: "sign-in",
                                    kSecAttrAccessGroup as String: group,
                                    kSecReturnData as String: true,
                                    kSecMatchLimit as String: kSecMatchLimitOne]
        var item: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess else { return nil }
        return item as? Data
    }
}
