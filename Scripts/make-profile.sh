#!/usr/bin/env bash
# Wraps a property list in a CMS SignedData, like a .mobileprovision / .provisionprofile, signed
# with a throwaway self-signed key. Nothing verifies against Apple: this is for test fixtures and
# examples only.
#
# usage: Scripts/make-profile.sh [--der | --ber] PLIST OUTPUT
#   --der  definite lengths, one primitive OCTET STRING (like Apple's profiles; the default)
#   --ber  indefinite lengths (30 80 ... 00 00) and a constructed OCTET STRING (openssl -stream)
#
# Writes OUTPUT and nothing else: the key and certificate live in a temporary directory that is
# removed on exit. Needs openssl (1.1 or 3.x).
set -euo pipefail

usage() {
    echo "usage: $0 [--der | --ber] PLIST OUTPUT" >&2
    exit 2
}

mode=der
args=()
for arg in "$@"; do
    case "$arg" in
        --der) mode=der ;;
        --ber) mode=ber ;;
        -h|--help) usage ;;
        -*) echo "$0: unknown option $arg" >&2; usage ;;
        *) args+=("$arg") ;;
    esac
done
[ "${#args[@]}" -eq 2 ] || usage
plist=${args[0]}
output=${args[1]}
[ -f "$plist" ] || { echo "$0: no such file: $plist" >&2; exit 1; }
command -v openssl >/dev/null || { echo "$0: openssl not found" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/make-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# A throwaway self-signed signer. RANDFILE=/dev/null keeps openssl 1.1 from writing ~/.rnd.
export RANDFILE=/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -sha256 \
    -subj "/CN=Entitlint Throwaway Profile Signer/O=Entitlint Tests" \
    -keyout "$tmp/key.pem" -out "$tmp/cert.pem" >/dev/null 2>&1

sign=(openssl cms -sign -binary -nodetach -md sha256 -outform DER
      -signer "$tmp/cert.pem" -inkey "$tmp/key.pem" -in "$plist" -out "$tmp/profile")
if [ "$mode" = ber ]; then
    "${sign[@]}" -stream
else
    "${sign[@]}" -noindef
fi

# Check the encoding really is what was asked for: the first line of asn1parse shows the outer
# SEQUENCE's length, "l=inf" for indefinite.
# (No `| head`: with pipefail, openssl's SIGPIPE would end the script.)
parsed=$(openssl asn1parse -inform DER -in "$tmp/profile")
first=${parsed%%$'\n'*}
if [ "$mode" = ber ]; then
    case "$first" in
        *"l=inf"*) ;;
        *)  # Never seen with openssl 1.1 / 3.x, but fail loudly rather than mislabel the file.
            echo "$0: openssl wrote definite lengths for --ber: $first" >&2
            exit 1 ;;
    esac
else
    case "$first" in
        *"l=inf"*) echo "$0: openssl wrote indefinite lengths for --der: $first" >&2; exit 1 ;;
    esac
fi

# The content must come back out unchanged.
openssl cms -verify -noverify -binary -inform DER -in "$tmp/profile" -out "$tmp/content" 2>/dev/null
cmp -s "$tmp/content" "$plist" || { echo "$0: round trip changed the content" >&2; exit 1; }

cp "$tmp/profile" "$output"
