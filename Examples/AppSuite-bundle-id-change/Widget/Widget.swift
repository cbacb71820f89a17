import WidgetKit
import SwiftUI

struct SuiteWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Suite", provider: Provider()) { _ in Text("Suite") }
    }
}
