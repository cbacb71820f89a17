import EntitlintCore
public import EntitlintWorkspace

/// Built products as a discovery source: each product named on the command line (`handles`) is
/// taken whole, and every bundle in it becomes a complete unit (`Discovery.built`). A folder walk
/// collects nothing for it: products are linted when named.
extension ArtifactReader: DiscoverySource {
    public var name: String { "built products" }
    public var walkedFiles: FileRecognition { .none }
    public var projectFiles: FileRecognition { .none }

    public func takes(input path: String) -> Bool { handles(path) }

    public func discover(_ request: DiscoveryRequest) -> Discovery {
        var discovery = Discovery()
        for path in request.inputs {
            let r = read(path, shown: Paths.display(path, cwd: request.cwd), limits: request.reading.limits)
            discovery.built.units += r.units
            discovery.built.profiles += r.profiles
            discovery.built.findings += r.findings
            discovery.built.paths += r.paths
        }
        return discovery
    }
}
