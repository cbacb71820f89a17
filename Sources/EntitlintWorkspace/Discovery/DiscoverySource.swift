import EntitlintCore

/// One kind of input that defines signing units (Xcode projects and their relatives, built
/// products, ...), plugged into a run through `LintOptions.discoverySources`. The engine asks the
/// registered sources, never a list of names of its own, which files are project files, which
/// inputs are whole products, and which generated projects a spec stands for; `Discovery.merge`
/// combines what they find.
public protocol DiscoverySource: Sendable {
    /// What the source reads, for notices and tests: "Xcode projects", "built products".
    var name: String { get }
    /// Files a folder walk collects for this source: they go to `discover`, never to the loose
    /// property list readers.
    var walkedFiles: FileRecognition { get }
    /// Files that are this source's project files wherever they come from: named on the command
    /// line they are not linted as loose property lists, changed (`--staged`, `--changed-since`)
    /// they start a run, and at a revision (`--against`) they are read as they were.
    var projectFiles: FileRecognition { get }
    /// Whether `path`, named on the command line, is a whole input of this source (a built
    /// product): it leaves the walk and the loose files and comes in `DiscoveryRequest.inputs`.
    /// Asked only for runs over the disk (not a revision's files).
    func takes(input path: String) -> Bool
    /// The generated projects (absolute `.xcodeproj` paths) that files this source reads stand
    /// for: the sources that read those projects leave them to this one (`DiscoveryRequest.superseded`).
    func supersededProjects(_ request: DiscoveryRequest) -> [String]
    /// The units, findings and notices of the request's files.
    func discover(_ request: DiscoveryRequest) -> Discovery
}

extension DiscoverySource {
    public func takes(input path: String) -> Bool { false }
    public func supersededProjects(_ request: DiscoveryRequest) -> [String] { [] }
}

/// The files a source recognises: exact base names (`project.pbxproj`, `BUILD`), compared as
/// written, and extensions (`xcconfig`), compared in any case. Lists, not sets: the lists are a
/// few entries, and a set of strings would make every run, even a one-file hook run, pay the
/// runtime's look-up of `String: Hashable` at its first use.
public struct FileRecognition: Sendable {
    public let names: [String]
    public let extensions: [String]
    private let extensionBytes: [[UInt8]]
    /// The last extension of each name that has one, as bytes: most paths of a walk are turned
    /// away by `InputFiles.hasExtension` without building their base name.
    private let nameExtensionBytes: [[UInt8]]
    /// The names without an extension, as bytes.
    private let dotless: [[UInt8]]
    /// Every name, as bytes.
    private let nameBytes: [[UInt8]]

    public init(names: [String] = [], extensions: [String] = []) {
        self.names = names
        self.extensions = extensions
        extensionBytes = extensions.map { Array($0.lowercased().utf8) }
        dotless = names.filter { !$0.contains(".") }.map { Array($0.utf8) }
        nameBytes = names.map { Array($0.utf8) }
        nameExtensionBytes = names.compactMap { n in n.lastIndex(of: ".").map { Array(n[n.index(after: $0)...].lowercased().utf8) } }
    }

    public static let none = FileRecognition()

    /// Whether it recognises no file at all.
    public var isEmpty: Bool { names.isEmpty && extensions.isEmpty }

    public func matches(_ path: String) -> Bool {
        if !extensionBytes.isEmpty, InputFiles.hasExtension(path, in: extensionBytes) { return true }
        if !dotless.isEmpty, InputFiles.hasBaseName(path, in: dotless) { return true }
        guard !nameExtensionBytes.isEmpty, InputFiles.hasExtension(path, in: nameExtensionBytes) else { return false }
        return InputFiles.hasBaseName(path, in: nameBytes)
    }
}

extension [any DiscoverySource] {
    /// Whether a folder walk collects `path` for one of the sources.
    public func walks(_ path: String) -> Bool { contains { $0.walkedFiles.matches(path) } }

    /// Whether `path` is a project file of one of the sources (`DiscoverySource.projectFiles`).
    public func isProjectFile(_ path: String) -> Bool { contains { $0.projectFiles.matches(path) } }

    /// Whether one of the sources takes `path` whole (a built product).
    public func takeInput(_ path: String) -> Bool { contains { $0.takes(input: path) } }
}

extension DiscoverySource {
    /// Whether the source reads projects (a walk collects files for it, or it has project files),
    /// rather than only the paths it takes whole (built products).
    public var readsProjects: Bool { !walkedFiles.isEmpty || !projectFiles.isEmpty }
}
