#!/usr/bin/env bash
# Differential test of the plist reader: Entitlint's reader against
# Foundation's PropertyListSerialization (CoreFoundation's parser) and CPython's plistlib.
#
# How:
#   - builds the root package's Provisioning target (and so PropertyList and swift-asn1) in
#     .build-differential/root, then links the small tool Tests/Fuzz/Differential/Tool/*.swift
#     against those objects with swiftc (only the reader's own modules are built, so work in
#     progress elsewhere in the package cannot break this run);
#   - runs Tests/Fuzz/Differential/differential.py: the corpus (../shared/corpus entitlements,
#     the plists inside its profiles, its plain-plist "profiles"), Examples/ and the fuzz seeds,
#     then N generated well-formed plists (every element type, odd white space, entities,
#     comments, CDATA, UTF-8/UTF-16, duplicate keys, binary) and M mutations of them;
#   - prints, per group of inputs, how often each parser accepts and the agreement rates
#     (Entitlint = Foundation, Entitlint = plistlib), the disagreements with Foundation that
#     Tests/Fuzz/DIFFERENCES.md explains, and plistlib's by category;
#   - exits 1 when a disagreement with Foundation is not explained (listed in
#     .build-differential/run/unexplained.txt).
#
# usage: Scripts/differential.sh [--quick] [--seed S] [--generated N] [--mutated M] [--show K] [--no-build]
#   --quick      for CI: 300 generated and 1,200 mutated inputs (default 3,000 and 12,000)
#   --show K     examples printed per category (default 3)
# Needs: swift (with Foundation), python3, pkg-config and libxml2's headers.
set -euo pipefail

# shellcheck source=Scripts/preamble.sh
. "$(dirname "$0")/preamble.sh"

generated=3000
mutated=12000
seed=6
show=3
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) generated=300; mutated=1200 ;;
        --seed) seed="$2"; shift ;;
        --generated) generated="$2"; shift ;;
        --mutated) mutated="$2"; shift ;;
        --show) show="$2"; shift ;;
        --no-build) build=0 ;;
        *) usage ;;
    esac
    shift
done

scratch="$root/.build-differential"
tool="$scratch/bin/PlistDifferential"
if [ "$build" -eq 1 ]; then
    echo "== building the reader (swift build --target Provisioning) and the differential tool"
    mkdir -p "$scratch/bin"
    if ! swift build --scratch-path "$scratch/root" -c release --target Provisioning >"$scratch/build.log" 2>&1; then
        grep -E "error" "$scratch/build.log" | head -20 >&2
        echo "differential.sh: build failed (log: $scratch/build.log)" >&2
        exit 1
    fi
    bin="$(swift build --scratch-path "$scratch/root" -c release --show-bin-path)"
    # shellcheck disable=SC2046
    swiftc -O -parse-as-library -module-name PlistDifferential Tests/Fuzz/Differential/Tool/*.swift \
        -I "$bin/Modules" -I Sources/CLibXML2 $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g') \
        "$bin"/PropertyList.build/*.o "$bin"/Provisioning.build/*.o "$bin"/SwiftASN1.build/*.o \
        -lxml2 -o "$tool" 2>&1 | grep -v "warning:" | grep -E "error" >&2 || true
    [ -x "$tool" ] || { echo "differential.sh: linking the tool failed" >&2; exit 1; }
fi

python3 Tests/Fuzz/Differential/differential.py --tool "$tool" --work "$scratch/run" \
    --corpus "$root/../shared/corpus" --repo "$root" --seed "$seed" \
    --generated "$generated" --mutated "$mutated" --show "$show"
