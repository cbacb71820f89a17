#!/usr/bin/env python3
"""Writes a large, realistic Xcode project for the speed case of the benchmark.

    Scripts/make-xcode-project.py [--targets 500] [--configurations 3] OUT_DIR

OUT_DIR gets `Big.xcodeproj/project.pbxproj` (written the way Xcode writes it: sections, comments,
quoted values), `Config/Shared.xcconfig` (the team, the bundle ID prefix, a conditional setting, an
optional include) and one entitlements file per target; with `--swift-files N`, N Swift files spread over the targets'
sources build phases (about 100 lines each; one in 25 passes the shared keychain group, through a
constant of its target's `Constants.swift`). Every fifth target is an app extension
embedded in the app before it (with its host's ID first among its keychain groups); the apps share a
keychain group and an app group. Configurations are named Debug, Beta, Release, Config4, ...
Deterministic: the same arguments give the same bytes.
"""
import argparse
import os


def oid(kind, n):
    """A 24-hex-digit object ID, unique per kind and number."""
    return "B%03X%020X" % (kind, n)


CONSTANTS = """import Foundation

/// Identifiers shared by the targets of the family.
enum Constants {
    /// The keychain group the apps and their extensions share (the team's App ID prefix first).
    static let sharedGroup = "ABCDE12345.com.example.big.shared"
    static let service = "com.example.big.tokens"
}
"""


