#!/usr/bin/env bash
# Fuzz Entitlint's parsers and matchers with libFuzzer.
#
# One harness per parser, in the separate package Tests/Fuzz (never built by the root package):
#   xml-plist     XMLPlistReader.parse            (libxml2 SAX -> PlistNode)
#   binary-plist  BinaryPlistReader.parse         (bplist00)
#   cms-profile   ProfileDecoder.decode           (CMS via swift-asn1, then the embedded plist)
#   yaml-config   Configuration.parse             (.entitlint.yml via YAMLReader)
#   openstep-plist OpenStepPlistReader.parse      (old-style plists: project.pbxproj), then, when it
#                 parses, the Xcode project model (XcodeDiscoverer over in-memory files)
#   macho         ArtifactReader.read of a binary (thin/fat Mach-O, load commands, SuperBlob, XML
#                 entitlements, DER entitlements via swift-asn1, simulator section); the input is
#                 written to a file (/dev/shm, else /tmp), as the reader takes a path
#   ipa           ArtifactReader.read of an .ipa  (the zip reader and inflate, entry checks, Payload
#                 bundles, the executable streamed through the Mach-O reader); also through a file
#   xcconfig      XCConfigEvaluation.evaluate     (an .xcconfig over in-memory files: includes, then
#                 every setting it assigns resolved, nested $( references included)
#   xcodegen      XcodeDiscoverer on project.yml  (XcodeGen spec over in-memory files -> units)
#   glob          Glob.matches                    (first line the pattern, the rest the path)
#   gitignore     GitWorkTree.ignores             (.gitignore files and paths, split at NUL bytes, in
#                 a work tree under /dev/shm, else /tmp)
#   source-scan   SourceScanner.scan, then StringResolver on what it found (first byte: even Swift,
#                 odd Objective-C; the rest is the file): every site and definition resolved
#                 through one memoising StringResolution with a bounded allowance, and each again
#                 on its own (the values must agree); no token walked twice
#   git-output    GitOutput's parsers of git's output (first byte: ls-tree, ls-files --stage, diff
#                 --raw, cat-file --batch-check then --batch)
#
# How:
#   - builds Tests/Fuzz once per call, release, `--sanitize=fuzzer --sanitize=address
#     -Xswiftc -parse-as-library`, in .build-fuzzers/ (git-ignored);
#   - seeds each run from the repository and the shared corpus, copied to
#     .build-fuzzers/runs/HARNESS/seeds (the corpus libFuzzer grows is kept beside it, in
#     .build-fuzzers/runs/HARNESS/corpus, so later runs start where earlier ones stopped; nothing
#     large is written inside the tracked tree):
#       xml-plist     ../shared/corpus/entitlements, Examples/**/*.entitlements, Tests/Fuzz/Seeds/xml-plist
#       binary-plist  the same entitlements converted to bplist00 by python3's plistlib, plus a
#                     few made-up ones (UIDs, shared objects, big integers)
#       cms-profile   ../shared/corpus/profiles, Examples/**/*.mobileprovision
#       yaml-config   Examples/**/.entitlint.yml, Tests/Fuzz/Seeds/yaml-config
#       openstep-plist ../shared/corpus/**/*.pbxproj, Examples/**/*.pbxproj, Tests/Fuzz/Seeds/openstep-plist
#       macho, ipa    Tests/Fuzz/Seeds/macho, Tests/Fuzz/Seeds/ipa (small files written by
#                     Tests/Fuzz/Seeds/make-binary-seeds.py)
#       xcconfig      ../shared/projects/**/*.xcconfig, Examples/**/*.xcconfig, Tests/Fuzz/Seeds/xcconfig
#       xcodegen      ../shared/projects/**/project.yml, Tests/Fuzz/Seeds/xcodegen
#       glob, gitignore Tests/Fuzz/Seeds/glob, Tests/Fuzz/Seeds/gitignore
#       git-output    Tests/Fuzz/Seeds/git-output (real git output, a selector byte in front)
#       source-scan   ../shared/projects/**/*.{swift,m,mm,h} (a language byte put in front),
#                     Tests/Fuzz/Seeds/source-scan
#     plus every input already kept in Tests/Fuzz/Regressions/HARNESS;
#   - runs the harness for SECONDS (-max_total_time) with -rss_limit_mb=2048 -timeout=10 (a
#     single input taking 10 s is a finding), leak detection on (known leaks of dependencies
#     suppressed by Tests/Fuzz/lsan.supp, each with its reason), and a dictionary when there is
#     one (Tests/Fuzz/Dictionaries/HARNESS.dict);
#   - prints the number of executions (libFuzzer's stat::number_of_executed_units);
#   - on a crash, leak, timeout or out-of-memory: copies the input libFuzzer wrote to
#     Tests/Fuzz/Regressions/HARNESS/ (named after its kind and SHA-1), where the regression tests
#     of the matching test target run it through the parser on every `swift test`
#     (PropertyListTests: xml-plist, binary-plist, openstep-plist; ProvisioningTests: cms-profile;
#     EntitlintWorkspaceTests: yaml-config, glob, gitignore, git-output; XcodeProjectTests: openstep-plist through the
#     project model, xcconfig, xcodegen; ArtifactsTests: macho, ipa; SourceCodeTests: source-scan), and
#     exits 1.
#
# usage: Scripts/fuzz.sh [--no-build] HARNESS SECONDS [LIBFUZZER-FLAG ...]
#        Scripts/fuzz.sh [--no-build] --all SECONDS
#        Scripts/fuzz.sh --list
# Needs: swift (with libFuzzer and ASan, as the Linux toolchains ship), python3.
set -euo pipefail

