import EntitlintCore
public import PropertyList

/// An Xcode project as Entitlint needs it: from the object graph of `project.pbxproj` (an old-style
/// property list: `objects` maps 24-hex-digit IDs to dicts with an `isa`, `rootObject` names the
/// `PBXProject`), every `PBXNativeTarget` with its product type and build configurations
/// (`XCConfigurationList` -> `XCBuildConfiguration`: `name`, `buildSettings`, and a base `.xcconfig`
/// through `baseConfigurationReference`, a `PBXFileReference`, or Xcode 16's
/// `baseConfigurationReferenceAnchor` + `baseConfigurationReferenceRelativePath`), which targets
/// embed which (`PBXCopyFilesBuildPhase` files whose `PBXBuildFile.fileRef` is another target's
/// `productReference`, else `PBXTargetDependency`), and the team and signing style kept in
/// `attributes.TargetAttributes`.
///
/// Nothing is trusted: a reference to an object that does not exist, an object of the wrong
/// `isa`, a group cycle, a file reference that cannot be located are problems naming the file and
/// line, and only the part that depends on them is dropped.
public struct PBXProject: Sendable {
    /// Every assignment of the project's and its targets' build settings, in every configuration.
    var allSettings: [SettingAssignment] {
        projectConfigurations.flatMap(\.settings) + targets.flatMap { $0.configurations.flatMap(\.settings) }
    }

    public struct BuildConfiguration: Sendable {
        public var name: String
        /// The `buildSettings` entries in file order.
        public var settings: [SettingAssignment]
        /// The base `.xcconfig`, usable from the current folder, and where the project names it.
        public var baseConfiguration: String?
        public var baseConfigurationLocation: SourceLocation
        /// A base configuration that cannot be located (a dangling reference, an unusual source tree).
        public var baseConfigurationProblem: String?
        public var location: SourceLocation
    }

    public struct Target: Sendable {
        public var id: String
        public var name: String
        public var productType: String?
        public var productName: String?
        public var configurations: [BuildConfiguration]
        public var defaultConfiguration: String?
        /// IDs of the targets whose products this one embeds (copy-files phases), then of the ones it depends on.
        public var embeds: [String]
        /// Of `embeds`, those embedded only in builds that are not Mac Catalyst (a platform filter).
        public var embedsNotForCatalyst: [String] = []
        public var dependsOn: [String]
        /// `TargetAttributes`: `DevelopmentTeam` and `ProvisioningStyle`, with where they are written.
        public var developmentTeam: (value: String, location: SourceLocation)?
        public var provisioningStyle: String?
        public var location: SourceLocation
        /// Files of the target's file-system synchronised folders that it excludes
        /// (`membershipExceptions`), usable from the current folder.
        public var excludedFiles: [String] = []
        /// What the target compiles, as the project lists it (UnitSourceFiles.swift).
        var code = TargetCode()
    }

    /// `App.xcodeproj`, usable from the current folder.
    public var bundlePath: String
    /// `App.xcodeproj/project.pbxproj` as shown.
    public var file: String
    /// `App`
    public var name: String
    /// The project folder (`SRCROOT`), usable from the current folder.
    public var directory: String
    public var projectConfigurations: [BuildConfiguration]
    public var defaultConfiguration: String?
    public var targets: [Target]
    public var problems: [ProjectProblem]
    /// Folder references that may be local Swift packages (`PBXReader.packageFolders`), read
    /// only when a target links a product whose package the project does not name.
    var packageFolders: [String] = []
    /// The project's file-system synchronised folders (Xcode 16), read under the same condition:
    /// a local package inside one may be linked by product alone (`SourceCatalog.packageBelow`).
    var synchronizedRoots: [String] = []
}

