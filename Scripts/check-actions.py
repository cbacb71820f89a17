#!/usr/bin/env python3
"""Checks action.yml (run by Scripts/check-actions.sh, which installs PyYAML and shellcheck is needed).

Usage: check-actions.py ROOT WORKDIR

1. Metadata: name, description, the six inputs, a composite run; every `run` step names its shell
   and holds no `${{ }}` (inputs reach scripts through `env:` only); every `uses:` is pinned to a
   major version; every `inputs.X` the file names is declared.
2. shellcheck on each step's script.
3. The steps run here, with stand-ins for GitHub's runner (GITHUB_OUTPUT, GITHUB_PATH, RUNNER_OS)
   and for curl (a folder of files):
   - download: a release whose checksum matches installs the binary; one whose checksum does not
     fails the step and installs nothing; a tag with no release falls back to a build from source;
   - lint, with the debug build: the bundled wildcard example gives exit-code=1, `::error`
     annotations and a SARIF report; hostile `paths` and `args` (command substitution, backticks,
     `;`, globs) run no command and are passed as plain words;
   - the last step exits with the recorded status (and fails when none was recorded).
"""
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import hashlib

import yaml

root, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
os.makedirs(work, exist_ok=True)
passed = 0
failed = 0


def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok: {what}")
    else:
        failed += 1
        print(f"FAILED: {what}")


with open(os.path.join(root, "action.yml"), encoding="utf-8") as f:
    text = f.read()
action = yaml.safe_load(text)