# shellcheck source=Scripts/preamble.sh
. "$(dirname "$0")/preamble.sh"

harnesses=(xml-plist binary-plist cms-profile yaml-config openstep-plist macho ipa xcconfig xcodegen glob gitignore source-scan git-output)
scratch="$root/.build-fuzzers"
corpus="$root/../shared/corpus"

build=1
if [ "${1:-}" = "--no-build" ]; then build=0; shift; fi
[ $# -ge 1 ] || usage
if [ "$1" = "--list" ]; then printf '%s\n' "${harnesses[@]}"; exit 0; fi
[ $# -ge 2 ] || usage
target="$1"; seconds="$2"; shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "fuzz.sh: SECONDS must be a positive integer" >&2; exit 2; }
if [ "$target" = "--all" ]; then
    [ $# -eq 0 ] || { echo "fuzz.sh: --all takes no libFuzzer flags" >&2; exit 2; }
    selected=("${harnesses[@]}")
else
    case " ${harnesses[*]} " in
        *" $target "*) selected=("$target") ;;
        *) echo "fuzz.sh: unknown harness '$target' (known: ${harnesses[*]})" >&2; exit 2 ;;
    esac
fi

executable() {
    case "$1" in
        xml-plist) echo FuzzXMLPlist ;;
        binary-plist) echo FuzzBinaryPlist ;;
        cms-profile) echo FuzzCMSProfile ;;
        yaml-config) echo FuzzYAMLConfig ;;
        openstep-plist) echo FuzzOpenStepPlist ;;
        macho) echo FuzzMachO ;;
        ipa) echo FuzzIPA ;;
        xcconfig) echo FuzzXCConfig ;;
        xcodegen) echo FuzzXcodeGen ;;
        glob) echo FuzzGlob ;;
        gitignore) echo FuzzGitIgnore ;;
        source-scan) echo FuzzSourceScan ;;
        git-output) echo FuzzGitOutput ;;
    esac
}

if [ "$build" -eq 1 ]; then
    echo "== building the fuzz harnesses (release, -sanitize=fuzzer,address) in .build-fuzzers"
    # --sanitize=fuzzer keeps SwiftPM from renaming each executable's entry point, so that
    # libFuzzer's main() links. SwiftPM hands swiftc one -sanitize= flag per sanitizer, in no set
    # order, and swiftc keeps only the last one: without the combined -Xswiftc flag (which comes
    # last) a build had either coverage or ASan, at random. C targets get both -fsanitize flags.
    mkdir -p "$scratch"
    if ! swift build --package-path Tests/Fuzz --scratch-path "$scratch" -c release \
            --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
            -Xswiftc -parse-as-library >"$scratch/build.log" 2>&1; then
        grep -v -e "Cannot export local symbol" "$scratch/build.log" | grep -E "error|rror:" | head -40 >&2
        echo "fuzz.sh: build failed (log: $scratch/build.log)" >&2
        exit 1
    fi
