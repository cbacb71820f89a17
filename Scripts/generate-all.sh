#!/usr/bin/env bash
# usage: Scripts/generate-all.sh [--check] [BIN]
#
# Regenerates every file the repository derives from the code: one page per rule and the index
# (Rules/<id>.md, Rules/README.md, from each rule's description and examples) and the configuration
# schema (Examples/entitlint.schema.json, from the configuration keys and the rule ids).
# With --check, writes nothing in the repository: generates into a temporary folder and compares,
# printing each stale, missing or orphaned file (a page whose rule no longer exists), and exits 1 if
# any; CI runs this. BIN is an entitlint binary (default: the debug build, built if missing).
# Expected outputs of the examples (Examples/*/expected*) are not generated here: they are results a
# reviewer reads, checked by the tests.
# Needs: swift (unless BIN is given), diff.
set -euo pipefail
# shellcheck source=Scripts/preamble.sh
source "$(dirname "$0")/preamble.sh"

check=0
bin=""
for arg in "$@"; do
    case $arg in
        --check) check=1 ;;
        -h|--help) usage ;;
        -*) usage ;;
        *) bin=$arg ;;
    esac
done
if [ -z "$bin" ]; then
    swift build --product entitlint >/dev/null
    bin="$(swift build --show-bin-path)/entitlint"
fi
[ -x "$bin" ] || { echo "generate-all: no executable at $bin" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# Pages written by hand in Rules/ (everything else there at the top level is generated).
handwritten="keychain-access-groups.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Rules"
"$bin" generate-docs "$tmp/Rules" >/dev/null
"$bin" generate-schema "$tmp/entitlint.schema.json" >/dev/null
stale=0
compare() {  # compare GENERATED COMMITTED; in write mode only the orphans are reported
    [ "$check" = 1 ] || return 0
    if [ ! -f "$2" ]; then
        echo "missing: $2"; stale=1
    elif ! cmp -s "$1" "$2"; then
        echo "stale: $2"; diff -u "$2" "$1" | head -20 || true; stale=1
    fi
}
for page in "$tmp"/Rules/*.md; do compare "$page" "Rules/$(basename "$page")"; done
compare "$tmp/entitlint.schema.json" Examples/entitlint.schema.json
for page in Rules/*.md; do
    name=$(basename "$page")
    case " $handwritten " in *" $name "*) continue ;; esac
    [ -f "$tmp/Rules/$name" ] || { echo "orphaned: $page (no rule has this id)"; stale=1; }
done
if [ "$check" = 0 ]; then
    # Write mode: the generated files replace the committed ones; orphans are only named (a page
    # is removed by whoever removed its rule).
    cp "$tmp"/Rules/*.md Rules/
    cp "$tmp/entitlint.schema.json" Examples/entitlint.schema.json
    echo "generate-all: wrote Rules/*.md (one per rule), Rules/README.md and Examples/entitlint.schema.json"
    exit 0
fi
if [ "$stale" = 1 ]; then
    echo "generate-all: generated files are out of date; run Scripts/generate-all.sh and commit the result" >&2
    exit 1
fi
echo "generate-all: every generated file is up to date"
