#!/usr/bin/env python3
"""Differential test of Entitlint's plist reader.

Each input is read by three parsers:
  E  Entitlint's reader (PropertyListReader.parse), through the PlistDifferential tool;
  F  Foundation's PropertyListSerialization (CoreFoundation's CFPropertyList parser), same tool;
  P  CPython's plistlib (expat for XML), in this process.
For each pair (E, F) and (E, P) the results agree when both reject, or both accept with equal
values after normalisation: dicts last-key-wins and unordered, integers by value, reals equal
within 1e-12 relative (NaN equals NaN), dates as whole seconds since 1970, data as bytes.

Inputs: the corpus (../shared/corpus entitlements, and the plists inside its profiles), the
repository's examples and fuzz seeds, and generated + mutated plists (generate.py).

Every disagreement with Foundation must be explained by an entry of KNOWN (each names its section
in Tests/Fuzz/DIFFERENCES.md); an unexplained one makes the run fail. Disagreements with plistlib
are counted and summarised by category (plistlib is a reference, not the target).

usage: differential.py --tool PATH --work DIR [--generated N] [--mutated N] [--seed S]
                       [--corpus DIR] [--repo DIR] [--show N]
"""

import argparse
import collections
import datetime
import json
import math
import os
import plistlib
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

EPOCH = datetime.datetime(1970, 1, 1)


# ---------------------------------------------------------------------------------------------
# Canonical values

def from_tagged(v):
    """The tool's JSON form -> comparable Python form."""
    tag, body = v[0], v[1]
    if tag == "s":
        return ("s", body)
    if tag == "i":
        return ("i", int(body))
    if tag == "r":
        return ("r", float(body))
    if tag == "b":
        return ("b", bool(body))
    if tag == "d":
        # Entitlint keeps whole seconds, rounded towards the past.
        return ("d", math.floor(float(body)))
    if tag == "x":
        return ("x", body)
    if tag == "u":
        return ("u", int(body))
    if tag == "a":
        return ("a", tuple(from_tagged(x) for x in body))
    if tag == "D":
        last = {}
        for key, item in body:
            last[key] = from_tagged(item)
        return ("D", tuple(sorted(last.items())))
    return ("?", str(body))


def from_python(v):
    """plistlib's value -> comparable form."""
    if isinstance(v, bool):
        return ("b", v)
    if isinstance(v, int):
        return ("i", v)
    if isinstance(v, float):
        return ("r", v)
    if isinstance(v, str):
        return ("s", v)
    if isinstance(v, (bytes, bytearray)):
        return ("x", bytes(v).hex())
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return ("d", math.floor((v - EPOCH).total_seconds()))
    if isinstance(v, plistlib.UID):
        return ("u", v.data)
    if isinstance(v, list):
        return ("a", tuple(from_python(x) for x in v))
    if isinstance(v, dict):
        return ("D", tuple(sorted((k, from_python(x)) for k, x in v.items())))
    return ("?", repr(v))


def same(a, b):
    if a[0] != b[0]:
        return False
    if a[0] == "r":
        x, y = a[1], b[1]
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        if math.isinf(x) or math.isinf(y):
            return x == y
        return x == y or abs(x - y) <= 1e-12 * max(abs(x), abs(y))
    if a[0] == "a":
        return len(a[1]) == len(b[1]) and all(same(x, y) for x, y in zip(a[1], b[1]))
    if a[0] == "D":
        return (len(a[1]) == len(b[1])
                and all(ka == kb and same(va, vb) for (ka, va), (kb, vb) in zip(a[1], b[1])))
    return a[1] == b[1]


def first_difference(a, b, path="$"):
    """Where two values first differ, for reports."""
    if a[0] != b[0]:
        return "%s: %s vs %s" % (path, short(a), short(b))
    if a[0] == "a":
        if len(a[1]) != len(b[1]):
            return "%s: array of %d vs %d" % (path, len(a[1]), len(b[1]))
        for i, (x, y) in enumerate(zip(a[1], b[1])):
            if not same(x, y):
                return first_difference(x, y, "%s[%d]" % (path, i))
    if a[0] == "D":
        ka, kb = [k for k, _ in a[1]], [k for k, _ in b[1]]
        if ka != kb:
            return "%s: keys %r vs %r" % (path, sorted(set(ka) - set(kb))[:3], sorted(set(kb) - set(ka))[:3])
        for (k, x), (_, y) in zip(a[1], b[1]):
            if not same(x, y):
                return first_difference(x, y, "%s.%s" % (path, k))
    return "%s: %s vs %s" % (path, short(a), short(b))


