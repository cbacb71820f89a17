#!/usr/bin/env python3
"""Writes the seeds of the `macho` and `ipa` harnesses into Tests/Fuzz/Seeds/{macho,ipa}.

Run once by hand (`python3 Tests/Fuzz/Seeds/make-binary-seeds.py`); the output is committed, so
fuzz.sh does not need this script. Every file is small (a few hundred bytes to a few kilobytes):
libFuzzer mutates small inputs fastest, and each seed exists to reach one branch of the readers.

Layouts: <mach-o/loader.h> (mach_header, load_command, segment_command(_64), section(_64),
linkedit_data_command), <mach-o/fat.h> (fat_header, fat_arch, fat_arch_64) and the code
signature's SuperBlob (big-endian: magic 0xfade0cc0, length, count, index of (type, offset);
slot 0 the CodeDirectory, 5 the XML entitlements 0xfade7171, 7 the DER entitlements 0xfade7172).
"""
import os
import plistlib
import struct
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))

ARM64 = (0x0100000C, 0)
ARM64E = (0x0100000C, 2)
X86_64 = (0x01000007, 3)
I386 = (7, 3)
PPC = (0x12, 0)


# --- DER entitlements: [APPLICATION 16] { INTEGER 1, [CONTEXT 16] SET OF SEQUENCE { key, value } }

