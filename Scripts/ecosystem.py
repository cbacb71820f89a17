#!/usr/bin/env python3
"""The ecosystem check: Entitlint on the real apps of ../shared/projects, against the verdicts kept in
Tests/Ecosystem/<case>/labels.tsv (the rubric: REAL-PROJECTS.md, in the docs folder beside the projects).

usage: Scripts/ecosystem.py check   BIN [--projects DIR] [--labels DIR]
       Scripts/ecosystem.py pending BIN [--projects DIR] [--labels DIR] [--out FILE]
       Scripts/ecosystem.py table   BIN [--projects DIR] [--labels DIR]

check    runs ../shared/tools/score-real-projects.py (its lines are the figures to quote), then fails
         (exit 1) when a finding has no verdict for its rule, path, line and severity (a behaviour
         change nobody judged), when a finding judged true or plausible is gone, when a case exits 1
         without a finding judged true or plausible at error, or when a goal is missed: precision
         >= 90% over all findings and >= 97% over errors and warnings. Misses listed in misses.tsv
         that no finding catches are printed as known gaps, not failures.
pending  writes the findings that need a verdict (none, or one given at another severity), with their
         messages, one block per case, to FILE (default: standard output): the brief for a judge.
table    prints per case the findings and their verdicts (a Markdown table, for the contributing page).

Each case is linted as a fresh clone (a temporary copy committed in a git work tree of its own) with
`BIN lint . --format json`, as the scorer does. labels.tsv has the rubric's columns (rule, path, line,
verdict, note) and one more, severity: the severity the verdict was given at.
Needs: python3, git.
"""
import collections, csv, json, os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = {"VERDICT.md", "labels.tsv", "misses.tsv", "misses-not-checkable.md", "NOTES.md", "COMMIT", "CUT.tsv", "_history"}
REAL = ("true", "plausible")
VERDICTS = ("true", "plausible", "false", "noise", "taste")


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def tsv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def lint_case(binary, folder, now):
    """The findings and exit status of `lint .` on a fresh clone of `folder`."""
    name = os.path.basename(folder)
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, name)
        shutil.copytree(folder, d, ignore=lambda p, entries: [e for e in entries if p == folder and e in SKIP])
        for cmd in (["git", "init", "-q"], ["git", "add", "-A"],
                    ["git", "-c", "user.name=x", "-c", "user.email=x@x", "-c", "commit.gpgsign=false", "commit", "-qm", "case"]):
            subprocess.run(cmd, cwd=d, check=True, capture_output=True)
        p = subprocess.run([binary, "lint", ".", "--format", "json"], cwd=d, capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, ENTITLINT_NOW=now))
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{name}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    return p.returncode, json.loads(p.stdout)["findings"]


def judge(findings, labels):
    """Pairs each finding with a label of the same rule, path and line, in order (as the scorer
    does). Returns [(finding, label or None)] and the labels left over."""
    pool = collections.defaultdict(list)
    for row in labels:
        pool[(row["rule"], row["path"], int(row["line"] or 0))].append(row)
    paired = []
    for f in findings:
        key = (f["rule"], f["path"], int(f.get("line") or 0))
        paired.append((f, pool[key].pop(0) if pool.get(key) else None))
    left = [row for rows in pool.values() for row in rows]
    return paired, left


