#!/usr/bin/env bash
# Builds the Python wheel that carries the static entitlint binary, so that pip (and pre-commit's
# `language: python` hook) installs a ready command in seconds instead of building from source.
#
# Usage: bash Scripts/build-wheel.sh [--binary PATH] [--output DIR]
#
#   --binary  a release binary to package (default: `swift build -c release --product entitlint`,
#             which rebuilds nothing when the release binary is up to date, then .build/release/entitlint)
#   --output  where the wheel goes (default .build/wheel); nothing else is written outside .build/
#             and a temporary folder.
#
# Writes DIR/entitlint-VERSION-py3-none-PLATFORM.whl (VERSION: EntitlintVersion.current in
# Sources/EntitlintCore/Version.swift; PLATFORM: manylinux_2_N_x86_64 when the binary loads only glibc,
# else linux_x86_64) holding the stripped binary as the wheel's `entitlint` script and a small
# `entitlint` package for `python -m entitlint`, then checks it: the binary loads no Swift runtime or
# Foundation library, and the wheel installed with pip into a fresh virtual environment, offline,
# gives an `entitlint` command and `python -m entitlint` that print VERSION and report the bundled
# example's finding with an empty environment (no toolchain on PATH). Prints the wheel's path last.
# Needs python3 with venv and pip (no wheel or setuptools: the archive is written by
# Scripts/python/entitlint_wheel.py with the standard library) and binutils (readelf, strip).
set -euo pipefail
# shellcheck source=Scripts/static-binary.sh
. "$(dirname "$0")/static-binary.sh"

binary=""
output="$root/.build/wheel"
script_argument() {
    case "$1" in
        --binary) [ $# -ge 2 ] || fail "--binary needs a path"; binary=$2; used=2 ;;
        --binary=*) binary=${1#--binary=} ;;
        *) fail "unknown argument $1 (see --help)" ;;
    esac
}
read_arguments "$@"

[ "$(uname -s)" = Linux ] || fail "the wheel carries the Linux binary: build it on Linux"
machine=$(uname -m)
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$root/Sources/EntitlintCore/Version.swift")
[ -n "$version" ] || fail "no EntitlintVersion.current in Sources/EntitlintCore/Version.swift"

[ -n "$binary" ] || binary=$(build_release_binary)
[ -x "$binary" ] || fail "no executable at $binary"
check_self_contained "$binary"

mkdir -p "$output"
output=$(cd "$output" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/entitlint-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$binary" "$work/entitlint"
strip "$work/entitlint"
printf '== wheel\n' >&2
name=$(python3 "$root/Scripts/python/entitlint_wheel.py" binary --binary "$work/entitlint" --version "$version" \
    --output "$output" --machine "$machine") || fail "could not write the wheel"
wheel="$output/$name"

printf '== checks: pip install into a fresh virtual environment, offline\n' >&2
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index "$wheel" >&2 ||
    fail "pip refused $name"
run() { env -i PATH=/usr/bin:/bin "$@"; }
! run sh -c 'command -v swift' >/dev/null || fail "a swift on /usr/bin:/bin: cannot check independence from the toolchain"
printed=$(run "$work/venv/bin/entitlint" --version) || fail "the installed entitlint failed to run --version"
[ "$printed" = "$version" ] || fail "the installed entitlint printed \"$printed\" for --version, expected \"$version\""
printed=$(run "$work/venv/bin/python" -m entitlint --version) || fail "python -m entitlint failed to run --version"
[ "$printed" = "$version" ] || fail "python -m entitlint printed \"$printed\", expected \"$version\""
set +e
(cd "$root" && run "$work/venv/bin/entitlint" lint Examples/cookbook-wildcard/App.entitlements) > "$work/lint.txt" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] && grep -q '\[wildcard-access-group\]' "$work/lint.txt" ||
    { cat "$work/lint.txt" >&2; fail "the installed entitlint did not report the bundled example's finding (exit $status)"; }
printf 'build-wheel: %s bytes, checks passed\n' "$(stat -c %s "$wheel")" >&2
printf '%s\n' "$wheel"
