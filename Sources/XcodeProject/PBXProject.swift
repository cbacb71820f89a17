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
}

extension PBXProject {
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
            return (nil, [ProjectProblem(file: shown, location: error.location, message: "cannot parse the Xcode project: \(RunLimits.explain(error.reason, error.limit))")])
        }
        var reader = PBXReader(document: document, file: shown, bundlePath: bundlePath)
        let project = reader.read()
        return (project, reader.problems)
    }
}

/// The walk over one project's object graph.
struct PBXReader {
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
    mutating func object(_ ref: PlistNode?, from what: String, isa expected: Set<String>? = nil) -> (id: String, dict: PlistDictionary)? {
        guard let ref else { return nil }
        guard let id = ref.string else {
            problem(ref.location, "\(what) is a \(ref.value.typeName), not an object ID")
            return nil
        }
        guard let dict = objects[id]?.dict else {
            problem(ref.location, "\(what) refers to object \(OutputText.excerpt(id)), which does not exist (a dangling reference)")
            return nil
        }
        if let expected, let isa = dict["isa"]?.string, !expected.contains(isa) {
            problem(ref.location, "\(what) refers to object \(OutputText.excerpt(id)), a \(OutputText.excerpt(isa)), not a \(expected.sorted().joined(separator: " or "))")
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
            var embeds: [String] = []
            var code = TargetCode()
            for phaseRef in dict["buildPhases"]?.array ?? [] {
                guard let (_, phase) = object(phaseRef, from: "a build phase of target \(targetName)") else { continue }
                if phase["isa"]?.string == "PBXSourcesBuildPhase" {
                    sourceFiles(phase, directory: directory, into: &code)
                    continue
                }
                if phase["isa"]?.string == "PBXShellScriptBuildPhase", phase["name"]?.string?.hasPrefix("[CP]") == true { code.cocoaPods = true }
                if phase["isa"]?.string == "PBXFrameworksBuildPhase" {
                    linkedProducts(phase, owners: productOwner, target: id, into: &code)
                    continue
                }
                guard phase["isa"]?.string == "PBXCopyFilesBuildPhase" else { continue }
                for fileRef in phase["files"]?.array ?? [] {
                    guard let (_, buildFile) = object(fileRef, from: "a file of a copy-files phase of target \(targetName)", isa: ["PBXBuildFile"]) else { continue }
                    if let product = buildFile["fileRef"]?.string, let owner = productOwner[product], owner != id, !embeds.contains(owner) {
                        embeds.append(owner)
                    }
                }
                linkedProducts(phase, owners: productOwner, target: id, into: &code)
            }
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
            var excluded: [String] = []
            for groupRef in (dict["fileSystemSynchronizedGroups"]?.array ?? []).prefix(1_000) {
                guard let (groupID, group) = object(groupRef, from: "a synchronised folder of target \(targetName)",
                                                    isa: ["PBXFileSystemSynchronizedRootGroup"]),
                      case .success(let folder) = path(of: groupID, directory: directory) else { continue }
                code.folders.append(folder)
                for exceptionRef in (group["exceptions"]?.array ?? []).prefix(1_000) {
                    guard let id2 = exceptionRef.string, let set = objects[id2]?.dict,
                          set["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet", set["target"]?.string == id else { continue }
                    for name in (set["membershipExceptions"]?.array ?? []).prefix(100_000) {
                        if let name = name.string { excluded.append(ProjectFiles.normalize(ProjectFiles.join(folder, name))) }
                    }
                }
            }
            targets.append(PBXProject.Target(id: id, name: targetName, productType: dict["productType"]?.string,
                                             productName: dict["productName"]?.string, configurations: configs,
                                             defaultConfiguration: defaultName, embeds: embeds, dependsOn: dependsOn,
                                             developmentTeam: team, provisioningStyle: style, location: location,
                                             excludedFiles: excluded))
            code.files += added[id] ?? []
            code.products = packageProducts(dict, directory: directory)
            targets[targets.count - 1].code = code
        }
        var read = PBXProject(bundlePath: bundlePath, file: file, name: name, directory: directory, projectConfigurations: projectConfigs,
                              defaultConfiguration: projectDefault, targets: targets, problems: problems)
        if targets.contains(where: { $0.code.products.contains { $0.package == .unnamed } }) {
            read.packageFolders = packageFolders(directory: directory)
        }
        return read
    }

    /// The configurations of an `XCConfigurationList`.
    mutating func configurationList(_ ref: PlistNode?, owner: String, directory: String) -> ([PBXProject.BuildConfiguration], String?) {
        guard let ref else { return ([], nil) }
        guard let (_, list) = object(ref, from: "the buildConfigurationList of \(owner)", isa: ["XCConfigurationList"]) else { return ([], nil) }
        var out: [PBXProject.BuildConfiguration] = []
        var listed = Set<String>()
        for configRef in list["buildConfigurations"]?.array ?? [] {
            if let id = configRef.string, !listed.insert(id).inserted { continue }
            guard let (id, config) = object(configRef, from: "a build configuration of \(owner)", isa: ["XCBuildConfiguration"]) else { continue }
            let name = config["name"]?.string ?? id
            var settings: [SettingAssignment] = []
            if let dict = config["buildSettings"]?.dict {
                for entry in dict.entries {
                    guard let (settingName, conditions) = SettingAssignment.splitKey(entry.key) else {
                        problem(entry.keyLocation, "\"\(OutputText.excerpt(entry.key))\" in the build settings of \(owner) (\(name)) is not a build setting name")
                        continue
                    }
                    let value: String
                    switch entry.value.value {
                    case .string(let s): value = s
                    case .array(let items):
                        value = items.compactMap(\.string).map { $0.contains(" ") && !$0.hasPrefix("\"") ? "\"\($0)\"" : $0 }.joined(separator: " ")
                    default: continue
                    }
                    settings.append(SettingAssignment(name: settingName, conditions: conditions, value: value, file: file, location: entry.keyLocation))
                }
            }
            var base: String?
            var baseLocation = SourceLocation.unknown
            var baseProblem: String?
            if let baseRef = config.entry("baseConfigurationReference") {
                baseLocation = baseRef.keyLocation
                if let (fileID, _) = object(baseRef.value, from: "the baseConfigurationReference of \(owner) (\(name))",
                                            isa: ["PBXFileReference"]) {
                    switch path(of: fileID, directory: directory) {
                    case .success(let p): base = p
                    case .failure(let why):
                        baseProblem = why.reason
                        problem(baseRef.keyLocation, "the baseConfigurationReference of \(owner) (\(name)) cannot be located: \(why)")
                    }
                } else {
                    baseProblem = "a dangling reference"
                }
            } else if let anchor = config.entry("baseConfigurationReferenceAnchor"),
                      let relative = config["baseConfigurationReferenceRelativePath"]?.string {
                baseLocation = anchor.keyLocation
                if let (groupID, _) = object(anchor.value, from: "the baseConfigurationReferenceAnchor of \(owner) (\(name))") {
                    switch path(of: groupID, directory: directory) {
                    case .success(let p): base = ProjectFiles.normalize(ProjectFiles.join(p, relative))
                    case .failure(let why):
                        baseProblem = why.reason
                        problem(anchor.keyLocation, "the baseConfigurationReferenceAnchor of \(owner) (\(name)) cannot be located: \(why)")
                    }
                } else {
                    baseProblem = "a dangling reference"
                }
            }
            out.append(PBXProject.BuildConfiguration(name: name, settings: settings, baseConfiguration: base,
                                                     baseConfigurationLocation: baseLocation, baseConfigurationProblem: baseProblem,
                                                     location: objects.entry(id)?.keyLocation ?? configRef.location))
        }
        return (out, list["defaultConfigurationName"]?.string)
    }

    /// The code files of a sources build phase (`PBXBuildFile.fileRef` -> `PBXFileReference`),
    /// located through the group tree. A variant or version group is not code; a file relative to
    /// the build products or an SDK is not the project's. Nothing here is a problem of the
    /// project: it only makes what the target compiles less known.
    mutating func sourceFiles(_ phase: PlistDictionary, directory: String, into code: inout TargetCode) {
        for fileRef in (phase["files"]?.array ?? []).prefix(SourceCatalog.maxFiles) {
            guard let id = fileRef.string, let buildFile = objects[id]?.dict, let refID = buildFile["fileRef"]?.string,
                  let ref = objects[refID]?.dict, ref["isa"]?.string == "PBXFileReference" else { continue }
            let name = ref["path"]?.string ?? ref["name"]?.string ?? ""
            guard SourceCatalog.isCode(name) else { continue }
            switch sourcePath(refID, ref, directory: directory) {
            case .success(let p): code.files.append(p)
            case .failure(let why):
                if !why.reason.hasSuffix("which only exists during a build") { code.unlocatable.append(name) }
            }
        }
    }

    /// `path(of:)` for a file of a sources phase, its group's folder found once for all the
    /// files of the group (a project lists thousands of files in a few hundred groups).
    mutating func sourcePath(_ id: String, _ ref: PlistDictionary, directory: String) -> Result<String, ReadFailure> {
        let own = ref["path"]?.string ?? ""
        guard ref["sourceTree"]?.string ?? "<group>" == "<group>", let parent = parentMap()[id],
              !own.isEmpty, !own.contains("/"), own != ".", own != ".." else { return path(of: id, directory: directory) }
        let folder: Result<String, ReadFailure>
        if let known = groupFolders[parent] {
            folder = known
        } else {
            folder = path(of: parent, directory: directory)
            groupFolders[parent] = folder
        }
        return folder.map { ProjectFiles.join($0, own) }
    }

    /// The targets whose products a frameworks or copy-files phase names (`PBXBuildFile.fileRef`
    /// is their `productReference`): what the target links or embeds; which of them are code
    /// that runs in its process (frameworks and libraries) is decided by their product type.
    func linkedProducts(_ phase: PlistDictionary, owners: [String: String], target: String, into code: inout TargetCode) {
        var listed = Set(code.linkedTargets)
        for fileRef in (phase["files"]?.array ?? []).prefix(SourceCatalog.maxFiles) {
            guard let id = fileRef.string, let buildFile = objects[id]?.dict, let product = buildFile["fileRef"]?.string,
                  let owner = owners[product], owner != target, listed.insert(owner).inserted else { continue }
            code.linkedTargets.append(owner)
        }
    }

    /// The Swift package products a target links (`packageProductDependencies` ->
    /// `XCSwiftPackageProductDependency`), with their package: `XCLocalSwiftPackageReference`
    /// (`relativePath`, from the project folder) or `XCRemoteSwiftPackageReference`. Plugins
    /// (`plugin:Name`) run at build time and are not compiled into the target.
    mutating func packageProducts(_ target: PlistDictionary, directory: String) -> [PackageProductReference] {
        var out: [PackageProductReference] = []
        for ref in (target["packageProductDependencies"]?.array ?? []).prefix(1_000) {
            guard let id = ref.string, let dep = objects[id]?.dict, dep["isa"]?.string == "XCSwiftPackageProductDependency",
                  let name = dep["productName"]?.string, !name.hasPrefix("plugin:") else { continue }
            var package = PackageProductReference.Package.unnamed
            if let packageID = dep["package"]?.string, let p = objects[packageID]?.dict {
                if p["isa"]?.string == "XCLocalSwiftPackageReference", let rel = p["relativePath"]?.string {
                    package = .local(ProjectFiles.normalize(ProjectFiles.join(directory, rel)))
                } else {
                    let url = p["repositoryURL"]?.string ?? ""
                    package = .remote(url.isEmpty ? name : PackageManifest.lastComponent(url))
                }
            }
            let product = PackageProductReference(product: name, package: package)
            if !out.contains(product) { out.append(product) }
        }
        return out
    }

    /// Folders the project holds as file references that may be local Swift packages added by
    /// dragging them in (`lastKnownFileType` `folder` or `wrapper`, no extension): where a product
    /// whose package is not named may come from.
    mutating func packageFolders(directory: String) -> [String] {
        var out: [String] = []
        for entry in objects.entries {
            guard let dict = entry.value.dict, dict["isa"]?.string == "PBXFileReference",
                  let type = dict["lastKnownFileType"]?.string, type == "folder" || type == "wrapper",
                  let p = dict["path"]?.string, !Paths.baseName(p).contains("."),
                  case .success(let folder) = path(of: entry.key, directory: directory) else { continue }
            out.append(folder)
        }
        return out
    }

    /// Child -> parent, over every group kind.
    mutating func parentMap() -> [String: String] {
        if let parents { return parents }
        var map: [String: String] = [:]
        for entry in objects.entries {
            guard let dict = entry.value.dict, let isa = dict["isa"]?.string,
                  isa == "PBXGroup" || isa == "PBXVariantGroup" || isa == "XCVersionGroup" else { continue }
            for child in dict["children"]?.array ?? [] {
                if let id = child.string, map[id] == nil { map[id] = entry.key }
            }
        }
        parents = map
        return map
    }

    /// Where a file reference or group is, from the current folder, following `sourceTree`:
    /// `<group>` (the parent group's folder), `SOURCE_ROOT` (the project folder), `<absolute>`.
    ///
    /// The chain of parent groups is walked with a loop, not recursion (a project may nest
    /// groups 100,000 deep), and stops at a cycle or past `maxGroupDepth` levels; the
    /// components are joined once at the end, so the cost is linear in the depth.
    mutating func path(of id: String, directory: String) -> Result<String, ReadFailure> {
        var components: [String] = []
        var seen = Set<String>()
        var current = id
        while true {
            guard seen.insert(current).inserted else { return .failure(ReadFailure("the groups holding it form a cycle (a reference cycle)")) }
            guard seen.count <= Self.maxGroupDepth else {
                return .failure(ReadFailure("it is nested in more than \(Self.maxGroupDepth) groups"))
            }
            guard let dict = objects[current]?.dict else { return .failure(ReadFailure("object \(OutputText.excerpt(current)) does not exist")) }
            let own = dict["path"]?.string ?? ""
            let tree = dict["sourceTree"]?.string ?? "<group>"
            switch tree {
            case "<absolute>":
                return .success(Self.joined(own, components))
            case "SOURCE_ROOT":
                return .success(Self.joined(ProjectFiles.join(directory, own), components))
            case "<group>":
                components.append(own)
                guard let parent = parentMap()[current] else {
                    // The main group (or an orphan): relative to the project folder.
                    return .success(Self.joined(directory, components))
                }
                current = parent
            default:
                return .failure(ReadFailure("it is relative to \(OutputText.excerpt(tree)), which only exists during a build"))
            }
        }
    }

    /// Groups a file may be nested in: far more than any real project (a few dozen), few enough
    /// that the path they make stays short.
    static let maxGroupDepth = 1_000

    /// `base` joined with `innermostFirst` reversed, normalised once.
    static func joined(_ base: String, _ innermostFirst: [String]) -> String {
        var path = base
        for part in innermostFirst.reversed() { path = ProjectFiles.join(path, part) }
        return ProjectFiles.normalize(path)
    }
}
