# shellcheck shell=bash
# shellcheck disable=SC2154  # $bin, measure and expect_output come from Scripts/hostile-inputs.sh
# Output escaping and workflow-command guarding on hostile values (sourced by
# Scripts/hostile-inputs.sh, with $bin, measure and expect_output):
#   - 2 MB of access groups that are grapheme clusters (500 groups, each a quote and 1,900
#     combining accents, then U+0600 and `<`: under the 4 KiB an entitlement string is read to),
#     in every lint and report format and `inspect --format plist`;
#   - 100,000 lines each forging `add-mask` after an NBSP and `stop-commands` in the legacy form,
#     50 to a value, in the text and github formats and `inspect --format plist`;
#   - 2,000 files whose names forge `::error` after U+3000, in the text and github formats.

python3 - <<'EOF'
import os

def entitlements(groups):
    body = "".join("<string>%s</string>" % g for g in groups)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
            "<key>keychain-access-groups</key><array>%s</array>\n</dict>\n</plist>\n" % body)

os.makedirs("cluster", exist_ok=True)
cluster = '"' + "\u0301" * 1_900 + "\u0600&lt;img onerror=x&gt;"
with open("cluster/App.entitlements", "w", encoding="utf-8") as f:
    f.write(entitlements(["ABCDE12345.*" + cluster + str(i) for i in range(500)]))

os.makedirs("lines", exist_ok=True)
def forged(k):
    return "".join("\n\u00a0::add-mask::secret%d ##[stop-commands]t%d" % (i, i) for i in range(50 * k, 50 * k + 50))
with open("lines/App.entitlements", "w", encoding="utf-8") as f:
    f.write(entitlements(["ABCDE12345.*" + forged(k) for k in range(2_000)]))

os.makedirs("names", exist_ok=True)
for i in range(2000):
    with open("names/\u3000::error file=Forged.swift::%d.entitlements" % i, "w", encoding="utf-8") as f:
        f.write(entitlements(["ABCDE12345.*"]))
EOF

for format in text json sarif junit checkstyle github gitlab; do
    measure "2 MB of grapheme clusters: lint --format $format" -- "$bin" lint cluster --format "$format"
done
for format in text markdown json dot html; do
    measure "2 MB of grapheme clusters: report --format $format" -- "$bin" report cluster --format "$format"
done
expect_output "2 MB of grapheme clusters: the HTML report escapes the < after U+0600" '&lt;img onerror=x&gt;'
measure "2 MB of grapheme clusters: inspect --format plist" -- "$bin" inspect cluster/App.entitlements --format plist

measure "100,000 forged lines in a value: lint --format text" -- "$bin" lint lines --format text
expect_output "100,000 forged lines: text shows ##[ escaped" 'secret99999 ##\\u\{5b\}stop-commands\]t99999'
measure "100,000 forged lines in a value: lint --format github" -- "$bin" lint lines --format github
measure "100,000 forged lines in a value: inspect --format plist" -- "$bin" inspect lines/App.entitlements --format plist
expect_output "100,000 forged lines: the plist is re-written" '&#58;:add-mask::secret99999 ##&#91;stop-commands'

measure "2,000 files named to forge ::error: lint --format text" -- "$bin" lint names --format text
measure "2,000 files named to forge ::error: lint --format github" -- "$bin" lint names --format github