fi
bindir="$(swift build --package-path Tests/Fuzz --scratch-path "$scratch" -c release --show-bin-path)"

# Copies the files of a folder (when it exists) into the seed folder, under a prefix so that
# same-named files of different sources do not overwrite each other.
copy_seeds() { # DEST PREFIX SOURCE-DIR [find-args...]
    local dest="$1" prefix="$2" dir="$3"; shift 3
    [ -d "$dir" ] || return 0
    find "$dir" -type f "$@" -print0 | while IFS= read -r -d '' f; do
        local name="${f#"$dir"/}"
        cp "$f" "$dest/$prefix-${name//\//__}"
    done
}

seed() { # HARNESS DEST
    local h="$1" dest="$2"
    rm -rf "$dest"; mkdir -p "$dest"
    copy_seeds "$dest" regression "Tests/Fuzz/Regressions/$h"
    case "$h" in
        xml-plist)
            copy_seeds "$dest" corpus "$corpus/entitlements"
            copy_seeds "$dest" example Examples -name '*.entitlements'
            copy_seeds "$dest" seed Tests/Fuzz/Seeds/xml-plist ;;
        binary-plist)
            python3 - "$dest" "$corpus/entitlements" Tests/Fuzz/Seeds/xml-plist <<'PY'
import datetime, os, plistlib, sys
dest = sys.argv[1]
n = 0
for folder in sys.argv[2:]:
    if not os.path.isdir(folder):
        continue
    for name in sorted(os.listdir(folder)):
        try:
            with open(os.path.join(folder, name), "rb") as f:
                value = plistlib.load(f)
            data = plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=False)
        except Exception:
            continue
        with open(os.path.join(dest, "converted-%d.bplist" % n), "wb") as f:
            f.write(data)
        n += 1
shared = "shared string"
made_up = {
    "uids": [plistlib.UID(0), plistlib.UID(2**40)],
    "shared": [shared, shared, {"k": shared}],
    "ints": [0, -1, 2**63 - 1, -2**63, 2**64 - 1, 255, 256, 65536],
    "reals": [0.5, -1e300, float("inf")],
    "date": datetime.datetime(2001, 1, 1, 0, 0, 1),
    "data": bytes(range(40)),
    "unicode": "caf\u00e9 \U0001F600",
    "bools": [True, False],
    "empty": [{}, [], "", b""],
}
for i, value in enumerate([made_up, "root string", 42, [made_up, made_up]]):
    with open(os.path.join(dest, "made-up-%d.bplist" % i), "wb") as f:
        f.write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=False))
PY
            ;;
        cms-profile)
            copy_seeds "$dest" corpus "$corpus/profiles"
            copy_seeds "$dest" example Examples -name '*.mobileprovision' ;;
        yaml-config)
            copy_seeds "$dest" example Examples -name '.entitlint.yml'
            copy_seeds "$dest" seed Tests/Fuzz/Seeds/yaml-config ;;
        openstep-plist)
            copy_seeds "$dest" corpus "$corpus" -name '*.pbxproj'
            copy_seeds "$dest" example Examples -name '*.pbxproj'
            copy_seeds "$dest" seed Tests/Fuzz/Seeds/openstep-plist ;;
        xcconfig)
            copy_seeds "$dest" corpus "$root/../shared/projects" -name '*.xcconfig'
            copy_seeds "$dest" example Examples -name '*.xcconfig'
            copy_seeds "$dest" seed Tests/Fuzz/Seeds/xcconfig ;;
        xcodegen)
            copy_seeds "$dest" corpus "$root/../shared/projects" -name 'project.yml'
            copy_seeds "$dest" seed Tests/Fuzz/Seeds/xcodegen ;;
        macho|ipa|glob|gitignore|git-output)
            copy_seeds "$dest" seed "Tests/Fuzz/Seeds/$h" ;;
        source-scan)
            # The harness reads the first byte as the language: 0 for Swift, 1 for Objective-C.
            find "$root/../shared/projects" -type f \( -name '*.swift' -o -name '*.m' -o -name '*.mm' -o -name '*.h' \) -print0 2>/dev/null |
                while IFS= read -r -d '' f; do
                    case "$f" in *.swift) lang='\x00' ;; *) lang='\x01' ;; esac
                    { printf "$lang"; cat "$f"; } >"$dest/project-$(sha1sum <<<"$f" | cut -c1-16)"
                done
            copy_seeds "$dest" seed Tests/Fuzz/Seeds/source-scan ;;
    esac
}

