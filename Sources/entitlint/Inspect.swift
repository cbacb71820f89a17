import ArgumentParser
import Artifacts
import EntitlintCore
import Foundation

/// `entitlint inspect FILE`: a profile, an entitlements file or a built product, decoded.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode a profile, an entitlements file, a Mach-O, an .app, an .xcarchive or an .ipa.",
        discussion: """
        text (default): a readable summary: for a profile its name, UUID, team, App ID, kind, platforms, dates with \
        days left, device count, certificates with subject and expiry, and entitlements; for a built product each \
        unit's signed entitlements and its profile. json: the same as JSON (sorted keys). plist: the decoded plist \
        itself (what `security cms -D -i` prints for a profile; a binary's signed entitlements).
        """)

    @Argument(help: "The file or product to decode.")
    var file: String

    @Option(help: "Output format: text, json or plist.")
    var format: String = "text"

    func run() throws {
        guard ["text", "json", "plist"].contains(format) else {
            throw CLIError("unknown format '\(format)' for inspect (text, json or plist)")
        }
        let inspection: Inspection
        do {
            inspection = try Inspector.inspect(file, shown: Paths.display(file), now: CheckSettings.currentDate())
        } catch {
            throw CLIError(error.description)
        }
        switch format {
        case "json":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(inspection)
            Output.write(String(decoding: data, as: UTF8.self) + "\n")
        case "plist":
            Output.writeBytes(inspection.plist)   // the bytes as they are (UTF-16, binary plists), as asked
        default:
            Output.write(Inspector.text(inspection))
        }
        if !inspection.problems.isEmpty { throw ExitCode(1) }
    }
}
