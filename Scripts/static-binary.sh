# Sourced by the scripts that ship the linter (release.sh, build-wheel.sh) after `set -euo pipefail`
# and after they define `fail` and `root`: the one place that says how the shipped binary is built
# and what makes it self-contained.
# shellcheck shell=bash

# Builds the release product as users get it (on Linux, Package.swift links the Swift runtime and
# Foundation statically) and prints its path on stdout; the build's own output goes to stderr.
# Rebuilds nothing when the release binary is up to date.
build_release_binary() {
    printf '== swift build -c release --product entitlint\n' >&2
    (cd "$root" && swift build -c release --product entitlint >&2)
    local path
    path="$(cd "$root" && swift build -c release --show-bin-path)/entitlint"
    [ -x "$path" ] || fail "no executable at $path"
    printf '%s\n' "$path"
}

# Fails unless BINARY loads no Swift runtime or Foundation library (only glibc and the kernel's),
# listing the offending libraries on stderr.
check_self_contained() {
    if ldd "$1" | grep -E 'lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime)' >&2; then
        fail "$1 loads Swift runtime or Foundation libraries (above): it is not self-contained (only a release build on Linux links them in)"
    fi
}
