public import EntitlintCore
public import PropertyList

/// What a source is given: the run's files, its own inputs, and what it may read. Only what the
/// sources read, not the run's options: a source cannot depend on a rule setting, a reporter's
/// limit or the baseline, so it is tested with these few fields alone.
public struct DiscoveryRequest: Sendable {
    /// The files the run collected: entitlements and profiles as given or walked, and the files the
    /// folder walks found for any source (`DiscoverySource.walkedFiles`).
    public var files: [String]
    /// The command-line paths this source takes whole (`DiscoverySource.takes(input:)`).
    public var inputs: [String]
    /// Absolute paths of generated projects another source reads from their specs: not read again.
    public var superseded: Set<String>
    /// The paths named on the command line, as given (`-`, standard input, names no file): a source
    /// reads a named project whole, and searches above a named file for the projects that use it.
    public var paths: [String]
    /// Where files come from and how much of them is read (`DiscoveryFiles`).
    public var reading: DiscoveryFiles
    /// The configuration's `variables:`: values of build settings no project file defines.
    public var variables: [String: String]
    /// Whether the configuration's `exclude:` leaves out a path (as found, relative to `cwd` or absolute).
    public var isExcluded: @Sendable (String) -> Bool
    public var cwd: String

    public init(files: [String], inputs: [String] = [], superseded: Set<String> = [], paths: [String], reading: DiscoveryFiles,
                variables: [String: String] = [:], isExcluded: @escaping @Sendable (String) -> Bool = { _ in false }, cwd: String) {
        self.files = files
        self.inputs = inputs
        self.superseded = superseded
        self.paths = paths
        self.reading = reading
        self.variables = variables
        self.isExcluded = isExcluded
        self.cwd = cwd
    }

    /// The request of a run with `options`: its paths, configuration (variables, excludes, the
    /// folder that bounds what projects read) and read limits, and its files (virtual or disk).
    public init(files: [String], options: LintOptions, cwd: String) {
        let configuration = options.configuration
        self.init(files: files, paths: options.paths,
                  reading: DiscoveryFiles(virtualFiles: options.virtualFiles, limits: options.limits,
                                          configurationFolder: configuration?.path.map(Paths.directoryName)),
                  variables: configuration?.variables ?? [:],
                  isExcluded: { configuration?.excludes($0, cwd: cwd) ?? false }, cwd: cwd)
    }

    /// What the projects of the run may read (`ProjectRoot`): the roots of its paths and of its
    /// configuration's folder. Computed when asked (it looks for git work trees), not per request.
    public func projectRoot() -> ProjectRoot {
        ProjectRoot(inputs: paths, configurationFolder: reading.configurationFolder, cwd: cwd)
    }
}

/// Where a source's files come from: the run's virtual files when they hold a path (`--staged`:
/// the index over the work tree; `--against`: a revision's tree, exclusively), else the disk;
/// each file at most `limits.maxBytes`, property lists within `limits`.
public struct DiscoveryFiles: Sendable {
    public var virtualFiles: VirtualFiles?
    public var limits: PlistLimits
    /// The folder of the configuration in use: part of the project root.
    public var configurationFolder: String?

    public init(virtualFiles: VirtualFiles? = nil, limits: PlistLimits = .default, configurationFolder: String? = nil) {
        self.virtualFiles = virtualFiles
        self.limits = limits
        self.configurationFolder = configurationFolder
    }

    /// What is at `path`: the virtual files first, else the disk.
    public func kind(_ path: String) -> Paths.Kind {
        virtualFiles?.kind(path) ?? Paths.kind(path)
    }

    /// `Paths.walk`, through the virtual files when there are some.
    public func walk(_ root: String, followsLink: (String) -> Bool = { _ in true }, accept: (String) -> Bool) -> [String] {
        guard let virtualFiles else { return Paths.walk(root, followsLink: followsLink, accept: accept) }
        return virtualFiles.walk(root, followsLink: followsLink, accept: accept)
    }
}
