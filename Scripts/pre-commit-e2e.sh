#!/usr/bin/env bash
# End-to-end test of .pre-commit-hooks.yaml with the real pre-commit, installed from PyPI into a
# temporary virtual environment:
#   1. `pre-commit validate-manifest` accepts the manifest;
#   2. the entitlint-prebuilt hook, its wheel given as a local file in additional_dependencies:
#      `pre-commit install-hooks` takes seconds (under a minute: nothing is built), `pre-commit run`
#      on a broken fixture repository fails and prints the finding (and the fixture's `exclude` still
#      applies to the files pre-commit names), and on a clean fixture passes;
#   3. the entitlint hook (built from source by pre-commit, once for both fixtures: 1-2 min), the
#      same two runs; skipped with --skip-source-build.
# The wheel is built by Scripts/build-wheel.sh from the release binary (reused when it is up to date),
# or taken from --wheel FILE. What is tested is this work tree as it is on disk (committed or not): a
# snapshot of its tracked and untracked, not ignored, files is committed to a temporary repository,
# which the fixtures' .pre-commit-config.yaml name as their hook repository.
# Usage: bash Scripts/pre-commit-e2e.sh [--wheel FILE] [--skip-source-build]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

fail() { printf 'pre-commit e2e: FAILED: %s\n' "$*" >&2; exit 1; }

wheel=""
source_build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --wheel) [ $# -ge 2 ] || fail "--wheel needs a file"; wheel=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        --skip-source-build) source_build=0; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown argument $1 (see --help)" ;;
    esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/entitlint-pre-commit.XXXXXX")
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
git_id=(-c user.name=entitlint-e2e -c user.email=e2e@example.com -c commit.gpgsign=false -c init.defaultBranch=main)
passed=0

step() { printf '\n== %s\n' "$*"; }

step "pre-commit from PyPI"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check pre-commit
pc="$work/venv/bin/pre-commit"
"$pc" --version

step "validate-manifest"
"$pc" validate-manifest "$root/.pre-commit-hooks.yaml" || fail "validate-manifest rejected .pre-commit-hooks.yaml"
passed=$((passed + 1))

step "snapshot of the work tree"
snapshot="$work/entitlint"
bash "$root/Scripts/snapshot-worktree.sh" "$snapshot"
rev=$(git -C "$snapshot" rev-parse HEAD)

if [ -z "$wheel" ]; then
    step "the wheel (Scripts/build-wheel.sh)"
    wheel=$(bash "$root/Scripts/build-wheel.sh" --output "$work/wheel" | tail -n 1)
fi
[ -f "$wheel" ] || fail "no wheel at $wheel"
case "$wheel" in *.whl) ;; *) fail "$wheel is not a .whl file" ;; esac

entitlements() { # GROUP... -> an entitlements file with those keychain access groups
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>keychain-access-groups</key>\n\t<array>\n'
    for g in "$@"; do printf '\t\t<string>%s</string>\n' "$g"; done
    printf '\t</array>\n</dict>\n</plist>\n'
}

fixture() { # NAME HOOK-ID [ADDITIONAL-DEPENDENCY] -> a git repository with a clean app, an excluded
            # broken fixture, a Swift file and a .pre-commit-config.yaml using the hook
    local dir="$work/$1"
    mkdir -p "$dir/App" "$dir/Tests/Fixtures"
    entitlements '$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)' '$(AppIdentifierPrefix)com.example.shared' > "$dir/App/App.entitlements"
    entitlements '*' > "$dir/Tests/Fixtures/Wildcard.entitlements"
    printf 'team: ABCDE12345\nexclude: ["Tests/**"]\n' > "$dir/.entitlint.yml"
    printf 'print("hello")\n' > "$dir/App/main.swift"
    {
        printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: %s\n' "$snapshot" "$rev" "$2"
        [ -z "${3:-}" ] || printf '        additional_dependencies: ["%s"]\n' "$3"
    } > "$dir/.pre-commit-config.yaml"
    git -C "$dir" "${git_id[@]}" init -q
    echo "$dir"
}

run_hooks() { # DIR -> `pre-commit run --all-files` there, output in DIR.log, status in $status
    git -C "$1" add -A
    set +e
    (cd "$1" && "$pc" run --all-files --verbose --color never) > "$1.log" 2>&1
    status=$?
    set -e
    cat "$1.log"
}

check_broken() { # DIR
    [ "$status" -ne 0 ] || fail "pre-commit passed on the broken fixture $1"
    grep -q 'App/App.entitlements:6:3: error: keychain access group "$(AppIdentifierPrefix)\*"' "$1.log" ||
        fail "the wildcard finding is missing from the output"
    grep -q '\[wildcard-access-group\]' "$1.log" || fail "the rule id is missing from the output"
    ! grep -q 'Tests/Fixtures/Wildcard.entitlements' "$1.log" || fail "an excluded file named by pre-commit was linted"
    passed=$((passed + 1))
}

check_clean() { # DIR
    [ "$status" -eq 0 ] || fail "pre-commit failed on the clean fixture $1 (status $status)"
    grep -q 'entitlint.*Passed' "$1.log" || fail "the hook did not report Passed"
    grep -q '1 file checked: no problems found' "$1.log" || fail "the clean app was not checked"
    passed=$((passed + 1))
}

step "entitlint-prebuilt: install-hooks from $(basename "$wheel")"
dependency="entitlint @ file://$wheel"
broken=$(fixture prebuilt-broken entitlint-prebuilt "$dependency")
entitlements '$(AppIdentifierPrefix)*' > "$broken/App/App.entitlements"
git -C "$broken" add -A
start=$(date +%s%N)
(cd "$broken" && "$pc" install-hooks) || fail "pre-commit install-hooks failed for entitlint-prebuilt"
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
printf 'install-hooks took %d.%03d s\n' $((elapsed_ms / 1000)) $((elapsed_ms % 1000))
[ "$elapsed_ms" -lt 60000 ] || fail "installing the prebuilt hook took ${elapsed_ms} ms: a minute or more means something was built or downloaded"
installed=$(find "$PRE_COMMIT_HOME" -path '*/py_env-*/bin/entitlint' -type f | head -n 1)
[ -n "$installed" ] && [ "$("$installed" --version)" = "$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$root/Sources/EntitlintCore/Version.swift")" ] ||
    fail "the hook's environment has no entitlint of this version (found: ${installed:-nothing})"
passed=$((passed + 1))

step "entitlint-prebuilt on a broken fixture"
run_hooks "$broken"
check_broken "$broken"

step "entitlint-prebuilt on a clean fixture"
clean=$(fixture prebuilt-clean entitlint-prebuilt "$dependency")
run_hooks "$clean"
check_clean "$clean"

if [ "$source_build" -eq 1 ]; then
    step "entitlint (built from source) on a broken fixture (builds the package)"
    broken=$(fixture source-broken entitlint)
    entitlements '$(AppIdentifierPrefix)*' > "$broken/App/App.entitlements"
    run_hooks "$broken"
    check_broken "$broken"

    step "entitlint (built from source) on a clean fixture (the same build)"
    clean=$(fixture source-clean entitlint)
    run_hooks "$clean"
    check_clean "$clean"
fi

printf '\npre-commit-e2e: %d passed, 0 failed\n' "$passed"
