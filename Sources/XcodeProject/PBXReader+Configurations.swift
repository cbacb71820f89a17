import EntitlintCore
import PropertyList

// The build configurations of a project or target: their settings in file order and where
// their base `.xcconfig` is.
extension PBXReader {
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
}
