import ArgumentParser
import EntitlintKit
import Artifacts
import EntitlintCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PropertyList

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
            Output.write(String(decoding: data, as: UTF8.self) + "\n", style: .json)
        case "plist":
            Output.writeBytes(Self.printable(inspection.plist), style: .markup)
        default:
            Output.write(Inspector.text(inspection))
        }
        if !inspection.problems.isEmpty { throw ExitCode(1) }
    }

    /// The plist bytes as they are (UTF-16, binary plists, a profile's signed content), as
    /// asked; unless a line of them would be read by a CI runner as a workflow command (a value
    /// or a comment holding `::add-mask::` after a line break, or `##[` anywhere). Those bytes
    /// cannot be changed where they stand (a binary plist has offsets, a comment or CDATA
    /// section takes no reference), so the plist is printed as Entitlint writes it instead
    /// (`PlistXMLWriter`: the same values, the command's characters as character references),
    /// and a note on standard error says so. (Bytes that do not parse are guarded where they
    /// stand by `Output.writeBytes`: no command beats exact bytes.)
    static func printable(_ plist: [UInt8]) -> [UInt8] {
        guard OutputText.carriesCommand(plist), let document = try? PropertyListReader.parse(plist) else { return plist }
        Output.error("note: the plist holds text a CI log would read as a workflow command; printed as an XML plist of the same values, with those characters as references")
        return Array(PlistXMLWriter.document(document.root).utf8)
    }
}
