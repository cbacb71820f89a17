#!/usr/bin/env bash
# Builds the Linux release archive of Entitlint and checks it; it never tags, pushes or uploads.
#
# Usage: bash Scripts/release.sh VERSION [--output DIR]
#
#   VERSION   semver (MAJOR.MINOR.PATCH, optionally -PRERELEASE), without a leading "v"; it must equal
#             EntitlintVersion.current in Sources/EntitlintCore/Version.swift. The script does not
#             edit the source: bump the constant and the README's "Changelog" in a commit first.
#   --output  where the archive and its checksum go (default .build/release-artifacts); the script
#             writes only there and in SwiftPM's .build folder.
#
# Produces DIR/entitlint-VERSION-x86_64-linux.tar.gz (entitlint-VERSION-x86_64-linux/: entitlint,
# README.md, Rules/ (the documentation pages), completions/entitlint.{bash,zsh,fish}, man/entitlint.1),
# DIR/entitlint-VERSION-x86_64-linux.tar.gz.sha256 (`sha256sum -c` format) and the wheel of
# Scripts/build-wheel.sh (the same binary, checked by that script), then checks:
#   - ldd lists no libswift* and no libFoundation* (the runtime and Foundation are linked in);
#   - the unpacked binary prints VERSION for --version with an empty environment (no
#     LD_LIBRARY_PATH, PATH=/usr/bin:/bin, so no Swift toolchain) and lints a bundled example;
#   - the checksum file verifies.
# Ends by printing the `git tag` command to run.
set -euo pipefail
# shellcheck source=Scripts/static-binary.sh
. "$(dirname "$0")/static-binary.sh"

version=""
output="$root/.build/release-artifacts"
script_argument() {
    case "$1" in
        -*) fail "unknown option $1" ;;
        *) [ -z "$version" ] || fail "one VERSION only"; version=$1 ;;
    esac
}
read_arguments "$@"
[ -n "$version" ] || fail "usage: Scripts/release.sh VERSION [--output DIR]"

semver='^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$'
[[ "$version" =~ $semver ]] || fail "\"$version\" is not a semantic version (MAJOR.MINOR.PATCH[-PRERELEASE], no leading v)"

source_version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$root/Sources/EntitlintCore/Version.swift")
[ "$version" = "$source_version" ] ||
    fail "VERSION $version differs from EntitlintVersion.current ($source_version) in Sources/EntitlintCore/Version.swift: change the constant (and the README's Changelog) first"
grep -q "^### $version\b" "$root/README.md" || fail "the README's Changelog has no \"### $version\" entry"

[ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ] ||
    fail "this script builds the x86_64 Linux archive; on macOS see the README's \"Releases\""

mkdir -p "$output"
output=$(cd "$output" && pwd)
name="entitlint-$version-x86_64-linux"
archive="$output/$name.tar.gz"

binary=$(build_release_binary)

printf '== self-containment (ldd)\n'
ldd "$binary"
check_self_contained "$binary"

printf '== archive\n'
stage=$(mktemp -d "$output/.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$binary" "$stage/$name/entitlint"
strip "$stage/$name/entitlint" 2>/dev/null || true
cp "$root/README.md" "$stage/$name/README.md"
# The documentation the README links to, at the same relative paths, so its links work offline.
mkdir -p "$stage/$name/Rules/reference"
cp "$root"/Rules/*.md "$stage/$name/Rules/"
cp "$root"/Rules/reference/*.md "$stage/$name/Rules/reference/"
# Shell completions from the binary itself, and the man page from swift-argument-parser's
# generate-manual plugin (both from the same command declarations as --help).
mkdir "$stage/$name/completions" "$stage/$name/man"
for shell in bash zsh fish; do
    "$binary" --generate-completion-script "$shell" > "$stage/$name/completions/entitlint.$shell"
    [ -s "$stage/$name/completions/entitlint.$shell" ] || fail "no $shell completion script"
done
# The man page's date is the last commit's, so that the same sources give the same archive.
manual_date=$(git -C "$root" log -1 --format=%cs 2>/dev/null || echo 2000-01-01)
(cd "$root" && swift package generate-manual --configuration release --date "$manual_date" >&2)
cp "$root/.build/plugins/GenerateManual/outputs/entitlint/entitlint.1" "$stage/$name/man/entitlint.1" ||
    fail "no man page from generate-manual"
chmod 0755 "$stage/$name/entitlint"
chmod 0644 "$stage/$name/README.md" "$stage/$name"/completions/* "$stage/$name/man/entitlint.1" "$stage/$name"/Rules/*.md "$stage/$name"/Rules/reference/*.md
# Same inputs, same bytes: sorted names, fixed owner and time, no gzip timestamp.
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00:00Z' \
    -cf - "$name" | gzip -n -9 > "$archive"
(cd "$output" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")

printf '== checks on the archive\n'
(cd "$output" && sha256sum -c "$name.tar.gz.sha256") || fail "checksum does not verify"
unpacked="$stage/unpacked"
mkdir "$unpacked"
tar -C "$unpacked" -xzf "$archive"
expected_docs=$(cd "$root" && for f in Rules/*.md Rules/reference/*.md; do printf './%s/%s\n' "$name" "$f"; done)
expected=$(printf '%s\n' "./$name/README.md" "./$name/completions/entitlint.bash" "./$name/completions/entitlint.fish" \
    "./$name/completions/entitlint.zsh" "./$name/entitlint" "./$name/man/entitlint.1" "$expected_docs" | LC_ALL=C sort)
[ "$(cd "$unpacked" && find . -type f | LC_ALL=C sort)" = "$expected" ] ||
    fail "unexpected archive contents: $(cd "$unpacked" && find . -type f | LC_ALL=C sort | tr '\n' ' ')"
run() { env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$unpacked/$name/entitlint" "$@"; }
! env -i PATH=/usr/bin:/bin sh -c 'command -v swift' >/dev/null || fail "a swift on /usr/bin:/bin: cannot check independence from the toolchain"
printed=$(run --version) || fail "the unpacked binary failed to run --version"
[ "$printed" = "$version" ] || fail "--version printed \"$printed\", expected \"$version\""
set +e
(cd "$root" && run lint Examples/cookbook-wildcard/App.entitlements) > "$stage/lint.txt" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] && grep -q '\[wildcard-access-group\]' "$stage/lint.txt" ||
    { cat "$stage/lint.txt"; fail "the unpacked binary did not report the bundled example's finding (exit $status)"; }

printf '== wheel (Scripts/build-wheel.sh, the same binary)\n'
wheel=$(bash "$root/Scripts/build-wheel.sh" --binary "$binary" --output "$output" | tail -n 1)

printf '\n%s\n%s\n%s\n' "$archive" "$(cat "$archive.sha256")" "$wheel"
printf 'size: %s bytes\n' "$(stat -c %s "$archive")"
action_default=$(awk '/^  version:/ {on=1} on && /default:/ {print $2; exit}' "$root/action.yml" | tr -d "'\"")
if [ "$action_default" != "v$version" ]; then
    printf '\nnote: action.yml'"'"'s `version` input defaults to "%s": in the release commit set it to v%s, so the\n' "$action_default" "$version"
    printf 'tagged action installs its own release archive instead of building from source.\n'
fi
printf '\nrelease: checks passed. To publish, tag and push yourself:\n'
printf '  git tag -a v%s -m "Entitlint %s" && git push origin v%s\n' "$version" "$version" "$version"
printf 'then attach %s, %s and %s to the GitHub release v%s.\n' "$name.tar.gz" "$name.tar.gz.sha256" "$(basename "$wheel")" "$version"
