public import EntitlintCore
public import EntitlintWorkspace
import XcodeProject

extension FuzzCheck {
    /// `XcodeDiscoverer` on `path` over exactly `files` (an exclusive `VirtualFiles`: nothing
    /// from the disk), from `/fuzz`; then what the rules read of each unit, and every finding.
    public static func discover(_ path: String, files: [String: [UInt8]]) {
        var options = LintOptions()
        options.paths = [path]
        options.parallel = false
        options.virtualFiles = VirtualFiles(files: files, exclusive: true)
        let discovery = XcodeDiscoverer().discover(DiscoveryRequest(files: [], options: options, cwd: "/fuzz"))
        for unit in discovery.units {
            walk(unit.document.root)
            sink &+= unit.name.utf8.count &+ unit.variables.count &+ (unit.bundleID?.value.utf8.count ?? 0)
                &+ (unit.teamID?.value.utf8.count ?? 0) &+ (unit.entitlementsPath?.utf8.count ?? 0)
        }
        for finding in discovery.findings { self.finding(finding) }
        sink &+= discovery.files.count &+ discovery.claimed.count
    }
}
