# Hostile code for the keychain-group scanner and resolver (sourced by Scripts/hostile-inputs.sh).
#
# Each case is an XcodeGen project whose one target compiles one generated Swift file and is
# entitled to one group; `lint .` scans the file and resolves every group the code passes:
#   locals-80000-functions    80,000 functions, each with a local `g` and a site passing it (every
#                             lookup of `g` used to read all 80,000 scopes)
#   ambiguous-5000-candidates one name defined in 5,000 types, passed at 1,000 sites (each site
#                             resolved up to 4,096 candidates)
#   binding-chain-300k/2.4m   `let a1 = a0 + "x" let a2 = a1 + "x" ...` on one line, no separators
#                             (each binding was walked and read for 4,096 units, and kept)
#   binding-lines-2.4m        the same chain one binding per line (each read once, all resolved)
#   plus-expression-2.4m      one `let g = "..." + "" + ... + ".evil"` expression of 2.4 MB
#   nested-types-20000        20,000 types nested in one another, a constant in each
#   cycle-20000-sites         20,000 sites passing a constant of 2,000 parts whose last part
#                             leads back to it (no result to keep: each site resolves it again,
#                             until the run's budget for resolving code is spent)
#   wide-constant-60000-sites 60,000 sites passing "" + a constant of 2,000 constant parts (each
#                             site resolved all 2,000 and kept the 2,000 steps)
#   deep-blocks-wide          150 expressions of 2,000 names, 250 blocks deep (each name was
#                             looked up through every open block)
#   objc-one-call-60000-keys  one Objective-C message with 60,000 `forKey:kSecAttrAccessGroup`,
#                             one with 60,000 `accessGroup:` parts, one CFDictionarySetValue with
#                             60,000 keys (each key read the call from its start)
# The cases cut by a bound must say so: one notice on standard error.
# shellcheck shell=bash
# shellcheck disable=SC2154 # $bin is set by Scripts/hostile-inputs.sh, which sources this file