def swift_file(n):
    """About 100 lines of ordinary Swift; one file in 25 saves a token to the shared group."""
    lines = ["import Foundation", "", "/// Model %d of the generated project." % n, "struct Model%d: Codable, Equatable {" % n]
    for k in range(8):
        lines.append("    var field%d: String = \"value %d of model %d\"" % (k, k, n))
    lines += ["    var count = %d" % n, "    var enabled = true", "}", ""]
    lines += ["final class Service%d {" % n, "    private var cache: [String: Model%d] = [:]" % n, ""]
    for k in range(6):
        lines += ["    /// Looks up item %d, loading it when missing." % k,
                  "    func item%d(named name: String) -> Model%d? {" % (k, n),
                  "        if let hit = cache[name] { return hit }",
                  "        let model = Model%d(field0: \"\\(name)-%d\", count: name.count * %d)" % (n, k, k + 1),
                  "        cache[name] = model   // remember it",
                  "        return model.enabled ? model : nil",
                  "    }", ""]
    if n % 25 == 0:
        lines += ["    func saveToken(_ data: Data) -> OSStatus {",
                  "        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,",
                  "                                    kSecAttrService as String: Constants.service,",
                  "                                    kSecAttrAccessGroup as String: Constants.sharedGroup,",
                  "                                    kSecValueData as String: data]",
                  "        return SecItemAdd(query as CFDictionary, nil)",
                  "    }", ""]
    lines += ["    /* Statistics, kept for the debug screen. */",
              "    var summary: String {",
              "        cache.values.map { \"\\($0.field0): \\($0.count)\" }.sorted().joined(separator: \", \")",
              "    }", "}", ""]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=int, default=500)
    parser.add_argument("--configurations", type=int, default=3)
    parser.add_argument("--swift-files", type=int, default=0)
    parser.add_argument("out")
    args = parser.parse_args()
    if args.targets < 1 or args.configurations < 1:
        parser.error("--targets and --configurations must be at least 1")

    names = ["Debug", "Beta", "Release"] + ["Config%d" % i for i in range(4, args.configurations + 1)]
    configs = names[: args.configurations]
    os.makedirs(os.path.join(args.out, "Big.xcodeproj"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "Config"), exist_ok=True)

    with open(os.path.join(args.out, "Config", "Shared.xcconfig"), "w") as f:
        f.write("// Shared by every configuration of the project.\n"
                "DEVELOPMENT_TEAM = ABCDE12345\n"
                "CODE_SIGN_STYLE = Automatic\n"
                "BUNDLE_ID_PREFIX = com.example.big\n"
                "SDKROOT = iphoneos\n"
                "CODE_SIGN_IDENTITY[sdk=iphoneos*] = Apple Development\n"
                "#include? \"Local.xcconfig\"\n")

    targets = []
    for i in range(args.targets):
        name = "Target%04d" % i
        is_extension = i % 5 == 4
        host = targets[-1]["name"] if is_extension else None
        targets.append({"i": i, "name": name, "ext": is_extension, "host": host})
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        first = "$(AppIdentifierPrefix)$(BUNDLE_ID_PREFIX).%s" % host if is_extension else "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"
        with open(os.path.join(folder, name + ".entitlements"), "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
                    '<plist version="1.0">\n<dict>\n'
                    '\t<key>keychain-access-groups</key>\n\t<array>\n'
                    '\t\t<string>%s</string>\n'
                    '\t\t<string>$(AppIdentifierPrefix)com.example.big.shared</string>\n'
                    '\t</array>\n'
                    '\t<key>com.apple.security.application-groups</key>\n\t<array>\n'
                    '\t\t<string>group.com.example.big</string>\n'
                    '\t</array>\n</dict>\n</plist>\n' % first)

    # Swift sources: round-robin over the targets, plus one Constants.swift per target.
    sources = {t["name"]: [] for t in targets}
    if args.swift_files:
        for t in targets:
            sources[t["name"]].append("Constants.swift")
            with open(os.path.join(args.out, t["name"], "Constants.swift"), "w") as f:
                f.write(CONSTANTS)
        for n in range(args.swift_files):
            t = targets[n % len(targets)]
            name = "File%05d.swift" % n
            sources[t["name"]].append(name)
            with open(os.path.join(args.out, t["name"], name), "w") as f:
                f.write(swift_file(n))

    FILE, GROUP, PRODUCT, BUILDFILE, PHASE, TARGET, CONFIG, LIST, ROOT, SRC, SRCBUILD, SRCPHASE = range(1, 13)
    src_ids = {}
    for t in targets:
        for k, name in enumerate(sources[t["name"]]):
            src_ids[(t["name"], name)] = (t["i"] * 100000 + k)
    out = ["// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n\tobjects = {\n"]

    out.append("\n/* Begin PBXBuildFile section */\n")
    for t in targets:
        if t["ext"]:
            out.append("\t\t%s /* %s.appex in Embed Foundation Extensions */ = {isa = PBXBuildFile; fileRef = %s /* %s.appex */; };\n"
                       % (oid(BUILDFILE, t["i"]), t["name"], oid(PRODUCT, t["i"]), t["name"]))
    for (tname, name), k in src_ids.items():
        out.append("\t\t%s /* %s in Sources */ = {isa = PBXBuildFile; fileRef = %s /* %s */; };\n" % (oid(SRCBUILD, k), name, oid(SRC, k), name))
    out.append("/* End PBXBuildFile section */\n")

    out.append("\n/* Begin PBXCopyFilesBuildPhase section */\n")
    for t in targets:
        embedded = [u for u in targets if u["host"] == t["name"]]
        if embedded:
            out.append("\t\t%s /* Embed Foundation Extensions */ = {\n\t\t\tisa = PBXCopyFilesBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n"
                       "\t\t\tdstPath = \"\";\n\t\t\tdstSubfolderSpec = 13;\n\t\t\tfiles = (\n" % oid(PHASE, t["i"]))
            for u in embedded:
                out.append("\t\t\t\t%s /* %s.appex in Embed Foundation Extensions */,\n" % (oid(BUILDFILE, u["i"]), u["name"]))
            out.append("\t\t\t);\n\t\t\tname = \"Embed Foundation Extensions\";\n\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t};\n")
    out.append("/* End PBXCopyFilesBuildPhase section */\n")

    out.append("\n/* Begin PBXFileReference section */\n")
    out.append("\t\t%s /* Shared.xcconfig */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = Shared.xcconfig; sourceTree = \"<group>\"; };\n" % oid(FILE, 0))
    for t in targets:
        out.append("\t\t%s /* %s.entitlements */ = {isa = PBXFileReference; lastKnownFileType = text.plist.entitlements; path = %s.entitlements; sourceTree = \"<group>\"; };\n"
                   % (oid(FILE, t["i"] + 1), t["name"], t["name"]))
        ext = "appex" if t["ext"] else "app"
        kind = "\"wrapper.app-extension\"" if t["ext"] else "wrapper.application"
        out.append("\t\t%s /* %s.%s */ = {isa = PBXFileReference; explicitFileType = %s; includeInIndex = 0; path = %s.%s; sourceTree = BUILT_PRODUCTS_DIR; };\n"
                   % (oid(PRODUCT, t["i"]), t["name"], ext, kind, t["name"], ext))
    for (tname, name), k in src_ids.items():
        out.append("\t\t%s /* %s */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = %s; sourceTree = \"<group>\"; };\n" % (oid(SRC, k), name, name))
    out.append("/* End PBXFileReference section */\n")

    out.append("\n/* Begin PBXGroup section */\n")
    out.append("\t\t%s = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t%s /* Config */,\n" % (oid(GROUP, 0), oid(GROUP, 1)))
    for t in targets:
        out.append("\t\t\t\t%s /* %s */,\n" % (oid(GROUP, t["i"] + 2), t["name"]))
    out.append("\t\t\t);\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n")
    out.append("\t\t%s /* Config */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t%s /* Shared.xcconfig */,\n\t\t\t);\n"
               "\t\t\tpath = Config;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n" % (oid(GROUP, 1), oid(FILE, 0)))
    for t in targets:
        children = "".join("\t\t\t\t%s /* %s */,\n" % (oid(SRC, src_ids[(t["name"], n)]), n) for n in sources[t["name"]])
        out.append("\t\t%s /* %s */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t%s /* %s.entitlements */,\n%s\t\t\t);\n"
                   "\t\t\tpath = %s;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n" % (oid(GROUP, t["i"] + 2), t["name"], oid(FILE, t["i"] + 1), t["name"], children, t["name"]))
    out.append("/* End PBXGroup section */\n")

    if src_ids:
        out.append("\n/* Begin PBXSourcesBuildPhase section */\n")
    for t in targets:
        if not sources[t["name"]]:
            continue
        out.append("\t\t%s /* Sources */ = {\n\t\t\tisa = PBXSourcesBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n\t\t\tfiles = (\n" % oid(SRCPHASE, t["i"]))
        for n in sources[t["name"]]:
            out.append("\t\t\t\t%s /* %s in Sources */,\n" % (oid(SRCBUILD, src_ids[(t["name"], n)]), n))
        out.append("\t\t\t);\n\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t};\n")
    if src_ids:
        out.append("/* End PBXSourcesBuildPhase section */\n")

    out.append("\n/* Begin PBXNativeTarget section */\n")
    for t in targets:
        phases = "\t\t\t\t%s /* Sources */,\n" % oid(SRCPHASE, t["i"]) if sources[t["name"]] else ""
        phases += "\t\t\t\t%s /* Embed Foundation Extensions */,\n" % oid(PHASE, t["i"]) if any(u["host"] == t["name"] for u in targets) else ""
        ptype = "com.apple.product-type.app-extension" if t["ext"] else "com.apple.product-type.application"
        out.append("\t\t%s /* %s */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = %s /* Build configuration list for PBXNativeTarget \"%s\" */;\n"
                   "\t\t\tbuildPhases = (\n%s\t\t\t);\n\t\t\tbuildRules = (\n\t\t\t);\n\t\t\tdependencies = (\n\t\t\t);\n\t\t\tname = %s;\n"
                   "\t\t\tproductName = %s;\n\t\t\tproductReference = %s;\n\t\t\tproductType = \"%s\";\n\t\t};\n"
                   % (oid(TARGET, t["i"]), t["name"], oid(LIST, t["i"] + 1), t["name"], phases, t["name"], t["name"], oid(PRODUCT, t["i"]), ptype))
    out.append("/* End PBXNativeTarget section */\n")

    out.append("\n/* Begin PBXProject section */\n\t\t%s /* Project object */ = {\n\t\t\tisa = PBXProject;\n" % oid(ROOT, 0))
    out.append("\t\t\tbuildConfigurationList = %s /* Build configuration list for PBXProject \"Big\" */;\n" % oid(LIST, 0))
    out.append("\t\t\tmainGroup = %s;\n\t\t\tprojectDirPath = \"\";\n\t\t\tprojectRoot = \"\";\n\t\t\ttargets = (\n" % oid(GROUP, 0))
    for t in targets:
        out.append("\t\t\t\t%s /* %s */,\n" % (oid(TARGET, t["i"]), t["name"]))
    out.append("\t\t\t);\n\t\t};\n/* End PBXProject section */\n")

    out.append("\n/* Begin XCBuildConfiguration section */\n")
    for c, name in enumerate(configs):
        out.append("\t\t%s /* %s */ = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbaseConfigurationReference = %s /* Shared.xcconfig */;\n"
                   "\t\t\tbuildSettings = {\n\t\t\t\tALWAYS_SEARCH_USER_PATHS = NO;\n\t\t\t\tSWIFT_ACTIVE_COMPILATION_CONDITIONS = \"%s $(inherited)\";\n"
                   "\t\t\t};\n\t\t\tname = %s;\n\t\t};\n" % (oid(CONFIG, c), name, oid(FILE, 0), name.upper(), name))
    for t in targets:
        for c, name in enumerate(configs):
            bundle = "$(BUNDLE_ID_PREFIX).%s.%s" % (t["host"], t["name"]) if t["ext"] else "$(BUNDLE_ID_PREFIX).%s" % t["name"]
            out.append("\t\t%s /* %s */ = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n"
                       "\t\t\t\tCODE_SIGN_ENTITLEMENTS = %s/%s.entitlements;\n\t\t\t\tCURRENT_PROJECT_VERSION = 1;\n\t\t\t\tGENERATE_INFOPLIST_FILE = YES;\n"
                       "\t\t\t\tMARKETING_VERSION = 1.0;\n\t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = \"%s\";\n\t\t\t\tPRODUCT_NAME = \"$(TARGET_NAME)\";\n"
                       "\t\t\t\tSWIFT_VERSION = 5.0;\n\t\t\t};\n\t\t\tname = %s;\n\t\t};\n"
                       % (oid(CONFIG, (t["i"] + 1) * 100 + c), name, t["name"], t["name"], bundle, name))
    out.append("/* End XCBuildConfiguration section */\n")

    out.append("\n/* Begin XCConfigurationList section */\n")
    lists = [(oid(LIST, 0), "PBXProject \"Big\"", [oid(CONFIG, c) for c in range(len(configs))])]
    for t in targets:
        lists.append((oid(LIST, t["i"] + 1), "PBXNativeTarget \"%s\"" % t["name"], [oid(CONFIG, (t["i"] + 1) * 100 + c) for c in range(len(configs))]))
    for lid, owner, ids in lists:
        out.append("\t\t%s /* Build configuration list for %s */ = {\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n" % (lid, owner))
        for cid, name in zip(ids, configs):
            out.append("\t\t\t\t%s /* %s */,\n" % (cid, name))
        out.append("\t\t\t);\n\t\t\tdefaultConfigurationIsVisible = 0;\n\t\t\tdefaultConfigurationName = %s;\n\t\t};\n" % configs[-1])
    out.append("/* End XCConfigurationList section */\n")
    out.append("\t};\n\trootObject = %s /* Project object */;\n}\n" % oid(ROOT, 0))

    with open(os.path.join(args.out, "Big.xcodeproj", "project.pbxproj"), "w") as f:
        f.write("".join(out))


if __name__ == "__main__":
    main()
