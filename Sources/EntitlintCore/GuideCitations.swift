/// The rules cite the project's explanation of Apple's system, `Rules/keychain-access-groups.md`,
/// as "keychain-access-groups.md section N" (or "sections N and M"). Rule texts keep that plain
/// form, which reads the same in a terminal, in SARIF's plain-text help and in source comments;
/// pages rendered as Markdown turn each cited section number into a link to its heading.
public enum GuideCitations {
    /// The page's file name, as rule texts cite it.
    public static let page = "keychain-access-groups.md"

    /// Each section number the page has and the GitHub anchor of its heading. A test checks
    /// this against the page's headings, so a renamed heading cannot leave dead links.
    public static let anchors: [String: String] = [
        "1": "1-the-access-group-list",
        "2": "2-app-id-prefixes-and-build-variables",
        "2.1": "21-build-settings-as-xcode-evaluates-them",
        "3": "3-provisioning-profiles",
        "3.1": "31-how-a-profile-allows-entitlements",
        "4": "4-the-default-group-and-its-drift",
        "5": "5-property-lists-as-apple-reads-them",
        "6": "6-what-real-files-look-like",
        "7": "7-entitlements-inside-built-apps",
        "8": "8-keychain-groups-in-code",
        "9": "9-watch-apps-app-groups-in-the-keychain-list-and-macs-signed-to-run-locally",
    ]

    /// The section numbers a text cites, in order (with repeats), for checking that each exists.
    public static func citedSections(in text: String) -> [String] {
        text.matches(of: citation).flatMap { numbers($0.output.numbers) }
    }

    /// `text` with every citation's section numbers linked to `pageURL#anchor`: the page name
    /// itself stays plain, so the sentence reads as before. An unknown section number stays
    /// unlinked (a test reports it).
    public static func linked(_ text: String, pageURL: String) -> String {
        text.replacing(citation) { match in
            let list = match.output.numbers.replacing(sectionNumber) { n in
                anchors[String(n.output)].map { "[\(n.output)](\(pageURL)#\($0))" } ?? String(n.output)
            }
            return "\(page) \(match.output.word) \(list)"
        }
    }

    /// "PAGE section N" or "PAGE sections N, M and K", N being digits with at most one ".digits".
    nonisolated(unsafe) private static let citation = try! Regex(
        #"keychain-access-groups\.md (?<word>sections?) (?<numbers>\d+(?:\.\d+)?(?:(?:, | and )\d+(?:\.\d+)?)*)"#,
        as: (Substring, word: Substring, numbers: Substring).self)
    nonisolated(unsafe) private static let sectionNumber = try! Regex(#"\d+(?:\.\d+)?"#, as: Substring.self)

    private static func numbers(_ list: Substring) -> [String] {
        list.matches(of: sectionNumber).map { String($0.output) }
    }
}
