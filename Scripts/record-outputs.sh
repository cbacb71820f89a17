#!/bin/sh
# Records what an entitlint binary prints (stdout, stderr, exit status) for every example folder
# and every shared real project, in every lint and report format, plus the help of each
# subcommand, into OUT_DIR: one file per stream. Two such folders compared with `diff -r` show
# whether a change of the code changed any output. The date is pinned (ENTITLINT_NOW), colour off.
#
# Usage: Scripts/record-outputs.sh BIN OUT_DIR [PROJECTS_DIR]
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
projects=${3:-../shared/projects}
export ENTITLINT_NOW=2025-01-15 NO_COLOR=1 SWIFT_BACKTRACE=enable=no
unset GITHUB_STEP_SUMMARY || true
mkdir -p "$out"
out=$(cd "$out" && pwd)

# run NAME ARGS...: runs the binary from the current folder, keeps its three results.
run() {
    name=$1; shift
    set +e
    "$bin" "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
    echo $? >"$out/$name.status"
    set -e
    # A crash's backtrace holds addresses and the binary's name: keep what precedes it, up to
    # the runtime's message.
    if [ "$(cat "$out/$name.status")" -ge 128 ]; then
        sed -i '/Fatal error/q' "$out/$name.stderr"
    fi
}

run help --help
for cmd in $("$bin" --help | awk '/^SUBCOMMANDS:/ {on=1; next} on && /^  [a-z]/ {print $1}'); do
    run "help-$cmd" "$cmd" --help
done
run rules rules

# The formats `lint --help` and `report --help` list.
lint_formats="text json sarif junit checkstyle github gitlab"
report_formats="text markdown json dot html"

for dir in Examples/*/ "$projects"/*/; do
    [ -d "$dir" ] || continue
    key=$(echo "$dir" | sed 's#/$##; s#[/.]#_#g')
    (
        cd "$dir"
        for f in $lint_formats; do run "$key.lint-$f" lint --format "$f"; done
        run "$key.lint-statistics" lint --statistics
        for f in $report_formats; do run "$key.report-$f" report --format "$f"; done
    )
done
