#!/usr/bin/env bash
# Hostile inputs at the sizes an outside review used: every input class is handled in under 5 s
# and under 1 GiB of resident memory by the binary users get.
#
# usage: Scripts/hostile-inputs.sh [BIN]
#   BIN   the entitlint binary (default: the shipped release build, Scripts/static-binary.sh)
#
# How: each family is one script in Scripts/hostile/ (sourced in turn, in name order). A family
# writes its inputs into its own temporary folder ($work/FAMILY, removed on exit) and calls
# `measure NAME -- COMMAND...` for each case: the command runs under /usr/bin/time; its wall
# time, CPU time and peak resident memory are printed, with the exit status, and a case over
# 5 s or 1 GiB, or killed by a signal (exit >= 128), fails the script. Exit statuses 0, 1 and 2
# are the linter's own answers (clean, findings, usage) and are accepted; a family may check
# the output further with `expect_output NAME PATTERN` (a grep -E pattern on the last case's
# standard output and error).
#
# Needs: /usr/bin/time (Debian's `time`), python3.
set -euo pipefail
# shellcheck source=Scripts/preamble.sh
source "$(dirname "$0")/preamble.sh"
case "${1:-}" in -h|--help) usage ;; esac

if [ $# -ge 1 ]; then
    bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
else
    # shellcheck source=Scripts/static-binary.sh
    . "$root/Scripts/static-binary.sh"
    bin="$(build_release_binary)"
fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Families run in subshells: failures are counted as lines of a file.
failures_file="$work/.failures"
: >"$failures_file"
last_output=""
fail() { echo "$1" >>"$failures_file"; }

max_seconds=5
max_kib=$((1024 * 1024))

measure() {
    local name=$1; shift
    [ "$1" = "--" ] && shift
    local stats="$work/.time" out="$work/.out" status=0
    /usr/bin/time -f "%e %M %U %S" -o "$stats" "$@" >"$out" 2>&1 || status=$?
    last_output="$out"
    local seconds kib user system
    read -r seconds kib user system < <(tail -n 1 "$stats")
    local cpu
    cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
    local mib=$((kib / 1024)) verdict=ok
    if [ "$status" -ge 128 ] || [ "$status" -gt 2 ]; then verdict="FAILED (exit $status)"; fi
    if awk -v s="$seconds" -v m="$max_seconds" 'BEGIN { exit !(s > m) }'; then verdict="FAILED (over ${max_seconds} s)"; fi
    if [ "$kib" -gt "$max_kib" ]; then verdict="FAILED (over 1 GiB)"; fi
    printf '%-58s %6s s (cpu %6s s) %6s MiB  exit %-3s %s\n' "$name" "$seconds" "$cpu" "$mib" "$status" "$verdict"
    [ "$verdict" = ok ] || fail "$name"
}

expect_output() {
    local name=$1 pattern=$2
    if ! grep -Eq -- "$pattern" "$last_output"; then
        echo "$name: expected output matching /$pattern/, got:" >&2
        head -c 2000 "$last_output" >&2
        fail "$name"
    fi
}

for family in Scripts/hostile/*.sh; do
    [ -e "$family" ] || continue
    name=$(basename "$family" .sh)
    echo "== $name"
    dir="$work/$name"
    mkdir -p "$dir"
    # shellcheck disable=SC1090
    (cd "$dir" && source "$root/$family") || fail "$name (the family script failed)"
done

failures=$(wc -l <"$failures_file")
if [ "$failures" -gt 0 ]; then
    echo "hostile inputs: $failures case(s) over the bounds" >&2
    exit 1
fi
echo "hostile inputs: every case within ${max_seconds} s and 1 GiB"