extension PBXProject {
    /// The 1-based line of the first git conflict marker (`<<<<<<< `, `=======`, `>>>>>>> ` at the
    /// start of a line) in `bytes`, or nil. One pass over the bytes.
    static func conflictMarkerLine(_ bytes: [UInt8]) -> Int? {
        var line = 1
        var start = true
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if start, b == UInt8(ascii: "<") || b == UInt8(ascii: "=") || b == UInt8(ascii: ">"), i + 7 <= bytes.count,
               bytes[i..<(i + 7)].allSatisfy({ $0 == b }),
               i + 7 == bytes.count || bytes[i + 7] == UInt8(ascii: " ") || bytes[i + 7] == UInt8(ascii: "\n") || bytes[i + 7] == UInt8(ascii: "\r") {
                return line
            }
            start = b == UInt8(ascii: "\n")
            if start { line += 1 }
            i += 1
        }
        return nil
    }

    /// Reads `bundlePath/project.pbxproj`. Nil (with problems) when the file cannot be read at all.
    static func read(bundlePath: String, files: ProjectFiles, limits: PlistLimits) -> (PBXProject?, [ProjectProblem]) {
        let pbxproj = ProjectFiles.join(bundlePath, "project.pbxproj")
        let shown = files.shown(pbxproj)
        let bytes: [UInt8]
        switch files.read(pbxproj) {
        case .success(let b): bytes = b
        case .failure(let why):
            return (nil, [ProjectProblem(file: shown, location: .unknown, message: "cannot read the Xcode project: \(why)")])
        }
        let document: PlistDocument
        do {
            document = try OpenStepPlistReader.parse(bytes, limits: limits)
        } catch {
            if let line = conflictMarkerLine(bytes) {
                // One problem, one finding: the conflict, not the parse error it causes. The
                // entitlements files it would have named are linted as loose files.
                return (nil, [ProjectProblem(file: shown, location: SourceLocation(line: line, column: 1),
                                             message: "the Xcode project holds an unresolved merge conflict (a line starting with <<<<<<<, ======= or >>>>>>>): Xcode cannot open it, so no target of it can be built or checked; resolve the conflict and commit the project")])
            }
            return (nil, [ProjectProblem(file: shown, location: error.location, message: "cannot parse the Xcode project: \(RunLimits.explain(error.reason, error.limit))")])
        }
        var reader = PBXReader(document: document, file: shown, bundlePath: bundlePath)
        let project = reader.read()
        return (project, reader.problems)
    }
}

/// The walk over one project's object graph.
struct PBXReader {
    /// Swift package products of one target read at most (the rest are noted as not read).
    static let maxPackageProducts = 1_000
    let root: PlistNode
    let file: String
    let bundlePath: String
    var objects = PlistDictionary()
    var problems: [ProjectProblem] = []
    /// Child ID -> parent group ID, built on first use.
    var parents: [String: String]?
    /// Group ID -> its folder (`path(of:)`), for the files of sources phases.
    var groupFolders: [String: Result<String, ReadFailure>] = [:]

    init(document: PlistDocument, file: String, bundlePath: String) {
        root = document.root
        self.file = file
        self.bundlePath = bundlePath
    }

    mutating func problem(_ location: SourceLocation, _ message: String) {
        problems.append(ProjectProblem(file: file, location: location, message: message))
    }

    /// The object a reference names, checking it exists and (when given) its `isa`.
    /// `what` is built only for a problem; `expected` is a short list (a literal, not hashed).
    mutating func object(_ ref: PlistNode?, from what: @autoclosure () -> String, isa expected: [String]? = nil) -> (id: String, dict: PlistDictionary)? {
        guard let ref else { return nil }
        guard let id = ref.string else {
            problem(ref.location, "\(what()) is a \(ref.value.typeName), not an object ID")
            return nil
        }
        guard let dict = objects[id]?.dict else {
            problem(ref.location, "\(what()) refers to object \(OutputText.excerpt(id)), which does not exist (a dangling reference)")
            return nil
        }
        if let expected, let isa = dict["isa"]?.string, !expected.contains(isa) {
            problem(ref.location, "\(what()) refers to object \(OutputText.excerpt(id)), a \(OutputText.excerpt(isa)), not a \(Set(expected).sorted().joined(separator: " or "))")
            return nil
        }
        return (id, dict)
    }