def der(tag, body):
    n = len(body)
    if n < 0x80:
        head = bytes([n])
    else:
        length = n.to_bytes((n.bit_length() + 7) // 8, "big")
        head = bytes([0x80 | len(length)]) + length
    return bytes([tag]) + head + body


def der_value(v):
    if isinstance(v, bool):
        return der(0x01, b"\xff" if v else b"\x00")
    if isinstance(v, int):
        return der(0x02, v.to_bytes(max(1, (v + (v < 0)).bit_length() // 8 + 1), "big", signed=True))
    if isinstance(v, str):
        return der(0x0C, v.encode())
    if isinstance(v, list):
        return der(0x30, b"".join(der_value(x) for x in v))
    if isinstance(v, dict):
        pairs = sorted(der(0x30, der_value(k) + der_value(x)) for k, x in v.items())
        return der(0xB0, b"".join(pairs))
    raise TypeError(v)


def der_entitlements(d):
    return der(0x70, der_value(1) + der_value(d))


def xml_entitlements(d):
    return plistlib.dumps(d, fmt=plistlib.FMT_XML)


# --- Mach-O

def blob(magic, payload):
    return struct.pack(">II", magic, 8 + len(payload)) + payload


def super_blob(xml=None, der_=None):
    slots = [(0, blob(0xFADE0C02, b"\x00" * 24))]   # a CodeDirectory stand-in
    if xml is not None:
        slots.append((5, blob(0xFADE7171, xml)))
    if der_ is not None:
        slots.append((7, blob(0xFADE7172, der_)))
    offset = 12 + 8 * len(slots)
    index, data = b"", b""
    for kind, b in slots:
        index += struct.pack(">II", kind, offset + len(data))
        data += b
    return struct.pack(">III", 0xFADE0CC0, offset + len(data), len(slots)) + index + data


def macho(cpu, is64=True, big=False, xml=None, der_=None, signed=True, simulator=None, filler=64):
    """A thin Mach-O: header, __TEXT (with __entitlements when `simulator`), LC_CODE_SIGNATURE."""
    e = ">" if big else "<"
    header_size = 32 if is64 else 28
    seg_size = 72 if is64 else 56
    sect_size = 80 if is64 else 68
    sections = 1 if simulator is not None else 0
    commands_size = seg_size + sections * sect_size + (16 if signed else 0)
    body_start = header_size + commands_size + filler
    section_offset = body_start
    signature_offset = body_start + (len(simulator) if simulator is not None else 0)
    signature = super_blob(xml, der_) if signed else b""
    signature_offset = (signature_offset + 15) // 16 * 16

    def name(s):
        return s.encode().ljust(16, b"\x00")

    # segment: cmd, cmdsize, segname, vmaddr, vmsize, fileoff, filesize, maxprot, initprot, nsects, flags
    if is64:
        seg = struct.pack(e + "II16sQQQQiiII", 0x19, seg_size + sections * sect_size, name("__TEXT"),
                          0, body_start, 0, body_start, 5, 5, sections, 0)
    else:
        seg = struct.pack(e + "II16sIIIIiiII", 0x1, seg_size + sections * sect_size, name("__TEXT"),
                          0, body_start, 0, body_start, 5, 5, sections, 0)
    if simulator is not None:
        # section: sectname, segname, addr, size, offset, align, reloff, nreloc, flags, reserved...
        if is64:
            seg += struct.pack(e + "16s16sQQIIIIIIII", name("__entitlements"), name("__TEXT"),
                               section_offset, len(simulator), section_offset, 0, 0, 0, 0, 0, 0, 0)
        else:
            seg += struct.pack(e + "16s16sIIIIIIIII", name("__entitlements"), name("__TEXT"),
                               section_offset, len(simulator), section_offset, 0, 0, 0, 0, 0, 0)
    commands = seg
    ncmds = 1
    if signed:
        commands += struct.pack(e + "IIII", 0x1D, 16, signature_offset, len(signature))
        ncmds += 1
    magic = 0xFEEDFACF if is64 else 0xFEEDFACE
    header = struct.pack(e + "IiiIIII", magic, cpu[0], cpu[1], 2, ncmds, len(commands), 0)
    if is64:
        header += b"\x00" * 4
    out = header + commands + b"\xcc" * filler
    if simulator is not None:
        out += simulator
    out = out.ljust(signature_offset, b"\x00")
    return out + signature


def fat(slices, wide=False):
    """A fat file: big-endian header and table, each slice aligned to 2^6 bytes."""
    n = len(slices)
    table_size = n * (32 if wide else 20)
    offset = (8 + table_size + 63) // 64 * 64
    table, data = b"", b""
    for cpu, bytes_ in slices:
        here = offset + len(data)
        if wide:
            table += struct.pack(">iiQQII", cpu[0], cpu[1], here, len(bytes_), 6, 0)
        else:
            table += struct.pack(">iiIII", cpu[0], cpu[1], here, len(bytes_), 6)
        data += bytes_
        data = data.ljust((len(data) + 63) // 64 * 64, b"\x00")
    head = struct.pack(">II", 0xCAFEBABF if wide else 0xCAFEBABE, n) + table
    return head.ljust(offset, b"\x00") + data


ENTITLEMENTS = {
    "application-identifier": "ABCDE12345.com.example.App",
    "com.apple.developer.team-identifier": "ABCDE12345",
    "keychain-access-groups": ["ABCDE12345.com.example.App", "ABCDE12345.*"],
    "com.apple.security.application-groups": ["group.com.example"],
    "get-task-allow": False,
    "aps-environment": "production",
}
NESTED = {
    "com.apple.application-identifier": "ABCDE12345.com.example.Mac",
    "com.apple.security.app-sandbox": True,
    "nested": {"n": -300, "big": 2**40, "list": [True, "caf\u00e9", 0, {"k": []}]},
}
OTHER = dict(ENTITLEMENTS, **{"get-task-allow": True})


def macho_seeds():
    return {
        "thin-arm64-xml-der": macho(ARM64, xml=xml_entitlements(ENTITLEMENTS), der_=der_entitlements(ENTITLEMENTS)),
        "thin-arm64-der-only": macho(ARM64E, der_=der_entitlements(NESTED)),
        "thin-x86_64-simulator": macho(X86_64, signed=False, simulator=xml_entitlements(ENTITLEMENTS)),
        "thin-i386-simulator-signed": macho(I386, is64=False, simulator=xml_entitlements(NESTED), der_=der_entitlements(NESTED)),
        "thin-ppc-big-endian": macho(PPC, is64=False, big=True, xml=xml_entitlements(OTHER)),
        "thin-unsigned": macho(ARM64, signed=False),
        "fat-disagreeing-slices": fat([(ARM64, macho(ARM64, xml=xml_entitlements(ENTITLEMENTS), der_=der_entitlements(ENTITLEMENTS))),
                                       (X86_64, macho(X86_64, xml=xml_entitlements(OTHER)))]),
        "fat64-der": fat([(ARM64E, macho(ARM64E, der_=der_entitlements(ENTITLEMENTS))),
                          (ARM64, macho(ARM64, signed=False))], wide=True),
    }


# --- .ipa: Payload/App.app/{Info.plist, App, embedded.mobileprovision?, PlugIns/...}

def info(bundle_id, executable):
    return plistlib.dumps({"CFBundleIdentifier": bundle_id, "CFBundleExecutable": executable}, fmt=plistlib.FMT_BINARY)


def zip_bytes(files, compression):
    path = os.path.join(HERE, ".tmp.zip")
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, data in files:
            if name.endswith("/"):
                z.writestr(zipfile.ZipInfo(name), b"")
            else:
                z.writestr(name, data)
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    return data


def zip64_bytes(files):
    """Deflated entries whose local headers carry ZIP64 sizes (force_zip64), with data descriptors
    left to zipfile (it writes none for seekable files)."""
    path = os.path.join(HERE, ".tmp.zip")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            with z.open(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), "w", force_zip64=True) as f:
                f.write(data)
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    return data


def ipa_seeds():
    app = macho(ARM64, xml=xml_entitlements(ENTITLEMENTS), der_=der_entitlements(ENTITLEMENTS), filler=16)
    appex = macho(ARM64, der_=der_entitlements({"application-identifier": "ABCDE12345.com.example.App.Share"}), filler=16)
    return {
        "stored-app": zip_bytes([
            ("Payload/", b""),
            ("Payload/App.app/Info.plist", info("com.example.App", "App")),
            ("Payload/App.app/App", app),
        ], zipfile.ZIP_STORED),
        "deflated-app-with-extension": zip_bytes([
            ("Payload/App.app/Info.plist", xml_entitlements({"CFBundleIdentifier": "com.example.App", "CFBundleExecutable": "App"})),
            ("Payload/App.app/App", app),
            ("Payload/App.app/PlugIns/Share.appex/Info.plist", info("com.example.App.Share", "Share")),
            ("Payload/App.app/PlugIns/Share.appex/Share", appex),
            ("Payload/App.app/embedded.mobileprovision", b"not a profile"),
        ], zipfile.ZIP_DEFLATED),
        "stored-macos-layout-and-unsafe-paths": zip_bytes([
            ("Payload/Mac.app/Contents/Info.plist", info("com.example.Mac", "Mac")),
            ("Payload/Mac.app/Contents/MacOS/Mac", macho(X86_64, xml=xml_entitlements(NESTED), filler=16)),
            ("../escape", b"x"),
            ("/absolute", b"x"),
        ], zipfile.ZIP_STORED),
        "zip64-local-headers": zip64_bytes([
            ("Payload/App.app/Info.plist", info("com.example.App", "App")),
            ("Payload/App.app/App", app),
        ]),
    }


def write(folder, seeds):
    os.makedirs(folder, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    total = sum(len(d) for d in seeds.values())
    print("%s: %d files, %d bytes" % (os.path.relpath(folder), len(seeds), total), file=sys.stderr)


if __name__ == "__main__":
    write(os.path.join(HERE, "macho"), macho_seeds())
    write(os.path.join(HERE, "ipa"), ipa_seeds())
