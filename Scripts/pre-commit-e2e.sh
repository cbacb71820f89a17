#!/usr/bin/env bash
# End-to-end test of .pre-commit-hooks.yaml with the real pre-commit, installed from PyPI into a
# temporary virtual environment:
#   1. `pre-commit validate-manifest` accepts the manifest;
#   2. `pre-commit try-repo` on a broken fixture repository fails and prints the finding (and the
#      fixture's `exclude` still applies to the files pre-commit names);
#   3. `pre-commit try-repo` on a clean fixture passes.
# try-repo builds the package with `swift build -c release` in a fresh clone each time (1-2 min).
# What is tested is this work tree as it is on disk (committed or not): a snapshot of its tracked
# and untracked, not ignored, files is committed to a temporary repository first.
# Usage: bash Scripts/pre-commit-e2e.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/entitlint-pre-commit.XXXXXX")
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
git_id=(-c user.name=entitlint-e2e -c user.email=e2e@example.com -c commit.gpgsign=false -c init.defaultBranch=main)

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'pre-commit e2e: FAILED: %s\n' "$*" >&2; exit 1; }

step "pre-commit from PyPI"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check pre-commit
pc="$work/venv/bin/pre-commit"
"$pc" --version

step "validate-manifest"
"$pc" validate-manifest "$root/.pre-commit-hooks.yaml" || fail "validate-manifest rejected .pre-commit-hooks.yaml"

step "snapshot of the work tree"
snapshot="$work/entitlint"
bash "$root/Scripts/snapshot-worktree.sh" "$snapshot"

entitlements() { # GROUP... -> an entitlements file with those keychain access groups
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n'
    for g in "$@"; do printf '\t\t<string>%s</string>\n' "$g"; done
    printf '\t</array>\n</dict>\n</plist>\n'
}

fixture() { # NAME -> a git repository with a clean app, an excluded broken fixture and a Swift file
    local dir="$work/$1"
    mkdir -p "$dir/App" "$dir/Tests/Fixtures"
    entitlements '$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)' '$(AppIdentifierPrefix)com.example.shared' > "$dir/App/App.entitlements"
    entitlements '*' > "$dir/Tests/Fixtures/Wildcard.entitlements"
    printf 'team: ABCDE12345\nexclude: ["Tests/**"]\n' > "$dir/.entitlint.yml"
    printf 'print("hello")\n' > "$dir/App/main.swift"
    git -C "$dir" "${git_id[@]}" init -q
    echo "$dir"
}

try_repo() { # DIR -> runs try-repo there, output in DIR.log, status in $status
    set +e
    (cd "$1" && "$pc" try-repo "$snapshot" entitlint --all-files --verbose --color never) > "$1.log" 2>&1
    status=$?
    set -e
    cat "$1.log"
}

step "try-repo on a broken fixture (builds the package)"
broken=$(fixture broken)
entitlements '$(AppIdentifierPrefix)*' > "$broken/App/App.entitlements"
git -C "$broken" add -A
try_repo "$broken"
[ "$status" -ne 0 ] || fail "try-repo passed on the broken fixture"
grep -q 'App/App.entitlements:6:3: error: keychain access group "$(AppIdentifierPrefix)\*"' "$broken.log" ||
    fail "the wildcard finding is missing from the output"
grep -q '\[wildcard-access-group\]' "$broken.log" || fail "the rule id is missing from the output"
! grep -q 'Tests/Fixtures/Wildcard.entitlements' "$broken.log" || fail "an excluded file named by pre-commit was linted"

step "try-repo on a clean fixture"
clean=$(fixture clean)
git -C "$clean" add -A
try_repo "$clean"
[ "$status" -eq 0 ] || fail "try-repo failed on the clean fixture (status $status)"
grep -q 'entitlint.*Passed' "$clean.log" || fail "the hook did not report Passed"
grep -q '1 file checked: no problems found' "$clean.log" || fail "the clean app was not checked"

printf '\npre-commit-e2e: 3 passed, 0 failed\n'
