#!/usr/bin/env bash
# Writes Scripts/entitlint.order: the functions a lint run executes, in the order they are first
# met, for the linker (lld's --symbol-ordering-file) to lay out next to each other.
#
# Why: the release binary is 17 MB of code, and what a run executes is scattered through it. Each
# page of code it touches for the first time is a page fault (the kernel maps 64 KiB around it),
# and on this kind of virtual machine a fault costs microseconds: with the functions of a run laid
# out together a one-file run takes about 30 fewer faults and 5% less time (Scripts/benchmark.sh
# uses the file when the toolchain has ld.lld). The order only moves code: a stale file (names
# that no longer exist, new functions missing) costs speed, never correctness.
#
# How: builds the release binary with lld (no order), runs it under valgrind's callgrind on
# `--version`, one entitlements file (text and JSON), and a folder of corpus files, and keeps the
# functions executed that the binary defines.
#
# usage: Scripts/make-link-order.sh
# Needs: swift (with ld.lld), valgrind, python3, ../shared/corpus beside the repo.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="$repo/../shared/corpus/entitlements"
command -v valgrind >/dev/null || { echo "make-link-order: needs valgrind (apt-get install -y valgrind)" >&2; exit 2; }
[ -d "$corpus" ] || { echo "make-link-order: no corpus at $corpus" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cd "$repo"
flags=(-c release --static-swift-stdlib --scratch-path .build-order -Xswiftc -use-ld=lld -Xswiftc -Xclang-linker -Xswiftc -no-pie)
swift build "${flags[@]}" >&2
bin="$(swift build "${flags[@]}" --show-bin-path)/entitlint"
# valgrind cannot read this toolchain's debug information; the symbol table is enough.
objcopy --strip-debug "$bin" "$tmp/entitlint"

mkdir "$tmp/one" "$tmp/many"
cp "$repo/Examples/family/AppOne/AppOne.entitlements" "$tmp/one/App.entitlements" 2>/dev/null \
    || cp "$(ls "$corpus"/*.entitlements | head -1)" "$tmp/one/App.entitlements"
i=0
for f in "$corpus"/*; do
    xmllint --noout "$f" 2>/dev/null || continue
    cp "$f" "$tmp/many/$(printf '%04d' $i).entitlements"
    i=$((i + 1))
    [ $i -lt 200 ] || break
done

run() {  # name folder arguments...
    local name="$1" dir="$2"; shift 2
    (cd "$dir" && valgrind --tool=callgrind --demangle=no --callgrind-out-file="$tmp/$name.out" "$tmp/entitlint" "$@" >/dev/null 2>&1) || true
}
run version "$tmp/one" --version
run one "$tmp/one" lint App.entitlements
run json "$tmp/one" lint --format json App.entitlements
run many "$tmp/many" lint .

nm "$tmp/entitlint" | awk '{ print $NF }' | sort -u >"$tmp/symbols.txt"
python3 - "$tmp" "$repo/Scripts/entitlint.order" <<'PY'
import re, sys
tmp, out = sys.argv[1], sys.argv[2]
defined = set(line.strip() for line in open(f"{tmp}/symbols.txt"))
order, seen = [], set()
for run in ("version", "one", "json", "many"):
    for line in open(f"{tmp}/{run}.out"):
        m = re.match(r"c?fn=\(\d+\) (.+)$", line)
        if m and m.group(1) in defined and m.group(1) not in seen:
            seen.add(m.group(1))
            order.append(m.group(1))
open(out, "w").write("\n".join(order) + "\n")
print(f"wrote {out}: {len(order)} functions", file=sys.stderr)
PY
