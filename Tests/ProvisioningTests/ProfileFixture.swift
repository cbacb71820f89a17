/// XML property lists shaped like provisioning profiles, with knobs for the fields that decide
/// the kind. Written for these tests (fake team `ABCDE12345`).
struct ProfileFixture {
    var name = "Entitlint Test Profile"
    var uuid = "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"
    var platforms = ["iOS"]
    var teamID = "ABCDE12345"
    var prefix = "PFX1234567"
    /// nil leaves out `ProvisionedDevices`.
    var devices: [String]? = ["00008030-001A2B3C4D5E6F70", "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"]
    var provisionsAllDevices: Bool?
    /// nil leaves out `get-task-allow`.
    var getTaskAllow: Bool? = true
    var applicationIdentifierKey = "application-identifier"
    /// Extra top-level `<key>...</key><value/>` text, inserted before `Entitlements`.
    var extraTopLevel = ""

    var xml: String {
        var s = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>AppIDName</key>
        \t<string>Entitlint Wildcard</string>
        \t<key>ApplicationIdentifierPrefix</key>
        \t<array>
        \t<string>\(prefix)</string>
        \t</array>
        \t<key>CreationDate</key>
        \t<date>2024-03-01T12:34:56Z</date>
        \t<key>Platform</key>
        \t<array>

        """
        for p in platforms { s += "\t\t<string>\(p)</string>\n" }
        s += """
        \t</array>
        \t<key>IsXcodeManaged</key>
        \t<false/>
        \t<key>DeveloperCertificates</key>
        \t<array>
        \t\t<data>MIIBfakecertificate==</data>
        \t</array>
        \(extraTopLevel)
        \t<key>Entitlements</key>
        \t<dict>
        \t\t<key>keychain-access-groups</key>
        \t\t<array>
        \t\t\t<string>\(prefix).*</string>
        \t\t\t<string>com.apple.token</string>
        \t\t</array>

        """
        if let getTaskAllow { s += "\t\t<key>get-task-allow</key>\n\t\t<\(getTaskAllow)/>\n" }
        s += """
        \t\t<key>\(applicationIdentifierKey)</key>
        \t\t<string>\(prefix).com.example.*</string>
        \t\t<key>com.apple.developer.team-identifier</key>
        \t\t<string>\(teamID)</string>
        \t</dict>
        \t<key>ExpirationDate</key>
        \t<date>2025-03-01T12:34:56Z</date>
        \t<key>Name</key>
        \t<string>\(name)</string>

        """
        if let devices {
            s += "\t<key>ProvisionedDevices</key>\n\t<array>\n"
            for d in devices { s += "\t\t<string>\(d)</string>\n" }
            s += "\t</array>\n"
        }
        if let provisionsAllDevices { s += "\t<key>ProvisionsAllDevices</key>\n\t<\(provisionsAllDevices)/>\n" }
        s += """
        \t<key>TeamIdentifier</key>
        \t<array>
        \t\t<string>\(teamID)</string>
        \t</array>
        \t<key>TeamName</key>
        \t<string>Entitlint Tests</string>
        \t<key>TimeToLive</key>
        \t<integer>365</integer>
        \t<key>UUID</key>
        \t<string>\(uuid)</string>
        \t<key>Version</key>
        \t<integer>1</integer>
        </dict>
        </plist>

        """
        return s
    }

    var bytes: [UInt8] { Array(xml.utf8) }

    /// 1-based line of the first line equal to `text` after the line containing `marker`.
    static func line(of text: String, after marker: String, in xml: String) -> Int? {
        let lines = xml.split(separator: "\n", omittingEmptySubsequences: false)
        guard let m = lines.firstIndex(where: { $0.contains(marker) }) else { return nil }
        return lines[(m + 1)...].firstIndex(where: { $0 == text[...] }).map { $0 + 1 }
    }
}
