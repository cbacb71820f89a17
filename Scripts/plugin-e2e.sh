#!/usr/bin/env bash
# End-to-end test of the SwiftPM command plugin, as a user gets it: a snapshot of this work tree (as
# it is on disk, committed or not) is committed to a temporary git repository and tagged 0.1.0; a
# temporary consumer package depends on it by that file:// URL and version (so SwiftPM treats it as
# a versioned remote dependency, where it refuses unsafe flags in library products), and runs
#   1. `swift package entitlint` on a broken app: fails, the finding is printed;
#   2. `swift package entitlint App/App.entitlements --format json` on the fixed app: passes;
#   3. `swift package entitlint --report sarif:report.sarif` (Linux has no plugin sandbox: written).
# The consumer builds the entitlint tool in debug (about a minute here, 75 s for the whole script).
# Usage: bash Scripts/plugin-e2e.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/entitlint-plugin.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'plugin e2e: FAILED: %s\n' "$*" >&2; exit 1; }
ok() { passed=$((passed + 1)); printf 'ok: %s\n' "$*"; }

step "snapshot of the work tree, tagged 0.1.0"
snapshot="$work/entitlint"
bash "$root/Scripts/snapshot-worktree.sh" "$snapshot" --tag 0.1.0

step "consumer package"
consumer="$work/consumer"
mkdir -p "$consumer/Sources/Consumer" "$consumer/App"
cat > "$consumer/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(url: "file://$snapshot", exact: "0.1.0")],
    targets: [.target(name: "Consumer")]
)
EOF
printf 'public let consumer = 1\n' > "$consumer/Sources/Consumer/Consumer.swift"
entitlements() { # GROUP -> an entitlements file with that keychain access group
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n\t\t<string>%s</string>\n\t</array>\n</dict>\n</plist>\n' "$1"
}
entitlements '$(AppIdentifierPrefix)*' > "$consumer/App/App.entitlements"

plugin() { # ARGS... -> runs the plugin in the consumer, output in $work/out, status in $status
    set +e
    (cd "$consumer" && swift package entitlint "$@") > "$work/out" 2>&1
    status=$?
    set -e
    cat "$work/out"
}

step "swift package entitlint (resolves, builds the tool, lints the package)"
plugin
[ "$status" -ne 0 ] || fail "the plugin passed on a wildcard access group"
grep -q 'App/App.entitlements:6:3: error: keychain access group "$(AppIdentifierPrefix)\*"' "$work/out" ||
    fail "the wildcard finding is missing"
ok "a finding fails the plugin (status $status) and is printed"
grep -q 'unsafeFlags\|unsafe flags' "$work/out" && fail "SwiftPM complained about unsafe flags"
ok "the versioned dependency is accepted"

step "the fixed app, a path and a format"
entitlements '$(AppIdentifierPrefix)com.example.shared' > "$consumer/App/App.entitlements"
plugin App/App.entitlements --format json
[ "$status" -eq 0 ] || fail "the plugin failed on a clean app (status $status)"
grep -q '"files" : 1,' "$work/out" && grep -q '"errors" : 0,' "$work/out" ||
    fail "the JSON summary does not show one file checked without errors"
ok "a clean app passes; arguments reach entitlint lint, relative to the package"

step "--report (no sandbox on Linux)"
plugin --report sarif:report.sarif
[ "$status" -eq 0 ] || fail "the plugin failed with --report (status $status)"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))["runs"][0]' "$consumer/report.sarif" ||
    fail "no SARIF report in the package folder"
ok "--report writes into the package folder"

printf '\nplugin-e2e: %d passed, 0 failed\n' "$passed"
