#!/usr/bin/env bash
# Copies this work tree as it is on disk (tracked and untracked files git does not ignore, committed
# or not) into DEST, a new git repository, and commits it there; with --tag TAG, also tags it.
# Used by the end-to-end scripts so that they test what is on disk, not the last commit.
# Usage: bash Scripts/snapshot-worktree.sh DEST [--tag TAG]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
git_id=(-c user.name=entitlint-e2e -c user.email=e2e@example.com -c commit.gpgsign=false -c init.defaultBranch=main)
mkdir -p "$dest"
(cd "$root" && git ls-files -z --cached --others --exclude-standard) |
    while IFS= read -r -d '' f; do
        [ -f "$root/$f" ] || continue
        mkdir -p "$dest/$(dirname "$f")"
        cp -p "$root/$f" "$dest/$f"
    done
git -C "$dest" "${git_id[@]}" init -q
git -C "$dest" add -A
git -C "$dest" "${git_id[@]}" commit -qm snapshot
if [ "${2:-}" = --tag ]; then git -C "$dest" "${git_id[@]}" tag "$3"; fi
echo "snapshot: $(git -C "$dest" ls-files | wc -l) files"
