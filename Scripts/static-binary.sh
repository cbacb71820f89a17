# Sourced first, after `set -euo pipefail`, by the scripts that ship or measure the linter
# (release.sh, build-wheel.sh, benchmark.sh, hostile-inputs.sh, CI, the Action's source build): what
# they share (the repository root, how they fail, the options the shipping scripts take) and the one
# place that says how the shipped binary is built and what makes it self-contained.
# shellcheck shell=bash

# The repository root: this file's own folder's parent, whoever sources it from wherever.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

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

# How the shipped binary is compiled: a release build whose every module (dependencies too) calls
# generic type metadata accessors directly instead of looking concrete types up by mangled name at
# first use. The lookup scans the binary's conformance records, which with a static Foundation
# costs about 2 million instructions at each start: a third of linting one file (measured with
# callgrind: 6.4 M instructions per one-file run without the flag, 4.4 M with it; xmllint --noout
# 3.1 M). It is a compiler flag given on the command line, not in Package.swift: SwiftPM refuses
# unsafe flags in a versioned dependency's library products, so a package that depends on
# EntitlintKit builds it without. Every release build of these scripts and of CI uses the same
# flags, so that one build serves them all.
release_build_flags=(-c release -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)

# Builds the release product as users get it (on Linux, Package.swift links the Swift runtime and
# Foundation statically) and prints its path on stdout; the build's own output goes to stderr.
# Rebuilds nothing when the release binary is up to date.
build_release_binary() {
    printf '== swift build %s --product entitlint\n' "${release_build_flags[*]}" >&2
    (cd "$root" && swift build "${release_build_flags[@]}" --product entitlint >&2)
    local path
    path="$(cd "$root" && swift build "${release_build_flags[@]}" --show-bin-path)/entitlint"
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
