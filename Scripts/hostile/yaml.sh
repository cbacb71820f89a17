# YAML nesting (sourced by Scripts/hostile-inputs.sh, in its own empty folder): `.entitlint.yml`
# and an XcodeGen `project.yml` of `BREAK + "- " x 100,000` for every line break libyaml knows
# (LF, CR, CRLF, NEL, LS, PS), compact `? - ` and flow `[` / `[a: ` nesting. Each must be a
# clear error (the configuration) or a parse-error finding (the spec), never a stack overflow.
# shellcheck shell=bash

python3 - <<'PY'
import os
breaks = {"lf": "\n", "cr": "\r", "crlf": "\r\n", "nel": "\u0085", "ls": "\u2028", "ps": "\u2029"}
cases = {name + "-dashes": br + "- " * 100_000 for name, br in breaks.items()}
cases["explicit-keys"] = "? - " * 100_000
cases["flow"] = "[" * 500_000
cases["flow-pairs"] = "[a: " * 200_000
for name, text in cases.items():
    os.makedirs("config-" + name, exist_ok=True)
    with open("config-%s/.entitlint.yml" % name, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.makedirs("spec-" + name, exist_ok=True)
    with open("spec-%s/project.yml" % name, "w", encoding="utf-8", newline="") as f:
        # Flow collections as a value (at the start of a line they would be a simple key, which
        # libyaml refuses past 1,024 characters before any nesting).
        f.write(text if name.endswith("-dashes") else "name: X\nx: " + text if name.startswith("flow") else "name: X\n" + text)
PY

for dir in config-*; do
    name=${dir#config-}
    measure ".entitlint.yml: $name" -- "$bin" lint --config "$dir/.entitlint.yml" "$dir"
    expect_output ".entitlint.yml: $name" "bad configuration: .*nested more than 100 levels deep"
done
for dir in spec-*; do
    name=${dir#spec-}
    measure "project.yml: $name" -- "$bin" lint "$dir"
    expect_output "project.yml: $name" "cannot parse the XcodeGen spec: nested more than 200 levels deep \\[parse-error\\]"
done
