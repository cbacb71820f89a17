#!/usr/bin/env python3
"""Validates an Entitlint report against the real schema of its format.

    python3 Scripts/validate-report.py sarif  REPORT [SCHEMA_DIR]
    python3 Scripts/validate-report.py gitlab REPORT [SCHEMA_DIR]
    python3 Scripts/validate-report.py json   REPORT [SCHEMA_DIR]
    python3 Scripts/validate-report.py report REPORT [SCHEMA_DIR]

SCHEMA_DIR defaults to ../shared/schemas next to the repository. Exit status: 0 valid, 1 invalid
(each problem on a line), 2 bad usage, 3 the `jsonschema` package is missing.

- sarif: the whole log against `sarif-schema-2.1.0.json` (draft-04, so `Draft4Validator`), then
  what GitHub code scanning asks on top ("SARIF support for code scanning"): `$schema`, rules with
  short and full descriptions (at most 1024 characters) and help text and Markdown, a `ruleIndex`
  pointing at the result's rule, a location with a relative, percent-encoded URI, `startLine` >= 1,
  and `partialFingerprints.primaryLocationLineHash`.
  A result's `properties` (units, notes, help) and `fixes` (each replacement a byte range of a
  file below the root) are checked too.
- gitlab: a JSON array, each element against `gitlab-codequality-codeclimate.json` (GitLab applies
  the schema per element), fingerprints unique, severities among GitLab's five.
- json: Entitlint's own report against `Rules/reference/report.schema.json` in this repository
  (SCHEMA_DIR is not read), then what the schema cannot say: every edit's `end` is not before
  its `start`, and the summary counts the findings of each severity.
- report: the access report of `entitlint report --format json` against
  `Rules/reference/access-report.schema.json` in this repository (SCHEMA_DIR is not read), then
  what the schema cannot say: unit names are unique, and every name the report uses (sections,
  group members, defaults, code, findings) is one of them; every unit stands in exactly one
  section, of its own target, which lists its configuration; a unit's first entry, and only it, is
  the default; the matrix's groups are exactly the units' entries (members, defaults, target
  counts); and a finding sits on the unit it names, or on a group that unit is a member of.

XML formats are checked with `xmllint --noout --schema` directly (see the tests).
"""
import json
import os
import re
import sys

try:
    import jsonschema
except ImportError:
    print("the Python package jsonschema is not installed (pip install jsonschema)", file=sys.stderr)
    sys.exit(3)

# RFC 3986: a relative reference made of unreserved characters, `/` and percent-encodings.
RELATIVE_URI = re.compile(r"^(?:[A-Za-z0-9\-._~/]|%[0-9A-F]{2})+$")
FILE_URI = re.compile(r"^file:///(?:[A-Za-z0-9\-._~/]|%[0-9A-F]{2})*$")


def schema_errors(validator_class, schema, instance, where=""):
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    return [f"{where}{'/'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}"
            for e in validator.iter_errors(instance)]