def short(v):
    text = repr(v)
    return text if len(text) <= 120 else text[:117] + "..."


# ---------------------------------------------------------------------------------------------
# Running the parsers

def run_plistlib(data):
    try:
        fmt = plistlib.FMT_BINARY if data.startswith(b"bplist00") else plistlib.FMT_XML
        return {"ok": True, "value": from_python(plistlib.loads(data, fmt=fmt))}
    except RecursionError:
        return {"ok": False, "error": "RecursionError"}
    except Exception as e:  # plistlib raises many kinds: InvalidFileException, ValueError, ExpatError...
        return {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}


def run_tool(tool, paths, work):
    """E and F results for every path. Restarts after a crash of the tool, recording the crash
    against the parser that was running."""
    results = {}
    start = 0
    while start < len(paths):
        list_file = os.path.join(work, "list.txt")
        with open(list_file, "w") as f:
            f.write("\n".join(paths[start:]) + "\n")
        proc = subprocess.Popen([tool, list_file], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        last_n, last_p = -1, "F"
        for line in proc.stdout:
            row = json.loads(line)
            n = start + row["n"]
            results.setdefault(n, {})[row["p"]] = row["r"]
            last_n, last_p = n, row["p"]
        code = proc.wait()
        if code == 0:
            break
        crashed = last_n + 1 if last_p == "F" else last_n
        side = "E" if last_p == "F" else "F"
        results.setdefault(crashed, {})[side] = {"ok": False, "error": "CRASH (exit %d)" % code}
        if side == "E":
            results[crashed]["F"] = {"ok": False, "error": "not run (E crashed)"}
        start = crashed + 1
    return results


def normalise(result):
    if result.get("ok") and "value" in result and not isinstance(result["value"], tuple):
        return {"ok": True, "value": from_tagged(result["value"])}
    return result


def agree(a, b):
    if a["ok"] != b["ok"]:
        return False
    return not a["ok"] or same(a["value"], b["value"])


def describe(a, b, names):
    if a["ok"] and b["ok"]:
        return "values differ: " + first_difference(a["value"], b["value"])
    if a["ok"]:
        return "%s accepts, %s rejects: %s" % (names[0], names[1], b["error"][:160])
    return "%s rejects: %s; %s accepts" % (names[0], a["error"][:160], names[1])


# ---------------------------------------------------------------------------------------------
# Known differences with Foundation (each is a section of Tests/Fuzz/DIFFERENCES.md)

def contains_any(data, needles):
    return any(n in data for n in needles)


def known_difference(data, e, f):
    """The DIFFERENCES.md section that explains an E/F disagreement, or None."""
    err_e = "" if e["ok"] else e["error"]
    err_f = "" if f["ok"] else f["error"]
    if "CRASH" in err_f:
        return "Foundation crashes"
    for check in KNOWN:
        section = check(data, e, f, err_e, err_f)
        if section:
            return section
    return None


KNOWN = []  # each returns the DIFFERENCES.md section that explains the case, or None


def known(fn):
    KNOWN.append(fn)
    return fn


def text_of(data):
    """The document as text (BOM or UTF-16 detected the simple way), for the checks below."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(codec, "replace")
    return data.decode("utf-8", "replace")


@known
def stricter_xml(data, e, f, err_e, err_f):
    if not e["ok"] and f["ok"] and err_e.startswith(("malformedXML", "invalidEncoding")):
        return "1. Not well-formed XML: Entitlint rejects, CF reads on"
    return None


@known
def stricter_structure(data, e, f, err_e, err_f):
    if not e["ok"] and f["ok"] and err_e.startswith(("invalidStructure", "forbiddenDTD")):
        return "2. Plist structure CF tolerates: Entitlint rejects"
    return None


@known
def stricter_dates(data, e, f, err_e, err_f):
    if not e["ok"] and f["ok"] and err_e.startswith("invalidDate"):
        return "3. Dates CF normalises or reads with other year lengths: Entitlint rejects"
    return None


@known
def binary_variants(data, e, f, err_e, err_f):
    if not e["ok"] and f["ok"] and data.startswith(b"bplist"):
        return "4. Binary plists CF reads and Entitlint rejects"
    if not e["ok"] and f["ok"] and not data.lstrip()[:1] in (b"<", b"\xef", b"\xff", b"\xfe"):
        return "4. Binary plists CF reads and Entitlint rejects"  # CF's old-style (OpenStep) text fallback
    return None


@known
def data_non_ascii(data, e, f, err_e, err_f):
    if e["ok"] and not f["ok"] and "Could not interpret <data>" in err_f and "invalid character" in err_f:
        return "5. Non-ASCII bytes in <data>: skipped (keychain-access-groups.md section 5), Foundation on Linux rejects"
    return None


RAW_LEAF = re.compile(r"<(integer|date|data|true|false)\s*>[^<]*(&|<!\[CDATA\[)")


@known
def references_in_leaves(data, e, f, err_e, err_f):
    if RAW_LEAF.search(text_of(data)) and (e["ok"] or f["ok"]):
        return "6. References and CDATA inside <integer>, <date>, <data>, <true>, <false>"
    return None


def binary_markers(data):
    """The marker byte of every object of a well-formed-enough binary plist."""
    try:
        size, _, count, _, table = struct.unpack(">6xBBQQQ", data[-32:])
        if size < 1 or size > 8 or count > len(data):
            return set()
        offsets = [int.from_bytes(data[table + i * size: table + (i + 1) * size], "big") for i in range(count)]
        return {data[o] for o in offsets if o < len(data)}
    except (struct.error, ValueError, IndexError):
        return set()


@known
def empty_utf16_string(data, e, f, err_e, err_f):
    if e["ok"] and not f["ok"] and data.startswith(b"bplist00") and 0x60 in binary_markers(data):
        return "8. An empty UTF-16 string in a binary plist: Foundation on Linux rejects it"
    return None


def without_cr(v):
    if v[0] == "s":
        return ("s", v[1].replace("\r\n", "\n").replace("\r", "\n"))
    if v[0] == "a":
        return ("a", tuple(without_cr(x) for x in v[1]))
    if v[0] == "D":
        return ("D", tuple(sorted((k.replace("\r\n", "\n").replace("\r", "\n"), without_cr(x)) for k, x in v[1])))
    return v


@known
def carriage_returns(data, e, f, err_e, err_f):
    if e["ok"] and f["ok"] and b"\r" in data.replace(b"\x00", b"") and same(without_cr(e["value"]), without_cr(f["value"])):
        return "7. Carriage returns inside text: XML turns them into line feeds, CF keeps them"
    return None


# ---------------------------------------------------------------------------------------------
# Main

def collect_corpus(args, work):
    inputs = []
    corpus = args.corpus
    folders = [(os.path.join(corpus, "entitlements"), "corpus-entitlements")]
    profiles = os.path.join(corpus, "profiles")
    extracted = os.path.join(work, "profile-plists")
    if os.path.isdir(profiles):
        os.makedirs(extracted, exist_ok=True)
        subprocess.run([args.tool, "extract-cms", profiles, extracted], check=True, stdout=subprocess.DEVNULL)
        folders.append((extracted, "corpus-profile-plists"))
        # Profiles that are plain plists (keychain-access-groups.md section 6) are compared as they are.
        for name in sorted(os.listdir(profiles)):
            with open(os.path.join(profiles, name), "rb") as fh:
                head = fh.read(1)
            if head and head != b"\x30":
                inputs.append(("corpus-profile-files", os.path.join(profiles, name)))
    for sub in ("Examples", "Tests/Fuzz/Seeds/xml-plist"):
        root = os.path.join(args.repo, sub)
        for dirpath, _, files in os.walk(root):
            for name in sorted(files):
                if name.endswith((".entitlements", ".plist")):
                    inputs.append(("repo-examples-seeds", os.path.join(dirpath, name)))
    for folder, group in folders:
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                inputs.append((group, os.path.join(folder, name)))
    return inputs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--corpus", default="")
    ap.add_argument("--repo", default=".")
    ap.add_argument("--generated", type=int, default=2000)
    ap.add_argument("--mutated", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--show", type=int, default=3, help="examples shown per category")
    args = ap.parse_args()

    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    cases_dir = os.path.join(work, "cases")
    os.makedirs(cases_dir)

    inputs = collect_corpus(args, work) if args.corpus else []
    rng = generate.random.Random(args.seed)
    valid = generate.valid_cases(rng, args.generated)
    mutated = generate.mutated_cases(rng, valid, args.mutated)
    for group, cases in (("generated", valid), ("mutated", mutated)):
        for name, data, _ in cases:
            path = os.path.join(cases_dir, name)
            with open(path, "wb") as fh:
                fh.write(data)
            inputs.append((group, path))

    paths = [p for _, p in inputs]
    tool_results = run_tool(os.path.abspath(args.tool), paths, work)

    groups = collections.OrderedDict()
    unexplained = []
    explained = collections.Counter()
    explained_examples = collections.defaultdict(list)
    plistlib_categories = collections.Counter()
    plistlib_examples = collections.defaultdict(list)
    for n, (group, path) in enumerate(inputs):
        with open(path, "rb") as fh:
            data = fh.read()
        e = normalise(tool_results[n]["E"])
        f = normalise(tool_results[n]["F"])
        p = run_plistlib(data)
        g = groups.setdefault(group, collections.Counter())
        g["inputs"] += 1
        g["E accepts"] += e["ok"]
        g["F accepts"] += f["ok"]
        g["P accepts"] += p["ok"]
        if agree(e, f):
            g["E=F"] += 1
        else:
            section = known_difference(data, e, f)
            if section:
                explained[section] += 1
                if len(explained_examples[section]) < args.show:
                    explained_examples[section].append((path, describe(e, f, ("E", "F"))))
            else:
                unexplained.append((group, path, describe(e, f, ("E", "F"))))
        if agree(e, p):
            g["E=P"] += 1
        else:
            category = plistlib_category(data, e, p)
            plistlib_categories[category] += 1
            if len(plistlib_examples[category]) < args.show:
                plistlib_examples[category].append((path, describe(e, p, ("E", "P"))))

    total = collections.Counter()
    print("%-24s %7s %9s %9s %9s %14s %14s" % ("inputs", "count", "E accepts", "F accepts", "P accepts",
                                              "E=Foundation", "E=plistlib"))
    for group, g in groups.items():
        total.update(g)
        print_row(group, g)
    print_row("all", total)

    print("\nDisagreements with Foundation explained by Tests/Fuzz/DIFFERENCES.md:")
    for section, count in sorted(explained.items()):
        print("  %5d  %s" % (count, section))
        for path, what in explained_examples[section]:
            print("           e.g. %s: %s" % (os.path.basename(path), what))
    if not explained:
        print("  none")
    print("\nDisagreements with plistlib, by category:")
    for category, count in plistlib_categories.most_common():
        print("  %5d  %s" % (count, category))
        for path, what in plistlib_examples[category]:
            print("           e.g. %s: %s" % (os.path.basename(path), what))
    if unexplained:
        print("\nUNEXPLAINED disagreements with Foundation: %d" % len(unexplained))
        for group, path, what in unexplained[: max(args.show * 10, 30)]:
            print("  %s (%s): %s" % (path, group, what))
        with open(os.path.join(work, "unexplained.txt"), "w") as fh:
            for group, path, what in unexplained:
                fh.write("%s\t%s\t%s\n" % (group, path, what))
        return 1
    print("\nEvery disagreement with Foundation is explained.")
    return 0


def print_row(name, g):
    n = g["inputs"] or 1
    print("%-24s %7d %9d %9d %9d %7d %5.1f%% %7d %5.1f%%" % (
        name, g["inputs"], g["E accepts"], g["F accepts"], g["P accepts"],
        g["E=F"], 100.0 * g["E=F"] / n, g["E=P"], 100.0 * g["E=P"] / n))


def plistlib_category(data, e, p):
    """A coarse label for an E/P disagreement (plistlib is a reference, not the target)."""
    if e["ok"] and p["ok"]:
        return "both accept, values differ"
    if e["ok"]:
        return "plistlib rejects: " + p["error"].split(":")[0]
    return "plistlib accepts, Entitlint rejects: " + e["error"].split(":")[0]


if __name__ == "__main__":
    sys.exit(main())