    mutating func read() -> PBXProject? {
        guard let top = root.dict else {
            problem(root.location, "not an Xcode project: the root is a \(root.value.typeName), not a dictionary")
            return nil
        }
        guard let objectsNode = top["objects"], let objectsDict = objectsNode.dict else {
            problem(root.location, "not an Xcode project: no `objects` dictionary")
            return nil
        }
        objects = objectsDict
        guard let rootRef = top["rootObject"] else {
            problem(root.location, "not an Xcode project: no `rootObject`")
            return nil
        }
        guard let (_, project) = object(rootRef, from: "rootObject", isa: ["PBXProject"]) else { return nil }

        let bundleFolder = Paths.directoryName(bundlePath)
        var directory = bundleFolder
        if let dirPath = project["projectDirPath"]?.string, !dirPath.isEmpty {
            directory = ProjectFiles.normalize(ProjectFiles.join(bundleFolder, dirPath))
        }
        var name = Paths.baseName(bundlePath)
        if name.hasSuffix(".xcodeproj") { name = String(name.dropLast(".xcodeproj".count)) }

        let (projectConfigs, projectDefault) = configurationList(project["buildConfigurationList"], owner: "the project", directory: directory)

        var targets: [PBXProject.Target] = []
        let attributes = project["attributes"]?.dict?["TargetAttributes"]?.dict
        var productOwner: [String: String] = [:]
        var targetNodes: [(id: String, dict: PlistDictionary, location: SourceLocation)] = []
        // A target listed twice (or a million times) is read once.
        var listed = Set<String>()
        for ref in project["targets"]?.array ?? [] {
            if let id = ref.string, !listed.insert(id).inserted { continue }
            guard let (id, dict) = object(ref, from: "a target of the project",
                                          isa: ["PBXNativeTarget", "PBXAggregateTarget", "PBXLegacyTarget"]) else { continue }
            guard dict["isa"]?.string == "PBXNativeTarget" else { continue }
            targetNodes.append((id, dict, objects.entry(id)?.keyLocation ?? ref.location))
            if let product = dict["productReference"]?.string { productOwner[product] = id }
        }
        var members: [String: Set<String>] = [:]
        for (id, dict, _) in targetNodes {
            members[id] = Set((dict["fileSystemSynchronizedGroups"]?.array ?? []).prefix(1_000).compactMap(\.string))
        }
        let added = synchronizedAdditions(members: members, directory: directory)
        for (id, dict, location) in targetNodes {
            let targetName = dict["name"]?.string ?? id
            let (configs, defaultName) = configurationList(dict["buildConfigurationList"], owner: "target \(targetName)", directory: directory)
            let phases = buildPhases(dict, target: id, name: targetName, productOwner: productOwner, directory: directory)
            var code = phases.code
            var dependsOn: [String] = []
            for depRef in dict["dependencies"]?.array ?? [] {
                guard let (_, dep) = object(depRef, from: "a dependency of target \(targetName)", isa: ["PBXTargetDependency"]) else { continue }
                if let t = dep["target"]?.string, t != id { dependsOn.append(t) }
            }
            var team: (String, SourceLocation)?
            var style: String?
            if let attrs = attributes?[id]?.dict {
                if let t = attrs["DevelopmentTeam"], let s = t.string, !s.isEmpty { team = (s, t.location) }
                style = attrs["ProvisioningStyle"]?.string
            }
            let excluded = synchronizedFolders(dict, target: id, name: targetName, directory: directory, into: &code)
            targets.append(PBXProject.Target(id: id, name: targetName, productType: dict["productType"]?.string,
                                             productName: dict["productName"]?.string, configurations: configs,
                                             defaultConfiguration: defaultName, embeds: phases.embeds, dependsOn: dependsOn,
                                             developmentTeam: team, provisioningStyle: style, location: location,
                                             excludedFiles: excluded))
            targets[targets.count - 1].embedsNotForCatalyst = phases.notForCatalyst
            code.files += added[id] ?? []
            code.products = packageProducts(dict, directory: directory)
            if let count = dict["packageProductDependencies"]?.array?.count, count > Self.maxPackageProducts {
                code.unscanned.append("more than \(Self.maxPackageProducts) Swift package products (\(count)): the rest are not read")
            }
            targets[targets.count - 1].code = code
        }
        var read = PBXProject(bundlePath: bundlePath, file: file, name: name, directory: directory, projectConfigurations: projectConfigs,
                              defaultConfiguration: projectDefault, targets: targets, problems: problems)
        if targets.contains(where: { $0.code.products.contains { $0.package == .unnamed } }) {
            read.packageFolders = packageFolders(directory: directory)
            read.synchronizedRoots = synchronizedRoots(directory: directory)
        }
        return read
    }
}