def check_sarif(log, schema_dir):
    with open(os.path.join(schema_dir, "sarif-schema-2.1.0.json")) as f:
        schema = json.load(f)
    problems = schema_errors(jsonschema.Draft4Validator, schema, log)
    if not log.get("$schema"):
        problems.append("$schema is missing")
    if log.get("version") != "2.1.0":
        problems.append("version is not 2.1.0")
    for r, run in enumerate(log.get("runs", [])):
        driver = run.get("tool", {}).get("driver", {})
        rules = driver.get("rules")
        if not driver.get("name"):
            problems.append(f"runs/{r}: tool.driver.name is missing")
        if not isinstance(rules, list) or not rules:
            problems.append(f"runs/{r}: tool.driver.rules is missing or empty")
            rules = []
        for i, rule in enumerate(rules):
            where = f"runs/{r}/tool/driver/rules/{i} ({rule.get('id')})"
            for key in ("shortDescription", "fullDescription"):
                text = rule.get(key, {}).get("text", "")
                if not text:
                    problems.append(f"{where}: {key}.text is missing")
                if len(text) > 1024:
                    problems.append(f"{where}: {key}.text is longer than 1024 characters")
            if not rule.get("help", {}).get("text"):
                problems.append(f"{where}: help.text is missing")
            if not rule.get("help", {}).get("markdown"):
                problems.append(f"{where}: help.markdown is missing")
            if rule.get("defaultConfiguration", {}).get("level") not in ("note", "warning", "error"):
                problems.append(f"{where}: defaultConfiguration.level is not note, warning or error")
        for i, result in enumerate(run.get("results", [])):
            where = f"runs/{r}/results/{i}"
            index = result.get("ruleIndex")
            if not isinstance(index, int) or not 0 <= index < len(rules):
                problems.append(f"{where}: ruleIndex {index} is not an index into the rules")
            elif rules[index].get("id") != result.get("ruleId"):
                problems.append(f"{where}: ruleIndex {index} names {rules[index].get('id')}, not {result.get('ruleId')}")
            if result.get("level") not in ("note", "warning", "error"):
                problems.append(f"{where}: level is not note, warning or error")
            if not result.get("message", {}).get("text"):
                problems.append(f"{where}: message.text is missing")
            locations = result.get("locations") or []
            if not locations:
                problems.append(f"{where}: no location")
            else:
                physical = locations[0].get("physicalLocation", {})
                uri = physical.get("artifactLocation", {}).get("uri", "")
                if not (RELATIVE_URI.match(uri) or FILE_URI.match(uri)):
                    problems.append(f"{where}: artifactLocation.uri {uri!r} is not a percent-encoded relative path")
                if uri.startswith("/") or uri.startswith("../"):
                    problems.append(f"{where}: artifactLocation.uri {uri!r} is not below the repository root")
                region = physical.get("region")
                if region is not None and not (isinstance(region.get("startLine"), int) and region["startLine"] >= 1):
                    problems.append(f"{where}: region.startLine is not >= 1")
            if not result.get("partialFingerprints", {}).get("primaryLocationLineHash"):
                problems.append(f"{where}: partialFingerprints.primaryLocationLineHash is missing")
            properties = result.get("properties", {})
            for key in ("units", "notes"):
                if key in properties and not (isinstance(properties[key], list) and all(isinstance(x, str) for x in properties[key])):
                    problems.append(f"{where}: properties.{key} is not a list of strings")
            if "help" in properties and not isinstance(properties["help"], str):
                problems.append(f"{where}: properties.help is not a string")
            for j, fix in enumerate(result.get("fixes", [])):
                if fix.get("properties", {}).get("applicability") not in ("safe", "unsafe"):
                    problems.append(f"{where}/fixes/{j}: properties.applicability is not safe or unsafe")
                for change in fix.get("artifactChanges", []):
                    uri = change.get("artifactLocation", {}).get("uri", "")
                    if uri.startswith("/") or uri.startswith("../"):
                        problems.append(f"{where}/fixes/{j}: artifactLocation.uri {uri!r} is not below the repository root")
                    for replacement in change.get("replacements", []):
                        deleted = replacement.get("deletedRegion", {})
                        if not (isinstance(deleted.get("byteOffset"), int) and isinstance(deleted.get("byteLength"), int)):
                            problems.append(f"{where}/fixes/{j}: a replacement's deletedRegion is not a byte range")
    return problems


def check_gitlab(issues, schema_dir):
    with open(os.path.join(schema_dir, "gitlab-codequality-codeclimate.json")) as f:
        schema = json.load(f)
    if not isinstance(issues, list):
        return ["the report is not a JSON array"]
    problems = []
    seen = set()
    for i, issue in enumerate(issues):
        problems += schema_errors(jsonschema.Draft7Validator, schema, issue, where=f"[{i}]/")
        if issue.get("severity") not in ("info", "minor", "major", "critical", "blocker"):
            problems.append(f"[{i}]: severity {issue.get('severity')!r} is not one GitLab knows")
        fingerprint = issue.get("fingerprint")
        if fingerprint in seen:
            problems.append(f"[{i}]: fingerprint {fingerprint} is not unique")
        seen.add(fingerprint)
        location = issue.get("location", {})
        path = location.get("path", "")
        if not path or path.startswith("/"):
            problems.append(f"[{i}]: location.path {path!r} is not a relative path")
        begin = location.get("lines", {}).get("begin")
        if not isinstance(begin, int) or begin < 1:
            problems.append(f"[{i}]: location.lines.begin is not >= 1")
    return problems


def check_json(report, here):
    with open(os.path.join(here, "..", "Rules", "reference", "report.schema.json")) as f:
        schema = json.load(f)
    problems = schema_errors(jsonschema.Draft7Validator, schema, report)
    if problems or not isinstance(report, dict):
        return problems
    counts = {"error": 0, "warning": 0, "note": 0}
    for i, finding in enumerate(report["findings"]):
        counts[finding["severity"]] += 1
        for e, edit in enumerate(finding.get("fix", {}).get("edits", [])):
            if edit["end"] < edit["start"]:
                problems.append(f"findings/{i}/fix/edits/{e}: end {edit['end']} is before start {edit['start']}")
    summary = report["summary"]
    for severity, key in (("error", "errors"), ("warning", "warnings"), ("note", "notes")):
        if summary[key] != counts[severity]:
            problems.append(f"summary.{key} is {summary[key]}, but {counts[severity]} findings are {severity}s")
    return problems


