# Sourced by the scripts that ship or measure the linter (release.sh, build-wheel.sh, benchmark.sh,
# hostile-inputs.sh, CI) after `set -euo pipefail`
# and after they define `fail` and `root`: the one place that says how the shipped binary is built
# and what makes it self-contained.
# shellcheck shell=bash

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
