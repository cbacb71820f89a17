import EntitlintCore
import PropertyList

// What a target's build phases and package dependencies list: its source files, the products of
// other targets it links or embeds, its Swift package products, and the folders that may be packages.
extension PBXReader {
    /// What a target's build phases give: the targets whose products its copy-files phases embed,
    /// and what it compiles (sources phases) and links (frameworks and copy-files phases).
    mutating func buildPhases(_ dict: PlistDictionary, target id: String, name targetName: String,
                              productOwner: [String: String], directory: String) -> (embeds: [String], code: TargetCode, notForCatalyst: [String]) {
        var embeds: [String] = []
        var notForCatalyst: [String] = []
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
                    if Self.excludesMacCatalyst(buildFile) { notForCatalyst.append(owner) }
                }
            }
            linkedProducts(phase, owners: productOwner, target: id, into: &code)
        }
        return (embeds, code, notForCatalyst)
    }

    /// Whether a build file's platform filters leave it out of Mac Catalyst builds: Xcode writes
    /// `platformFilter = ios;` (iOS only) or `platformFilters = (ios, xros, );`, where Catalyst is
    /// `maccatalyst`. No filter: every platform.
    static func excludesMacCatalyst(_ buildFile: PlistDictionary) -> Bool {
        var filters: [String] = []
        if let one = buildFile["platformFilter"]?.string { filters.append(one) }
        for f in buildFile["platformFilters"]?.array ?? [] { if let s = f.string { filters.append(s) } }
        return !filters.isEmpty && !filters.contains("maccatalyst")
    }

    /// The target's file-system synchronised folders, added to `code`, and the files of them it
    /// excludes (`membershipExceptions`), usable from the current folder.
    mutating func synchronizedFolders(_ dict: PlistDictionary, target id: String, name targetName: String,
                                      directory: String, into code: inout TargetCode) -> [String] {
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
        return excluded
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
        var listed = Set<PackageProductReference>()
        for ref in (target["packageProductDependencies"]?.array ?? []).prefix(Self.maxPackageProducts) {
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
            if listed.insert(product).inserted { out.append(product) }
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

    /// The folders of every file-system synchronised root group of the project (Xcode 16),
    /// whether a target compiles them or not, at most `maxPackageProducts`.
    mutating func synchronizedRoots(directory: String) -> [String] {
        var out: [String] = []
        for entry in objects.entries where out.count < Self.maxPackageProducts {
            guard let dict = entry.value.dict, dict["isa"]?.string == "PBXFileSystemSynchronizedRootGroup",
                  case .success(let folder) = path(of: entry.key, directory: directory) else { continue }
            out.append(folder)
        }
        return out
    }
}
