# Bounded pairing and budgets (sourced by Scripts/hostile-inputs.sh, in its own empty folder):
# a 2 MB build setting of one grapheme cluster in several configurations (project.pbxproj and
# xcconfig), 10,000 units against 10,000 lock entries of one bundle ID, 1,000 units against
# 5,000 profiles, 2,000 local Swift packages, and `init` over 10,000 files of one name.
# shellcheck shell=bash

cat >gen.py <<'PY'
import os, sys

def oid(n):
    return "F0%022X" % n

def pbxproj(targets, project_configs=("Debug", "Release"), extra_objects="", packages=()):
    """targets: [(name, [(config, {setting: value}, base_xcconfig_or_None)])]; packages: local
    package folders whose product (named as the folder) the first target links."""
    n = [100]
    def fresh():
        n[0] += 1
        return oid(n[0])
    objs = []
    def q(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    main = fresh()
    children = []
    refs = {}
    def ref(path):
        if path not in refs:
            refs[path] = fresh()
            children.append(refs[path])
            objs.append("\t\t%s = {isa = PBXFileReference; path = %s; sourceTree = \"<group>\"; };\n" % (refs[path], q(path)))
        return refs[path]
    def conf_list(configs):
        ids = []
        for name, settings, base in configs:
            c = fresh()
            ids.append(c)
            body = "\t\t%s = {\n\t\t\tisa = XCBuildConfiguration;\n" % c
            if base:
                body += "\t\t\tbaseConfigurationReference = %s;\n" % ref(base)
            body += "\t\t\tbuildSettings = {\n"
            for k, v in settings.items():
                body += "\t\t\t\t%s = %s;\n" % (k, q(v))
            body += "\t\t\t};\n\t\t\tname = %s;\n\t\t};\n" % q(name)
            objs.append(body)
        l = fresh()
        objs.append("\t\t%s = {\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n%s\t\t\t);\n\t\t\tdefaultConfigurationName = Release;\n\t\t};\n"
                    % (l, "".join("\t\t\t\t%s,\n" % i for i in ids)))
        return l
    package_entry = ""
    if packages:
        deps = []
        for folder in packages:
            r, d = fresh(), fresh()
            objs.append("\t\t%s = {isa = XCLocalSwiftPackageReference; relativePath = %s; };\n" % (r, q(folder)))
            objs.append("\t\t%s = {isa = XCSwiftPackageProductDependency; package = %s; productName = %s; };\n" % (d, r, q(os.path.basename(folder))))
            deps.append(d)
        package_entry = "\t\t\tpackageProductDependencies = (\n%s\t\t\t);\n" % "".join("\t\t\t\t%s,\n" % d for d in deps)
    tids = []
    for i, (name, configs) in enumerate(targets):
        t, p = fresh(), fresh()
        tids.append(t)
        objs.append("\t\t%s = {isa = PBXFileReference; explicitFileType = wrapper.application; path = %s; sourceTree = BUILT_PRODUCTS_DIR; };\n" % (p, q(name + ".app")))
        l = conf_list(configs)
        objs.append("\t\t%s = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = %s;\n\t\t\tbuildPhases = (\n\t\t\t);\n%s\t\t\tdependencies = (\n\t\t\t);\n\t\t\tname = %s;\n\t\t\tproductName = %s;\n\t\t\tproductReference = %s;\n\t\t\tproductType = \"com.apple.product-type.application\";\n\t\t};\n"
                    % (t, l, package_entry if i == 0 else "", q(name), q(name), p))
    pl = conf_list([(c, {"SDKROOT": "iphoneos"}, None) for c in project_configs])
    root = fresh()
    objs.append("\t\t%s = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n%s\t\t\t);\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"
                % (main, "".join("\t\t\t\t%s,\n" % c for c in children)))
    objs.append("\t\t%s = {\n\t\t\tisa = PBXProject;\n\t\t\tbuildConfigurationList = %s;\n\t\t\tmainGroup = %s;\n\t\t\tprojectDirPath = \"\";\n\t\t\ttargets = (\n%s\t\t\t);\n\t\t};\n"
                % (root, pl, main, "".join("\t\t\t\t%s,\n" % t for t in tids)))
    return "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n\tobjects = {\n\n" + "".join(objs) + extra_objects \
        + "\t};\n\trootObject = %s;\n}\n" % root

def write(path, text, mode="w"):
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, mode, encoding="utf-8") as f:
        f.write(text)

def entitlements(groups, app_id=None):
    body = "".join("\t\t<string>%s</string>\n" % g for g in groups)
    extra = "\t<key>application-identifier</key>\n\t<string>%s</string>\n" % app_id if app_id else ""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n%s\t<key>keychain-access-groups</key>\n\t<array>\n%s\t</array>\n</dict>\n</plist>\n'
            % (extra, body))

def profile(app_id, name, uuid):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>Name</key><string>%s</string>\n\t<key>UUID</key><string>%s</string>\n'
            '\t<key>TeamIdentifier</key><array><string>ABCDE12345</string></array>\n\t<key>ExpirationDate</key><date>2099-01-01T00:00:00Z</date>\n'
            '\t<key>Entitlements</key><dict><key>application-identifier</key><string>%s</string>'
            '<key>keychain-access-groups</key><array><string>ABCDE12345.*</string></array></dict>\n</dict>\n</plist>\n' % (name, uuid, app_id))