def check_access_report(report, here):
    with open(os.path.join(here, "..", "Rules", "reference", "access-report.schema.json")) as f:
        schema = json.load(f)
    problems = schema_errors(jsonschema.Draft7Validator, schema, report)
    if problems or not isinstance(report, dict):
        return problems
    units = report["units"]
    names = [u["name"] for u in units]
    known = set(names)
    if len(known) != len(names):
        problems.append("units: a unit name is used twice")
    by_name = {u["name"]: u for u in units}
    # Each unit in exactly one section, of its own target, whose configurations include its own.
    placed = {}
    for t, target in enumerate(report["targets"]):
        for s, section in enumerate(target["sections"]):
            where = f"targets/{t}/sections/{s}"
            for name in section["units"]:
                if name not in known:
                    problems.append(f"{where}: unit {name!r} is not in units")
                    continue
                if name in placed:
                    problems.append(f"{where}: unit {name!r} is also in {placed[name]}")
                placed[name] = where
                unit = by_name[name]
                if unit.get("target", unit["name"]) != target["target"] or unit.get("project") != target.get("project"):
                    problems.append(f"{where}: unit {name!r} is not of target {target['target']!r}")
                if "configuration" in unit and unit["configuration"] not in section["configurations"]:
                    problems.append(f"{where}: unit {name!r} is of configuration {unit['configuration']!r}, which the section does not list")
    for name in names:
        if name not in placed:
            problems.append(f"targets: unit {name!r} is in no section")
    # The matrix is the units' lists: each group's members, defaults and targets.
    expected = {}
    for i, unit in enumerate(units):
        if unit["findings"] and any(m["unit"] != unit["name"] for m in unit["findings"]):
            problems.append(f"units/{i}/findings: a finding names another unit")
        for e, entry in enumerate(unit["groups"]):
            if entry["isDefault"] != (e == 0):
                problems.append(f"units/{i}/groups/{e}: isDefault is {entry['isDefault']}, but only the first entry is the default")
            family = "appGroups" if entry["kind"] == "app-group" else "keychainGroups"
            members, defaults, targets = expected.setdefault((family, entry["group"]), ([], [], set()))
            if unit["name"] not in members:
                members.append(unit["name"])
            if entry["isDefault"]:
                defaults.append(unit["name"])
            targets.add((unit.get("project"), unit.get("target", unit["name"]), unit["platform"]))
    seen = set()
    for family in ("keychainGroups", "appGroups"):
        for g, group in enumerate(report[family]):
            where = f"{family}/{g}"
            key = (family, group["group"])
            if key in seen:
                problems.append(f"{where}: group {group['group']!r} is listed twice")
            seen.add(key)
            if key not in expected:
                problems.append(f"{where}: group {group['group']!r} is in no unit's list")
                continue
            members, defaults, targets = expected[key]
            if sorted(group["members"]) != sorted(members):
                problems.append(f"{where}: members {group['members']} are not the units that list it {members}")
            if sorted(group["defaultFor"]) != sorted(defaults):
                problems.append(f"{where}: defaultFor {group['defaultFor']} is not the units whose default it is {defaults}")
            if group["targets"] > len(members):
                problems.append(f"{where}: targets {group['targets']} is more than its {len(members)} members")
            for name in group.get("namedBy", []):
                if name not in group["members"]:
                    problems.append(f"{where}/namedBy: {name!r} is not a member")
            for m, mark in enumerate(group["findings"]):
                if mark["unit"] not in group["members"]:
                    problems.append(f"{where}/findings/{m}: unit {mark['unit']!r} is not a member")
    for key in expected:
        if key not in seen:
            problems.append(f"{key[0]}: group {key[1]!r} of a unit's list is missing")
    return problems


def main(argv):
    if len(argv) not in (3, 4) or argv[1] not in ("sarif", "gitlab", "json", "report"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    schema_dir = argv[3] if len(argv) == 4 else os.path.join(here, "..", "..", "shared", "schemas")
    with open(argv[2], "rb") as f:
        raw = f.read()
    if raw.startswith(b"\xef\xbb\xbf"):
        print(f"{argv[2]}: starts with a byte order mark")
        return 1
    document = json.loads(raw)
    if argv[1] == "json":
        problems = check_json(document, here)
    elif argv[1] == "report":
        problems = check_access_report(document, here)
    elif argv[1] == "sarif":
        problems = check_sarif(document, schema_dir)
    else:
        problems = check_gitlab(document, schema_dir)
    for p in problems:
        print(f"{argv[2]}: {p}")
    if not problems:
        print(f"{argv[2]}: valid {'access' if argv[1] == 'report' else argv[1]} report")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