def cases(projects, labels_root, binary, now):
    for name in sorted(n for n in os.listdir(projects) if os.path.isdir(os.path.join(projects, n))):
        status, findings = lint_case(binary, os.path.join(projects, name), now)
        labels = tsv(os.path.join(labels_root, name, "labels.tsv"))
        misses = tsv(os.path.join(labels_root, name, "misses.tsv"))
        yield name, status, findings, labels, misses


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("check", "pending", "table"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    mode, binary = sys.argv[1], os.path.abspath(sys.argv[2])
    projects = option("--projects", os.path.join(ROOT, "..", "shared", "projects"))
    labels_root = option("--labels", os.path.join(ROOT, "Tests", "Ecosystem"))
    now = option("--now", "2026-11-23")
    if not os.path.isdir(projects):
        print(f"ecosystem: {projects} is not a folder (../shared beside the repository holds the real projects)", file=sys.stderr)
        sys.exit(2)

    if mode == "check":
        scorer = os.path.join(projects, "..", "tools", "score-real-projects.py")
        score = subprocess.run([sys.executable, scorer, binary, projects, "--labels", labels_root, "--now", now],
                               capture_output=True, text=True)
        print(score.stdout, end="")

    out = []
    problems, gaps = [], []
    tally = collections.Counter()
    rows_by_case = []
    for name, status, findings, labels, misses in cases(projects, labels_root, binary, now):
        paired, left = judge(findings, labels)
        needs = []
        real_error = False
        for f, label in paired:
            verdict = label["verdict"] if label else None
            same_severity = label is not None and label.get("severity", f["severity"]) == f["severity"]
            if label is None or not same_severity or verdict not in VERDICTS:
                needs.append((f, label))
                problems.append(f"{name}: {'unjudged' if label is None else 'judged at ' + label.get('severity', '?') if not same_severity else 'bad verdict ' + str(verdict)}: "
                                f"{f['rule']} {f['severity']} {f['path']}:{f.get('line') or 0}")
                continue
            tally[verdict] += 1
            if f["severity"] in ("error", "warning"):
                tally["loud_" + verdict] += 1
            if verdict in REAL and f["severity"] == "error":
                real_error = True
        for row in left:
            if row["verdict"] in REAL:
                problems.append(f"{name}: a finding judged {row['verdict']} is gone: {row['rule']} {row['path']}:{row['line']}")
        if status == 1 and not real_error:
            problems.append(f"{name}: exits 1 without a finding judged true or plausible at error")
        for m in misses:
            line = int(m["line"] or 0)
            if not any(f["rule"] == m["rule"] and f["path"] == m["path"] and abs(int(f.get("line") or 0) - line) <= 2 for f in findings):
                gaps.append(f"{name}: {m['rule']} {m['path']}:{m['line']}: {m['what']}")
        if mode == "pending" and needs:
            out.append(f"## {name}\n\nexit status of `entitlint lint .` in a fresh clone: {status}\n")
            for f, label in needs:
                was = f" (judged {label['verdict']} at {label.get('severity', '?')} before)" if label else ""
                out.append(f"- rule `{f['rule']}`, path `{f['path']}`, line {f.get('line') or 0}, severity **{f['severity']}**{was}\n"
                           f"  message: {f['message']}")
            out.append("")
        rows_by_case.append((name, status, paired))

    if mode == "pending":
        text = "\n".join(out) + ("\n" if out else "")
        target = option("--out", None)
        if target:
            with open(target, "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        print(f"ecosystem: {sum(1 for p in problems if ': unjudged' in p or ': judged at' in p)} findings need a verdict", file=sys.stderr)
        return

    if mode == "table":
        print("| case | exit | findings (rule, severity: verdict) |\n|---|---|---|")
        for name, status, paired in rows_by_case:
            if not paired:
                continue
            cells = collections.Counter(f"{f['rule']} ({f['severity']}): {label['verdict'] if label else 'unjudged'}" for f, label in paired)
            print(f"| {name} | {status} | " + "; ".join(f"{k}{' ×' + str(n) if n > 1 else ''}" for k, n in sorted(cells.items())) + " |")
        return

    judged = sum(tally[v] for v in ("true", "plausible", "false", "noise"))
    real = tally["true"] + tally["plausible"]
    loud_judged = sum(tally["loud_" + v] for v in ("true", "plausible", "false", "noise"))
    loud_real = tally["loud_true"] + tally["loud_plausible"]
    precision = real / judged if judged else 1.0
    loud = loud_real / loud_judged if loud_judged else 1.0
    print(f"ecosystem: {judged + tally['taste']} findings judged: {tally['true']} true, {tally['plausible']} plausible, "
          f"{tally['false']} false, {tally['noise']} noise, {tally['taste']} taste; precision {precision:.1%} "
          f"(goal 90%), errors and warnings {loud:.1%} ({loud_real} of {loud_judged}; goal 97%)")
    if precision < 0.90:
        problems.append(f"precision {precision:.1%} is below the goal of 90%")
    if loud < 0.97:
        problems.append(f"precision over errors and warnings {loud:.1%} is below the goal of 97%")
    for g in gaps:
        print("known gap (a miss no finding catches): " + g)
    for p in problems:
        print("FAIL " + p)
    if problems:
        print("ecosystem: failed; `Scripts/ecosystem.py pending BIN` lists the findings to judge")
    sys.exit(1 if problems else 0)


main()