case = sys.argv[1]
if case == "grapheme-pbxproj":
    # One grapheme cluster of 2 MB: "e" and a million combining acute accents.
    big = "e" + "\u0301" * 1_000_000
    configs = [("Config%d" % i, {"PRODUCT_BUNDLE_IDENTIFIER": big, "DEVELOPMENT_TEAM": "ABCDE12345",
                                 "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"}, None) for i in range(8)]
    write("Big.xcodeproj/project.pbxproj", pbxproj([("App", configs)], project_configs=[c[0] for c in configs]))
    write("App/App.entitlements", entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)*"]))
elif case == "grapheme-xcconfig":
    big = "e" + "\u0301" * 1_000_000
    write("Config/Shared.xcconfig", "PRODUCT_BUNDLE_IDENTIFIER = %s\nDEVELOPMENT_TEAM = ABCDE12345\nCODE_SIGN_ENTITLEMENTS = App/App.entitlements\n" % big)
    configs = [("Config%d" % i, {}, "Config/Shared.xcconfig") for i in range(8)]
    write("Big.xcodeproj/project.pbxproj", pbxproj([("App", configs)], project_configs=[c[0] for c in configs]))
    write("App/App.entitlements", entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "$(AppIdentifierPrefix)*"]))
elif case == "lock":
    # 10,000 files (units) and a lock of 10,000 other names, every one of the same bundle ID.
    units = {}
    for i in range(10_000):
        write("units/u%05d/App.entitlements" % i, entitlements(["ABCDE12345.com.example.App"], app_id="ABCDE12345.com.example.App"))
    import json
    for i in range(10_000):
        units["Old%05d (Release)" % i] = {"bundle-id": "com.example.App", "default-access-group": "ABCDE12345.com.example.Old",
                                          "access-groups": ["ABCDE12345.com.example.Old"], "entitlements": "units/u%05d/App.entitlements" % (9_999 - i)}
    write("entitlint.lock", json.dumps({"version": 1, "units": units}, indent=1))
elif case == "profiles":
    # 1,000 units of distinct App IDs and 5,000 profiles of distinct wildcard and exact App IDs.
    for i in range(1_000):
        write("units/App%04d.entitlements" % i, entitlements(["ABCDE12345.com.example.app%d" % i], app_id="ABCDE12345.com.example.app%d.widget" % i))
    for i in range(5_000):
        app_id = "ABCDE12345.com.example.app%d.*" % i if i % 2 else "ABCDE12345.com.example.app%d" % i
        write("profiles/P%04d.mobileprovision" % i, profile(app_id, "P%d" % i, "00000000-0000-0000-0000-%012d" % i))
elif case == "packages":
    # 2,000 local packages: one app links 1,000 (the most a target's products are read), each of
    # which depends on one more (the run reads at most 1,000 manifests: a notice says so).
    folders = []
    for i in range(2_000):
        folder = "Packages/P%04d" % i
        if i < 1_000:
            folders.append(folder)
            dep = '.package(path: "../P%04d")' % (i + 1_000)
            target_dep = '.product(name: "P%04d", package: "P%04d")' % (i + 1_000, i + 1_000)
        else:
            dep = target_dep = ""
        write(folder + "/Package.swift", 'import PackageDescription\nlet package = Package(name: "P%04d", products: [.library(name: "P%04d", targets: ["P%04d"])], dependencies: [%s], targets: [.target(name: "P%04d", dependencies: [%s])])\n'
              % (i, i, i, dep, i, target_dep))
        write(folder + "/Sources/P%04d/F.swift" % i, "let x = 1\n")
    configs = [(c, {"PRODUCT_BUNDLE_IDENTIFIER": "com.example.App", "DEVELOPMENT_TEAM": "ABCDE12345",
                    "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"}, None) for c in ("Debug", "Release")]
    write("Big.xcodeproj/project.pbxproj", pbxproj([("App", configs)], packages=folders))
    write("App/App.entitlements", entitlements(["$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"]))
elif case == "init":
    # 10,000 entitlements files of one folder and file name: one unit name, numbered.
    for i in range(10_000):
        write("d%05d/App/App.entitlements" % i, entitlements(["ABCDE12345.com.example.App"]))
PY

for c in grapheme-pbxproj grapheme-xcconfig lock profiles packages init; do
    mkdir -p "$c"
    (cd "$c" && python3 ../gen.py "$c")
done

measure "2 MB one-grapheme build setting, 8 configurations (pbxproj)" -- "$bin" lint grapheme-pbxproj
expect_output "2 MB one-grapheme build setting (pbxproj)" "error|warning"
measure "2 MB one-grapheme build setting, 8 configurations (xcconfig)" -- "$bin" lint grapheme-xcconfig
expect_output "2 MB one-grapheme build setting (xcconfig)" "error|warning"
measure "10,000 units x 10,000 lock entries of one bundle ID" -- "$bin" lint --lock lock/entitlint.lock lock/units
measure "1,000 units x 5,000 profiles" -- "$bin" lint profiles
measure "2,000 local Swift packages linked by one app" -- "$bin" lint --format json packages
expect_output "2,000 local Swift packages" "more than 1000 packages in the run"
measure "init over 10,000 files of one name" -- "$bin" init init
