#!/usr/bin/env bash
# Renders `entitlint report --format html` to a PNG with headless Chromium, to look at the page as
# a person would. Nothing is fetched: the page is self-contained, and Chromium is
# started without network-facing features; the HTML goes to a temporary folder removed on exit.
#
# usage: Scripts/render-report-html.sh [FOLDER] [OUT.png] [WIDTHxHEIGHT]
#   FOLDER   what to report on (default: Examples/AppSuite)
#   OUT.png  where to write the picture (default: ./entitlint-report.png)
#   size     the browser window (default: 1400x1700)
# Uses $ENTITLINT when set, else .build-xc/debug/entitlint, .build/debug/entitlint, else `swift build`.
# Needs: chromium (Debian package chromium).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
folder="${1:-$repo/Examples/AppSuite}"
out="${2:-$PWD/entitlint-report.png}"
size="${3:-1400x1700}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [ -z "$browser" ]; then
    echo "render-report-html: no chromium (apt-get install -y chromium)" >&2
    exit 2
fi

entitlint="${ENTITLINT:-}"
if [ -z "$entitlint" ]; then
    for candidate in "$repo/.build-xc/debug/entitlint" "$repo/.build/debug/entitlint"; do
        if [ -x "$candidate" ]; then entitlint="$candidate"; break; fi
    done
fi
if [ -z "$entitlint" ]; then
    (cd "$repo" && swift build >&2)
    entitlint="$repo/.build/debug/entitlint"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/entitlint-html.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
(cd "$folder" && "$entitlint" report --format html -o "$tmp/report.html")

"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
    --window-size="${size/x/,}" --screenshot="$out" "file://$tmp/report.html" >/dev/null 2>"$tmp/chromium.log" || {
    cat "$tmp/chromium.log" >&2
    exit 1
}
echo "wrote $out ($(wc -c <"$out") bytes) from $folder"