# Known leaks outside Entitlint (each explained in the file) are suppressed; any other leak is a finding.
export LSAN_OPTIONS="suppressions=$root/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

status=0
summary=()
for h in "${selected[@]}"; do
    exe="$bindir/$(executable "$h")"
    [ -x "$exe" ] || { echo "fuzz.sh: $exe is missing (run without --no-build)" >&2; exit 1; }
    work="$scratch/runs/$h"
    mkdir -p "$work/corpus" "$work/artifacts"
    rm -f "$work/artifacts/"*
    seed "$h" "$work/seeds"
    flags=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -detect_leaks=1
           -print_final_stats=1 -artifact_prefix="$work/artifacts/")
    [ -f "Tests/Fuzz/Dictionaries/$h.dict" ] && flags+=(-dict="Tests/Fuzz/Dictionaries/$h.dict")
    # Guard against an uninstrumented build: libFuzzer must see coverage and ASan must be in.
    # (Captured first: with pipefail, `objdump | grep -q` can fail on SIGPIPE.)
    # A seed that already crashes or leaks stops libFuzzer before INITED: that is a finding for the
    # run below, not a missing instrumentation (the probe's own artifacts are thrown away).
    probe="$("$exe" -runs=1 -artifact_prefix="$work/artifacts/probe-" "$work/seeds" 2>&1 || true)"
    rm -f "$work/artifacts/probe-"*
    sections="$(objdump -h "$bindir/PropertyList.build/XMLPlistReader.swift.o" 2>&1 || true)"
    if ! grep -q -e "INITED cov: [1-9]" -e "found in the initial corpus" -e "^==[0-9]*== *ERROR" <<<"$probe" \
            || ! grep -q "asan_globals" <<<"$sections"; then
        echo "fuzz.sh: $exe lacks coverage or ASan instrumentation" >&2
        exit 1
    fi
    echo "== $h: ${seconds}s, $(find "$work/seeds" -type f | wc -l) seeds, $(find "$work/corpus" -type f | wc -l) inputs in the kept corpus"
    set +e
    # Without -close_fd_mask stdout of the harness is kept; libFuzzer's own log goes to stderr.
    "$exe" "${flags[@]}" "$@" "$work/corpus" "$work/seeds" >"$work/log.txt" 2>&1
    rc=$?
    set -e
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log.txt" | tail -1)"
    tail -n 3 "$work/log.txt" | sed 's/^/   /'
    found=("$work/artifacts/"*)
    if [ "$rc" -ne 0 ] || [ -e "${found[0]}" ]; then
        status=1
        mkdir -p "Tests/Fuzz/Regressions/$h"
        for a in "${found[@]}"; do
            [ -e "$a" ] || continue
            kind="$(basename "$a" | cut -d- -f1)"
            keep="Tests/Fuzz/Regressions/$h/$kind-$(sha1sum "$a" | cut -c1-16)"
            cp "$a" "$keep"
            echo "   FOUND ($kind): kept as $keep"
        done
        grep -m 20 -E "^==[0-9]+==ERROR|SUMMARY|Fatal error|Assertion|#[0-9]+ 0x" "$work/log.txt" | sed 's/^/   /' || true
        echo "   full log: $work/log.txt"
        summary+=("$h: FAILED (exit $rc) after ${execs:-?} executions")
    else
        summary+=("$h: ${execs:-?} executions, no crash, leak or timeout")
    fi
done

echo "== summary"
printf '   %s\n' "${summary[@]}"
exit "$status"