code_project() {
    # code_project DIR KIND SIZE: the project and its generated source file.
    python3 - "$@" <<'PY'
import os, sys
out, kind, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(out + "/App", exist_ok=True)
with open(out + "/project.yml", "w") as f:
    f.write("name: App\ntargets:\n  App:\n    type: application\n    platform: iOS\n    sources: [App]\n"
            "    settings:\n      PRODUCT_BUNDLE_IDENTIFIER: com.example.app\n      DEVELOPMENT_TEAM: ABCDE12345\n"
            "      CODE_SIGN_ENTITLEMENTS: App/App.entitlements\n")
with open(out + "/App/App.entitlements", "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>keychain-access-groups</key>\n'
            '\t<array>\n\t\t<string>$(AppIdentifierPrefix)com.example.app</string>\n\t</array>\n</dict>\n</plist>\n')
site = "    _ = [kSecAttrAccessGroup as String: %s]\n"
parts = []
if kind == "locals":
    for i in range(size):
        parts.append('func f%d() {\n    let g = "ABCDE12345.com.example.app"\n%s}\n' % (i, site % "g"))
elif kind == "ambiguous":
    for i in range(size):
        parts.append('enum T%d { static let g = "ABCDE12345.x%d" }\n' % (i, i))
    for i in range(1000):
        parts.append("func f%d() {\n%s}\n" % (i, site % "g"))
elif kind in ("chain", "lines"):
    separator = " " if kind == "chain" else "\n"
    parts.append('let a0 = "ABCDE12345.com.example."' + separator)
    total, i = 0, 1
    while total < size:
        s = 'let a%d = a%d + "x"%s' % (i, i - 1, separator)
        parts.append(s)
        total += len(s)
        i += 1
    parts.append("\nfunc f() {\n%s%s}\n" % (site % ("a%d" % (i - 1)), site % "a10"))
elif kind == "plus":
    body = ' + ""' * (size // 5)
    parts.append('let g = "ABCDE12345.com.example.app"%s + ".evil"\nfunc f() {\n%s}\n' % (body, site % "g"))
elif kind == "cycle":
    parts.append("".join('let a%d = ""\n' % i for i in range(2000)))
    parts.append("let x = " + " + ".join("a%d" % i for i in range(2000)) + " + y\nlet y = x\n")
    for i in range(size):
        parts.append("func f%d() {\n%s}\n" % (i, site % "x"))
elif kind == "wide":
    parts.append("".join('let a%d = ""\n' % i for i in range(2000)))
    parts.append('let wide = "ABCDE12345.com.example.app" + ' + " + ".join("a%d" % i for i in range(2000)) + "\n")
    for i in range(size):
        parts.append("func f%d() {\n%s}\n" % (i, site % '"" + wide'))
elif kind == "blocks":
    parts.append("func f(p: String) {\n" + "if c {\n" * 250)
    for i in range(150):
        parts.append("let v%d = " % i + " + ".join("n%d" % j for j in range(size)) + "\n")
    parts.append("}\n" * 250 + "}\n")
elif kind == "objc":
    os.remove(out + "/App/Code.swift") if os.path.exists(out + "/App/Code.swift") else None
    with open(out + "/App/Code.m", "w") as f:
        f.write("void f(void) {\n[q setObject:g " + "forKey:kSecAttrAccessGroup " * size + "];\n"
                + "[k x:1 " + "accessGroup:g " * size + "];\n"
                + "CFDictionarySetValue(q, " + "kSecAttrAccessGroup " * size + ", g);\n}\n")
    sys.exit(0)
elif kind == "types":
    for i in range(size):
        parts.append('struct A%d { static let g = "ABCDE12345.com.example.app"\n' % i)
    parts.append("}" * size + "\nfunc f() {\n%s}\n" % (site % "A0.g"))
with open(out + "/App/Code.swift", "w") as f:
    f.write("".join(parts))
PY
}

code_project locals locals 80000
measure "code-scan: locals-80000-functions" -- "$bin" lint locals
code_project ambiguous ambiguous 5000
measure "code-scan: ambiguous-5000-candidates" -- "$bin" lint ambiguous
expect_output "code-scan: ambiguous-5000-candidates" "notice: an access group passed in code is not checked.*too many steps"
code_project chain-300k chain 300000
measure "code-scan: binding-chain-300k" -- "$bin" lint chain-300k
expect_output "code-scan: binding-chain-300k" "notice: an access group passed in code is not checked"
code_project chain-2m chain 2400000
measure "code-scan: binding-chain-2.4m" -- "$bin" lint chain-2m
expect_output "code-scan: binding-chain-2.4m" "notice: an access group passed in code is not checked"
code_project lines-2m lines 2400000
measure "code-scan: binding-lines-2.4m" -- "$bin" lint lines-2m
expect_output "code-scan: binding-lines-2.4m" "notice: an access group passed in code is not checked.*references nested more than 16 deep"
code_project plus-2m plus 2400000
measure "code-scan: plus-expression-2.4m" -- "$bin" lint plus-2m
expect_output "code-scan: plus-expression-2.4m" "notice: an access group passed in code is not checked.*longer than 4096 tokens"
code_project types types 20000
measure "code-scan: nested-types-20000" -- "$bin" lint types
code_project cycle cycle 20000
measure "code-scan: cycle-20000-sites" -- "$bin" lint cycle
expect_output "code-scan: cycle-20000-sites" "notice: an access group passed in code is not checked.*budget for resolving code is used up"
code_project wide wide 60000
measure "code-scan: wide-constant-60000-sites" -- "$bin" lint wide
code_project blocks blocks 2000
measure "code-scan: deep-blocks-wide" -- "$bin" lint blocks
code_project objc objc 60000
measure "code-scan: objc-one-call-60000-keys" -- "$bin" lint objc
