import SwiftUI

@main
struct AppOneApp: App {
    var body: some Scene { WindowGroup { Text("App One") } }
}
