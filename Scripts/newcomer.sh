#!/usr/bin/env bash
# usage: Scripts/newcomer.sh [--keep]
#
# What a newcomer meets: the repository cloned (its committed state, HEAD) into a fresh temporary
# folder with nothing beside it (no ../shared, so the tests that need the real projects, corpus
# and schemas skip), then the README's two commands: the linter on a bundled example (it must
# exit 1 with its one error) and the tests. Fails on a failing test, on a compiler warning in the
# build of the package's own code, or if the example does not behave as the README says. --keep
# leaves the clone in place and prints where it is.
# Needs: git, swift.
set -euo pipefail
# shellcheck source=Scripts/preamble.sh
source "$(dirname "$0")/preamble.sh"

keep=0
case ${1:-} in
    --keep) keep=1 ;;
    "") ;;
    *) usage ;;
esac

tmp=$(mktemp -d)
[ "$keep" = 1 ] || trap 'rm -rf "$tmp"' EXIT
git clone -q "$root" "$tmp/entitlint"
cd "$tmp/entitlint"
[ ! -e ../shared ] || { echo "newcomer: ../shared exists beside the clone" >&2; exit 1; }

set +e
swift run entitlint lint Examples/cookbook-wildcard/App.entitlements >"$tmp/example.out" 2>"$tmp/build.log"
status=$?
set -e
cat "$tmp/example.out"
if [ "$status" -ne 1 ] || ! grep -q "wildcard-access-group" "$tmp/example.out"; then
    echo "newcomer: the README's example should report its wildcard and exit 1 (exit $status)" >&2
    tail -20 "$tmp/build.log" >&2
    exit 1
fi

set +e
swift test >"$tmp/test.log" 2>&1
status=$?
set -e
grep -E "Executed [0-9]+ tests" "$tmp/test.log" | tail -1
fail=0
if [ "$status" -ne 0 ]; then
    echo "newcomer: swift test failed (exit $status):" >&2
    grep -E ": error: |failed" "$tmp/test.log" | head -40 >&2
    fail=1
fi
# The package's own sources and tests, each warning once (a file compiles in several passes);
# dependencies' warnings are theirs.
warnings=$(cat "$tmp/build.log" "$tmp/test.log" | grep -E "^$tmp/entitlint/(Sources|Tests)/.*: warning: " | sort -u || true)
if [ -n "$warnings" ]; then
    echo "newcomer: $(printf '%s\n' "$warnings" | wc -l) compiler warnings:" >&2
    printf '%s\n' "$warnings" | sed "s|^$tmp/entitlint/||" >&2
    fail=1
fi
[ "$keep" = 0 ] || echo "newcomer: the clone is at $tmp/entitlint"
[ "$fail" = 0 ] && echo "newcomer: the README's two commands work on a fresh clone, without warnings"
exit "$fail"
