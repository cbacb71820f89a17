# shellcheck shell=bash
# git on hostile repositories: one blob far over the file limit, and many paths sharing one 15 MB
# blob (a 260 KB .git once compressed). Sizes are asked before anything is read, each blob is read
# once, and every path is charged to the run's byte budget before its blob is read.

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
g() { git -c init.defaultBranch=main -c commit.gpgsign=false "$@"; }

# One 200 MB entitlements file, committed, then changed and staged.
g init -q big
python3 - big/App.entitlements <<'PY'
import sys
head = b'<?xml version="1.0"?><plist version="1.0"><dict><key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.A</string></array></dict></plist>\n'
with open(sys.argv[1], "wb") as f:
    f.write(head)
    f.write(b"<!--" + b"x" * (200 << 20) + b"-->\n")
PY
(cd big && g add -A && g commit -qm big && echo "<!-- -->" >> App.entitlements && g add -A)
measure "git: --staged, one 200 MB blob" -- sh -c "cd big && exec '$bin' lint --staged"
expect_output "git: --staged, one 200 MB blob" "larger than the limit"
measure "git: --against HEAD, one 200 MB blob" -- sh -c "cd big && exec '$bin' lint --against HEAD App.entitlements"
expect_output "git: --against HEAD, one 200 MB blob" "cannot read this file as it was at revision HEAD"
measure "git: --changed-since HEAD~0, one 200 MB file" -- sh -c "cd big && exec '$bin' lint --changed-since HEAD"

# 400 paths sharing one 15 MB blob.
g init -q shared
python3 - shared <<'PY'
import os, sys
root = sys.argv[1]
body = b'<?xml version="1.0"?><plist version="1.0"><dict><key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.A</string></array></dict></plist>\n<!--' + b"y" * (15 << 20) + b"-->\n"
for i in range(400):
    d = os.path.join(root, "T%03d" % i)
    os.makedirs(d)
    with open(os.path.join(d, "App.entitlements"), "wb") as f:
        f.write(body)
PY
(cd shared && g add -A && g commit -qm shared && du -sk .git | cut -f1 | sed 's/$/ KB of .git for 400 paths x 15 MB/')
(cd shared && for i in 000 001 002; do echo "<!-- $i -->" >> "T$i/App.entitlements"; done && g add -A T000 T001 T002)
measure "git: --against HEAD, 400 paths sharing a 15 MB blob" -- sh -c "cd shared && exec '$bin' lint --against HEAD ."
# Each of the 400 changed differently: 400 distinct 15 MB blobs (6 GB), past the run's budget. With
# the default max-total-bytes (1 GiB) the run reads and parses 1 GiB of them (about 6.5 s of CPU
# here: git inflating them and libxml2 scanning them); the case lowers it to 256 MiB, as a CI
# job linting strangers' pull requests may.
(cd shared && python3 - <<'PY'
for i in range(400):
    with open("T%03d/App.entitlements" % i, "ab") as f:
        f.write(b"<!-- %d -->\n" % i)
PY
g add -A)
measure "git: --staged, 400 distinct changed 15 MB blobs" -- sh -c "cd shared && exec '$bin' lint --staged --max-total-bytes 268435456"
expect_output "git: --staged, 400 distinct changed 15 MB blobs" "limit of bytes read in total"
