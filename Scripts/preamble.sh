# Sourced by the repository's scripts after `set -euo pipefail`: defines `usage`, which prints the
# calling script's own usage block (its comment lines from `# usage:` to `# Needs:`) and exits 2,
# and sets `root` to the repository root and enters it, so that every path is relative to it.
# shellcheck shell=bash

usage() {
    sed -n '/^# usage:/,/^# Needs:/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 2