# 1. Metadata.
check(isinstance(action.get("name"), str) and isinstance(action.get("description"), str), "name and description")
inputs = action.get("inputs", {})
check(set(inputs) == {"version", "paths", "against", "config-from", "sarif", "upload-sarif", "args"}, f"inputs are the seven documented ones: {sorted(inputs)}")
check(all("description" in spec for spec in inputs.values()), "every input has a description")
check(inputs.get("sarif", {}).get("default") == "entitlint.sarif", "sarif defaults to entitlint.sarif")
runs = action.get("runs", {})
check(runs.get("using") == "composite", "a composite action")
steps = runs.get("steps", [])
for step in steps:
    label = step.get("name", step.get("uses", "?"))
    if "run" in step:
        check(step.get("shell") == "bash", f"step '{label}' runs in bash")
        check("${{" not in step["run"], f"step '{label}' has no expression inside its script")
    if "uses" in step:
        check(re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", step["uses"]) is not None, f"step '{label}' pins a full commit SHA: {step['uses']}")
        version_comment = re.search(re.escape(step["uses"]) + r" # (v\d+\.\d+\.\d+)\n", text)
        check(version_comment is not None, f"step '{label}' names the pinned version in a comment")
named = set(re.findall(r"inputs\.([\w-]+)", text))
check(named <= set(inputs), f"every input named is declared: {sorted(named - set(inputs))}")
uses = [step["uses"] for step in steps if "uses" in step]
check(any(u.startswith("actions/cache@") for u in uses), "actions/cache is used")
check(re.search(r"github/codeql-action/upload-sarif@[0-9a-f]{40} # v4\.", text) is not None, "upload-sarif v4 (v3 is deprecated in December 2026)")
check(inputs.get("version", {}).get("default") == "", "version defaults to empty (a build from source) until a release commit writes its tag")
check("action_ref" not in text, "the action's own ref is never used (GitHub does not give it to composite actions reliably)")
fork_skip = [s for s in steps if "fork == true" in s.get("if", "")]
check(len(fork_skip) == 1 and "run" in fork_skip[0] and "::notice" in fork_skip[0]["run"], "a pull request from a fork skips the upload with a notice")
by_id = {step.get("id"): step for step in steps}
last = steps[-1]
check(last.get("if") == "always()" and "ENTITLINT_EXIT" in last.get("env", {}), "the last step always runs and exits with the lint status")
upload = next(step for step in steps if step.get("uses", "").startswith("github/codeql-action/upload-sarif"))
check("fork != true" in upload.get("if", ""), "the upload is skipped on a pull request from a fork")
check(steps.index(upload) < len(steps) - 1 and upload.get("if", "").startswith("always()"), "the upload runs before the exit step, even after a failure")

# 2. shellcheck on every script.
scripts = {}
for index, step in enumerate(steps):
    if "run" in step:
        path = os.path.join(work, f"step{index}.sh")
        with open(path, "w", encoding="utf-8") as f:
            f.write("#!/usr/bin/env bash\n" + step["run"])
        scripts[step.get("id") or f"step{index}"] = path
result = subprocess.run(["shellcheck", "--shell=bash", *scripts.values()], capture_output=True, text=True)
print(result.stdout, end="")
check(result.returncode == 0, f"shellcheck on the {len(scripts)} scripts")


# 3. The steps, run here.
def run_step(step_id, env, cwd, path_prefix=None):
    """Runs one step's script as the runner would; returns (status, outputs, stdout)."""
    output = os.path.join(work, f"{step_id}.output")
    open(output, "w").close()
    environment = {
        "PATH": (path_prefix + os.pathsep if path_prefix else "") + os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/tmp"),
        "GITHUB_OUTPUT": output,
        "GITHUB_PATH": os.path.join(work, "github_path"),
        "RUNNER_OS": "Linux",
        **env,
    }
    process = subprocess.run(["bash", "-e", scripts[step_id]], env=environment, cwd=cwd, capture_output=True, text=True)
    with open(output, encoding="utf-8") as f:
        outputs = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    return process.returncode, outputs, process.stdout + process.stderr


def executable(path, content):
    with open(path, "w", encoding="utf-8") as f:
        f.write(content)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


# A stand-in for curl: `curl ... -o FILE URL` copies the URL's last path part from the release folder, or fails.
release = os.path.join(work, "release")
stand_ins = os.path.join(work, "bin")
os.makedirs(release)
os.makedirs(stand_ins)
executable(os.path.join(stand_ins, "curl"), f"""#!/usr/bin/env bash
out=""; url=""
while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift 2;; -*) shift;; *) url=$1; shift;; esac; done
echo "$url" >> {json.dumps(os.path.join(work, "urls"))}
src={json.dumps(release)}/"${{url##*/}}"
[ -f "$src" ] || {{ echo "curl: (22) 404" >&2; exit 22; }}
cp "$src" "$out"
""")
name = "entitlint-0.1.0-x86_64-linux"
member = os.path.join(work, name)
os.makedirs(member)
executable(os.path.join(member, "entitlint"), "#!/bin/sh\necho stand-in\n")
with tarfile.open(os.path.join(release, name + ".tar.gz"), "w:gz") as archive:
    archive.add(member, arcname=name)
with open(os.path.join(release, name + ".tar.gz"), "rb") as f:
    digest = hashlib.sha256(f.read()).hexdigest()

machine = subprocess.run(["uname", "-m"], capture_output=True, text=True).stdout.strip()
if machine == "x86_64":
    download_env = lambda bin_dir, version: {  # noqa: E731
        "ENTITLINT_VERSION": version,
        "ENTITLINT_ACTION_PATH": root, "ENTITLINT_BIN": bin_dir,
    }
    with open(os.path.join(release, name + ".tar.gz.sha256"), "w") as f:
        f.write(f"{digest}  {name}.tar.gz\n")
    good = os.path.join(work, "good-bin")
    status, outputs, log = run_step("download", download_env(good, "v0.1.0"), work, stand_ins)
    check(status == 0 and outputs.get("installed") == "true", f"download: a matching checksum installs (status {status}, {outputs})")
    check(os.path.isfile(os.path.join(good, "entitlint")), "download: the binary is in ENTITLINT_BIN")
    with open(os.path.join(work, "urls")) as f:
        urls = f.read().split()
    check(f"https://github.com/entitlint/entitlint/releases/download/v0.1.0/{name}.tar.gz" in urls, "download: the release URL")
    check(re.fullmatch(r"[0-9a-f]{32}", outputs.get("source-hash", "")) is not None, "download: a source hash for the cache key")

    with open(os.path.join(release, name + ".tar.gz.sha256"), "w") as f:
        f.write(f"{'0' * 64}  {name}.tar.gz\n")
    bad = os.path.join(work, "bad-bin")
    status, outputs, log = run_step("download", download_env(bad, "v0.1.0"), work, stand_ins)
    check(status != 0 and not os.path.exists(os.path.join(bad, "entitlint")), f"download: a checksum that does not match fails and installs nothing (status {status})")
    os.remove(os.path.join(release, name + ".tar.gz.sha256"))
    status, outputs, log = run_step("download", download_env(bad, "v0.1.0"), work, stand_ins)
    check(status != 0 and not os.path.exists(os.path.join(bad, "entitlint")), f"download: an archive without a checksum fails and installs nothing (status {status})")

    status, outputs, log = run_step("download", download_env(bad, "v9.9.9"), work, stand_ins)
    check(status == 0 and outputs.get("installed") == "false", f"download: no release for the tag: build from source next ({outputs})")
    status, outputs, log = run_step("download", download_env(bad, "$(touch PWNED)"), work, stand_ins)
    check(status == 0 and outputs.get("installed") == "false" and not os.path.exists(os.path.join(work, "PWNED")),
          "download: a version that is no tag is not used in a URL and runs nothing")
else:
    check(False, f"the download step is tested on x86_64 only, this is {machine}")

debug_bin = os.path.join(root, ".build", "debug")
lint_env = lambda paths, args, sarif, against="", config_from="auto": {  # noqa: E731
    "ENTITLINT_BIN": debug_bin, "ENTITLINT_PATHS": paths, "ENTITLINT_ARGS": args,
    "ENTITLINT_SARIF": sarif, "ENTITLINT_AGAINST": against, "ENTITLINT_CONFIG_FROM": config_from,
}
sarif = os.path.join(work, "out.sarif")
status, outputs, log = run_step("lint", lint_env("Examples/cookbook-wildcard/App.entitlements", "", sarif), root)
check(status == 0 and outputs.get("exit-code") == "1", f"lint: the step succeeds and records exit-code=1 ({outputs})")
check("::error file=Examples/cookbook-wildcard/App.entitlements" in log, "lint: a github annotation")
check(outputs.get("sarif-written") == "true" and os.path.isfile(sarif), "lint: the SARIF report is written")
if os.path.isfile(sarif):
    with open(sarif, encoding="utf-8") as f:
        results = json.load(f)["runs"][0]["results"]
    check([r["ruleId"] for r in results] == ["wildcard-access-group"], "lint: the SARIF report holds the finding")

clean = os.path.join(work, "clean")
os.makedirs(clean)
with open(os.path.join(clean, "App.entitlements"), "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict/>\n</plist>\n')
status, outputs, log = run_step("lint", lint_env("", "--fail-on error", "clean.sarif"), clean)
check(status == 0 and outputs.get("exit-code") == "0", f"lint: a clean folder records exit-code=0 ({outputs}): {log.strip()[-200:]}")

hostile = os.path.join(work, "hostile")
os.makedirs(hostile)
open(os.path.join(hostile, "a b.entitlements"), "w").close()
status, outputs, log = run_step(
    "lint",
    lint_env("$(touch PWNED1) `touch PWNED2` ;touch${IFS}PWNED3 *", "$(touch PWNED4)", "hostile.sarif", "HEAD;touch PWNED5"),
    hostile)
check(not any(name.startswith("PWNED") for name in os.listdir(hostile)), f"lint: hostile inputs run no command ({sorted(os.listdir(hostile))})")
check(outputs.get("exit-code") == "2", f"lint: hostile inputs are plain arguments, refused as such (exit-code {outputs.get('exit-code')})")

# On a pull request the configuration comes from the base branch (`config-from: auto`): the pull
# request's own .entitlint.yml, which switches the rule off here, is not read.
pr = os.path.join(work, "pr")
os.makedirs(pr)
git_env = {**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
git = lambda *args: subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=pr, env=git_env, check=True, capture_output=True)  # noqa: E731
shutil.copy(os.path.join(root, "Examples", "cookbook-wildcard", "App.entitlements"), os.path.join(pr, "App.entitlements"))
with open(os.path.join(pr, ".entitlint.yml"), "w") as f:
    f.write("fail-on: error\n")
git("init", "-q")
git("add", "-A")
git("commit", "-qm", "base")
git("update-ref", "refs/remotes/origin/main", "HEAD")
with open(os.path.join(pr, ".entitlint.yml"), "w") as f:
    f.write("ignore: [wildcard-access-group]\n")
pr_event = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main"}
status, outputs, log = run_step("lint", {**lint_env("", "", "pr.sarif"), **pr_event}, pr)
check(outputs.get("exit-code") == "1", f"lint: on a pull request the base branch's configuration is read ({outputs}): {log.strip()[-300:]}")
status, outputs, log = run_step("lint", {**lint_env("", "", "pr.sarif", config_from=""), **pr_event}, pr)
check(outputs.get("exit-code") == "0", f"lint: config-from '' reads the pull request's own configuration ({outputs}): {log.strip()[-300:]}")
status, outputs, log = run_step("lint", lint_env("", "", "pr.sarif"), pr)
check(outputs.get("exit-code") == "0", f"lint: outside a pull request the working tree's configuration is read ({outputs})")
status, outputs, log = run_step("lint", {**lint_env("", "", "pr.sarif"), "GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "$(touch PWNED6)"}, pr)
check(outputs.get("exit-code") == "2" and "cannot fetch the base branch" in log and not os.path.exists(os.path.join(pr, "PWNED6")),
      f"lint: a base branch that cannot be fetched stops the run (exit-code 2) and runs nothing ({outputs}): {log.strip()[-300:]}")

for recorded, expected in [("0", 0), ("1", 1), ("2", 2), ("", 1)]:
    status, _, _ = run_step(last.get("id") or f"step{len(steps) - 1}", {"ENTITLINT_EXIT": recorded}, work)
    check(status == expected, f"exit step: recorded '{recorded}' exits {expected} (got {status})")

print(f"\ncheck-actions: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
