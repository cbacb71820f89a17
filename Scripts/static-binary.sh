# Sourced first, after `set -euo pipefail`, by the scripts that ship the linter (release.sh,
# build-wheel.sh): what they share (the repository root, how they fail, the options both take) and
# the one place that says how the shipped binary is built and what makes it self-contained.
# shellcheck shell=bash

root=$(cd "$(dirname "$0")/.." && pwd)

# Prints the message after the script's name (`release: ...`) on stderr and exits 1.
fail() { printf '%s: %s\n' "$(basename "$0" .sh)" "$*" >&2; exit 1; }

# read_arguments ARGS...: `--output DIR` (or `--output=DIR`) sets `output`; `-h`/`--help` prints the
# script's leading comment block and exits 0; each other argument goes, with the rest of the line
# after it, to the script's own `script_argument`, which sets `used` to how many it took (1 or 2).
# shellcheck disable=SC2034  # `output` is the calling script's
read_arguments() {
    local used
    while [ $# -gt 0 ]; do
        case "$1" in
            --output) [ $# -ge 2 ] || fail "--output needs a folder"; output=$2; shift 2 ;;
            --output=*) output=${1#--output=}; shift ;;
            -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
            *) used=1; script_argument "$@"; shift "$used" ;;
        esac
    done
}

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
