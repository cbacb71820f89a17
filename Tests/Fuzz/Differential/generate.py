"""Generated and mutated property lists for the differential test.

`valid_cases(rng, n)` makes well-formed plists with every element type, written with the odd but
legal variations real files and tools produce: with or without the XML declaration, the DOCTYPE
and `<plist>`; tabs, spaces, CRLF, no indentation; comments between elements; entities and
numeric character references; CDATA; empty-element forms; duplicate keys; UTF-8 with and without
a BOM and UTF-16 (both byte orders); plus the same values as binary plists (plistlib's writer).

`mutated_cases(rng, valid, n)` derives inputs from those: byte edits (flip, delete, duplicate,
truncate, insert a token from an XML/plist vocabulary) and targeted edits of element content
(odd integers, reals, dates, base64, booleans with text, comments inside strings, an internal
DTD subset, unknown elements, a second root value, ...).

Everything is deterministic for a given seed.
"""

import base64
import datetime
import plistlib
import random

# ---------------------------------------------------------------------------------------------
# Values

STRING_POOL = [
    "", " ", "a", "A.b", " A.b ", "com.example.app", "$(AppIdentifierPrefix)com.example.shared",
    "ABCDE12345.*", "<tag>", "a & b", "quote \" and apos '", "tab\there", "new\nline", "cr\rlf\r\n",
    "caf\u00e9", "\u65e5\u672c\u8a9e", "\U0001F600 emoji", "\u00a0nbsp", "]]>", "--", "<!-- not a comment -->",
    "&amp; literally", "\u200b zero width", "x" * 300, "trailing space ", "\ufeffbom inside",
]
KEY_POOL = [
    "keychain-access-groups", "application-identifier", "com.apple.developer.team-identifier",
    "get-task-allow", "aps-environment", "com.apple.security.application-groups", "k", "key",
    "", " spaced ", "caf\u00e9", "a<b", "a&b", "dup",
]
INT_POOL = [0, 1, -1, 42, -42, 255, 256, 65535, 65536, 2**31 - 1, -2**31, 2**32, 2**53 + 1,
            2**63 - 1, -2**63, 2**63, 2**64 - 1]
REAL_POOL = [0.0, -0.0, 0.5, 1.5, -2.25, 3.141592653589793, 1e10, 1e-10, 1e308, -1e308, 5e-324,
             2.2250738585072014e-308, 123456789.125, float("inf"), float("-inf")]


def random_string(rng):
    if rng.random() < 0.7:
        return rng.choice(STRING_POOL)
    alphabet = "abcXYZ019 .-_$(){}*&<>\"'\t\n\u00e9\u4e2d\U0001F680"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))


def random_date(rng):
    year = rng.choice([1970, 2001, 2024, 1999, 2038, 2100, 1900, rng.randint(1902, 2200)])
    month = rng.randint(1, 12)
    day = rng.randint(1, 28 if month == 2 else 30)
    if rng.random() < 0.1:
        month, day = 2, 29
        year = rng.choice([2000, 2024, 2020])
    return datetime.datetime(year, month, day, rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))


def random_value(rng, depth=0):
    kinds = ["string", "integer", "real", "bool", "date", "data"]
    if depth < 4:
        kinds += ["array", "dict"] * (3 if depth == 0 else 1)
    kind = rng.choice(kinds)
    if kind == "string":
        return random_string(rng)
    if kind == "integer":
        return rng.choice(INT_POOL) if rng.random() < 0.7 else rng.randint(-10**12, 10**12)
    if kind == "real":
        return rng.choice(REAL_POOL) if rng.random() < 0.6 else rng.uniform(-1e6, 1e6)
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "date":
        return random_date(rng)
    if kind == "data":
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
    if kind == "array":
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    # A dict as a list of entries, so duplicate keys can be written.
    entries = []
    for _ in range(rng.randint(0, 6)):
        key = rng.choice(KEY_POOL) if rng.random() < 0.8 else random_string(rng)
        entries.append((key, random_value(rng, depth + 1)))
    if entries and rng.random() < 0.15:
        entries.append((rng.choice(entries)[0], random_value(rng, depth + 1)))
    return Entries(entries)


class Entries(list):
    """A dict's entries in order, duplicates allowed."""


def to_python(value):
    """The plain Python value (last key wins), for plistlib's binary writer."""
    if isinstance(value, Entries):
        out = {}
        for k, v in value:
            out.pop(k, None)
            out[k] = to_python(v)
        return out
    if isinstance(value, list):
        return [to_python(v) for v in value]
    return value


# ---------------------------------------------------------------------------------------------
# XML writer with variations

class Style:
    def __init__(self, rng):
        self.rng = rng
        self.declaration = rng.choice(["utf8", "none", "plain", "utf8-lower", "standalone"])
        self.doctype = rng.choice(["apple", "apple", "old", "none"])
        self.plist_wrapper = rng.random() < 0.85
        self.indent = rng.choice(["\t", "  ", "", " \t "])
        self.newline = rng.choice(["\n", "\n", "\r\n", "", "\n\n"])
        self.comments = rng.random() < 0.25
        self.refs = rng.random() < 0.3          # numeric character references for some chars
        self.cdata = rng.random() < 0.2         # CDATA sections for some strings
        self.empty_forms = rng.random() < 0.5   # <string/>, <dict/>, <false/> ...
        self.spaced_tags = rng.random() < 0.1   # <key >, <true />
        self.encoding = rng.choice(["utf-8"] * 6 + ["utf-8-bom", "utf-16-le", "utf-16-be"])
        self.integer_forms = rng.random() < 0.3  # hex, + sign, surrounding whitespace
        self.data_wrap = rng.choice([0, 0, 8, 12, 76])


def escape_text(s, style):
    rng = style.rng
    if style.cdata and "]]>" not in s and rng.random() < 0.5 and s:
        # Carriage returns inside CDATA are normalised by XML; keep those strings out of CDATA.
        if "\r" not in s:
            return "<![CDATA[" + s + "]]>"
    out = []
    for ch in s:
        if ch == "&":
            out.append("&amp;")
        elif ch == "<":
            out.append("&lt;")
        elif ch == ">":
            # "]]>" is not allowed in XML content, so escape it there.
            out.append("&gt;" if "".join(out).endswith("]]") else rng.choice([">", "&gt;"]))
        elif ch == "\r":
            out.append("&#13;")           # a literal CR would be normalised to LF by XML
        elif ch == '"' and style.refs:
            out.append("&quot;")
        elif ch == "'" and style.refs:
            out.append("&apos;")
        elif style.refs and rng.random() < 0.2 and ch not in "\t\n":
            out.append(rng.choice(["&#%d;" % ord(ch), "&#x%X;" % ord(ch), "&#x%x;" % ord(ch)]))
        else:
            out.append(ch)
    return "".join(out)


def tag(name, style):
    if style.spaced_tags and style.rng.random() < 0.5:
        return "<%s >" % name, "</%s >" % name
    return "<%s>" % name, "</%s>" % name


def empty(name, style):
    if style.spaced_tags and style.rng.random() < 0.5:
        return "<%s />" % name
    if style.empty_forms:
        return "<%s/>" % name
    return "<%s></%s>" % (name, name)


def format_integer(v, style):
    if not style.integer_forms:
        return str(v)
    rng = style.rng
    choice = rng.random()
    if v >= 0 and choice < 0.4:
        return rng.choice(["0x%x", "0x%X", "0X%x"]) % v
    if v >= 0 and choice < 0.6:
        return "+%d" % v
    if choice < 0.8:
        return rng.choice([" ", "\t", "\n"]) + str(v)
    return str(v)


def format_real(v):
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return repr(v)


def format_data(b, style):
    text = base64.b64encode(b).decode()
    if style.data_wrap and text:
        width = style.data_wrap
        lines = [text[i:i + width] for i in range(0, len(text), width)]
        sep = style.newline or "\n"
        return sep + sep.join(style.indent + line for line in lines) + sep
    return text


def write_value(v, style, level, out):
    ind = style.indent * level
    nl = style.newline
    if isinstance(v, bool):
        out.append(ind + (empty("true", style) if v else empty("false", style)) + nl)
    elif isinstance(v, int):
        o, c = tag("integer", style)
        out.append(ind + o + format_integer(v, style) + c + nl)
    elif isinstance(v, float):
        o, c = tag("real", style)
        out.append(ind + o + format_real(v) + c + nl)
    elif isinstance(v, str):
        if v == "" and style.empty_forms:
            out.append(ind + empty("string", style) + nl)
        else:
            o, c = tag("string", style)
            out.append(ind + o + escape_text(v, style) + c + nl)
    elif isinstance(v, datetime.datetime):
        o, c = tag("date", style)
        out.append(ind + o + v.strftime("%Y-%m-%dT%H:%M:%SZ") + c + nl)
    elif isinstance(v, bytes):
        o, c = tag("data", style)
        out.append(ind + o + format_data(v, style) + c + nl)
    elif isinstance(v, Entries):
        if not v and style.empty_forms:
            out.append(ind + empty("dict", style) + nl)
            return
        o, c = tag("dict", style)
        out.append(ind + o + nl)
        for key, item in v:
            maybe_comment(style, level + 1, out)
            ko, kc = tag("key", style)
            out.append(style.indent * (level + 1) + ko + escape_text(key, style) + kc + nl)
            write_value(item, style, level + 1, out)
        out.append(ind + c + nl)
    elif isinstance(v, list):
        if not v and style.empty_forms:
            out.append(ind + empty("array", style) + nl)
            return
        o, c = tag("array", style)
        out.append(ind + o + nl)
        for item in v:
            maybe_comment(style, level + 1, out)
            write_value(item, style, level + 1, out)
        out.append(ind + c + nl)
    else:
        raise TypeError(type(v))


def maybe_comment(style, level, out):
    if style.comments and style.rng.random() < 0.2:
        text = style.rng.choice([" comment ", "", " <string>not a value</string> ", " & < > ", " -x- "])
        out.append(style.indent * level + "<!--" + text + "-->" + style.newline)


def write_xml(value, style):
    nl = style.newline or "\n"
    parts = []
    enc_name = "UTF-16" if style.encoding.startswith("utf-16") else "UTF-8"
    if style.declaration == "utf8" or (style.encoding.startswith("utf-16") and style.declaration != "none"):
        parts.append('<?xml version="1.0" encoding="%s"?>' % enc_name + nl)
    elif style.declaration == "utf8-lower":
        parts.append('<?xml version="1.0" encoding="%s"?>' % enc_name.lower() + nl)
    elif style.declaration == "plain":
        parts.append('<?xml version="1.0"?>' + nl)
    elif style.declaration == "standalone":
        parts.append('<?xml version="1.0" encoding="%s" standalone="yes"?>' % enc_name + nl)
    if style.doctype == "apple":
        parts.append('<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
                     '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">' + nl)
    elif style.doctype == "old":
        parts.append('<!DOCTYPE plist PUBLIC "-//Apple Computer//DTD PLIST 1.0//EN" '
                     '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">' + nl)
    if style.comments and style.rng.random() < 0.5:
        parts.append("<!-- generated -->" + nl)
    body = []
    if style.plist_wrapper:
        body.append('<plist version="1.0">' + style.newline)
        write_value(value, style, 0, body)
        body.append("</plist>" + nl)
    else:
        write_value(value, style, 0, body)
    text = "".join(parts + body)
    if style.encoding == "utf-8":
        return text.encode("utf-8")
    if style.encoding == "utf-8-bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    if style.encoding == "utf-16-le":
        return b"\xff\xfe" + text.encode("utf-16-le")
    return b"\xfe\xff" + text.encode("utf-16-be")


def valid_cases(rng, n):
    """(name, bytes, value) triples: XML in varied styles, and about one in eight binary."""
    cases = []
    for i in range(n):
        value = random_value(rng)
        if rng.random() < 0.125:
            try:
                data = plistlib.dumps(to_python(value), fmt=plistlib.FMT_BINARY, sort_keys=False)
            except (OverflowError, TypeError, ValueError):
                continue
            cases.append(("gen-%05d.bplist" % i, data, value))
        else:
            cases.append(("gen-%05d.plist" % i, write_xml(value, Style(rng)), value))
    return cases


# ---------------------------------------------------------------------------------------------
# Mutations

TOKENS = [
    b"<plist>", b"</plist>", b"<dict>", b"</dict>", b"<dict/>", b"<key>", b"</key>", b"<key>k</key>",
    b"<array>", b"</array>", b"<string>", b"</string>", b"<string/>", b"<integer>", b"</integer>",
    b"<real>", b"</real>", b"<date>", b"</date>", b"<data>", b"</data>", b"<true/>", b"<false/>",
    b"<!--", b"-->", b"<!-- c -->", b"<!-- a--b -->", b"<!---x--->", b"<![CDATA[", b"]]>", b"<![CDATA[x]]>",
    b"&amp;", b"&lt;", b"&gt;", b"&quot;", b"&apos;", b"&#65;", b"&#x41;", b"&#0;", b"&#x1;",
    b"&#xD800;", b"&#x10FFFF;", b"&#x110000;", b"&e;", b"&", b"<", b">", b"\x00", b"\xff", b"\xc3",
    b"\xed\xa0\x80", b"\xef\xbf\xbe", b"<?pi data?>", b"<?xml version=\"1.0\"?>", b"<unknown/>",
    b"<String>", b"<ns:dict xmlns:ns=\"u\">", b" ", b"\t", b"\r\n", b"\x0b", b"\x0c", b"0x", b"-", b"+",
    b"e", b".", b"Z", b"T",
]
INTEGER_TEXTS = [b"", b" ", b"+", b"-", b"0x", b"-0x10", b"+0x10", b"0x-1", b"0X1f", b" 12 ", b"\t7\n", b"1_000",
                 b"1e3", b"1.0", b"07", b"-0", b"+0", b"9223372036854775807", b"9223372036854775808",
                 b"-9223372036854775808", b"-9223372036854775809", b"18446744073709551615",
                 b"18446744073709551616", b"0xFFFFFFFFFFFFFFFF", b"0x10000000000000000", b"- 1",
                 b"\xd9\xa3", b"1 2", b"0x 1", b"00000000000000000000000042"]
REAL_TEXTS = [b"", b" ", b"1", b"-1", b"+1", b".5", b"5.", b"1e3", b"1E-3", b"1e", b"e3", b"1,5", b"0x1p3",
              b"nan", b"NaN", b"-nan", b"inf", b"Inf", b"-inf", b"+inf", b"infinity", b"-Infinity",
              b" 2.5 ", b"1e400", b"-1e400", b"1e-400", b"1_0.5", b"1.5abc", b"\xd9\xa3"]
DATE_TEXTS = [b"2024-01-01T00:00:00Z", b"2024-02-29T12:00:00Z", b"2023-02-29T12:00:00Z", b"2024-13-01T00:00:00Z",
              b"2024-01-32T00:00:00Z", b"2024-01-01T24:00:00Z", b"2024-01-01T23:60:00Z",
              b"2024-01-01T23:59:60Z", b"2024-01-01T00:00:00", b"2024-01-01 00:00:00Z",
              b" 2024-01-01T00:00:00Z ", b"2024-01-01T00:00:00.5Z", b"2024-01-01T00:00:00+01:00",
              b"2024-01-01", b"2024Z", b"0000-01-01T00:00:00Z", b"9999-12-31T23:59:59Z", b"+2024-01-01T00:00:00Z",
              b"24-01-01T00:00:00Z", b"2024-1-1T0:0:0Z", b"2024-01-01T00:00:00z", b""]
DATA_TEXTS = [b"", b"====", b"A", b"AB", b"ABC", b"AB==", b"AB=C", b"QUJD", b"QU JD", b"QUJD\nRA==",
              b"QUJD!!RA==", b"QUJDRA", b"QUJDRA=", b"Q=UJD", b"-_-_", b"\xc3\xa9QUJD", b"QUJD====RA=="]
BOOL_FORMS = [b"<true>x</true>", b"<true> </true>", b"<false>\n</false>", b"<True/>", b"<yes/>", b"<true><!--c--></true>"]
STRUCTURAL = [
    (b"<string>", b"<string><!-- inside -->"),
    (b"</string>", b"<!-- inside --></string>"),
    (b"<key>", b"<key><!-- inside -->"),
    (b"<dict>", b"<dict><string>orphan</string>"),
    (b"<dict>", b"<dict><key>k</key>"),
    (b"</dict>", b"<key>dangling</key></dict>"),
    (b"<array>", b"<array><key>k</key>"),
    (b"</plist>", b"<string>second</string></plist>"),
    (b"<plist version=\"1.0\">", b"<plist version=\"1.0\"><string>first</string>"),
    (b"<plist version=\"1.0\">", b"<plist version=\"1.0\"><plist>"),
    (b"<plist version=\"1.0\">", b"<plist>"),
    (b"<plist version=\"1.0\">", b"<plist version=\"2.0\" extra=\"x\">"),
    (b"<string>", b"<string attr=\"x\">"),
    (b"<dict>", b"<dict xmlns=\"http://www.apple.com/\">"),
    (b"<!DOCTYPE plist PUBLIC", b"<!DOCTYPE plist [ <!ENTITY e \"x\"> ]><!-- -->\n<!-- PUBLIC"),
    (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>", b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"),
    (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>", b"<?xml version=\"1.0\" encoding=\"UTF-16\"?>"),
    (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>", b"<?xml version=\"1.1\" encoding=\"UTF-8\"?>"),
    (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>", b"<?xml version=\"1.0\" encoding=\"ASCII\"?>"),
    (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>", b"  <?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
    (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>", b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><?pi x?>"),
    (b"<true/>", b"<true></true>"),
    (b"<array>", b"<array><unknown/>"),
    (b"<dict>", b"<dict><key>a</key><dict/><key>a</key>"),
    (b"&amp;", b"&ampx;"),
    (b"&lt;", b"&LT;"),
    (b"</plist>", b"</plist>trailing"),
    (b"</plist>", b"</plist><!-- after -->"),
    (b"</plist>", b"</plist><?pi after?>"),
]


def replace_content(data, rng, element, texts):
    opening = b"<" + element + b">"
    closing = b"</" + element + b">"
    starts = []
    i = data.find(opening)
    while i != -1:
        starts.append(i)
        i = data.find(opening, i + 1)
    if not starts:
        return None
    start = rng.choice(starts) + len(opening)
    end = data.find(closing, start)
    if end == -1:
        return None
    return data[:start] + rng.choice(texts) + data[end:]


def mutate(data, rng):
    kind = rng.randrange(12)
    n = len(data)
    if kind == 0 and n:
        i = rng.randrange(n)
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]
    if kind == 1 and n:
        i = rng.randrange(n)
        j = min(n, i + rng.randint(1, 16))
        return data[:i] + data[j:]
    if kind == 2 and n:
        i = rng.randrange(n)
        j = min(n, i + rng.randint(1, 32))
        return data[:j] + data[i:j] + data[j:]
    if kind == 3 and n:
        return data[:rng.randrange(n)]
    if kind == 4:
        i = rng.randrange(n + 1)
        return data[:i] + rng.choice(TOKENS) + data[i:]
    if kind == 5:
        return replace_content(data, rng, b"integer", INTEGER_TEXTS)
    if kind == 6:
        return replace_content(data, rng, b"real", REAL_TEXTS)
    if kind == 7:
        return replace_content(data, rng, b"date", DATE_TEXTS)
    if kind == 8:
        return replace_content(data, rng, b"data", DATA_TEXTS)
    if kind == 9:
        for form in (b"<true/>", b"<false/>", b"<true></true>", b"<false></false>"):
            if form in data:
                return data.replace(form, rng.choice(BOOL_FORMS), 1)
        return None
    if kind == 10:
        options = [(a, b) for a, b in STRUCTURAL if a in data]
        if not options:
            return None
        a, b = rng.choice(options)
        return data.replace(a, b, 1)
    if kind == 11:
        names = [b"string", b"integer", b"real", b"date", b"data", b"key", b"array", b"dict"]
        a, b = rng.sample(names, 2)
        if b"<" + a + b">" in data:
            return data.replace(b"<" + a + b">", b"<" + b + b">", 1)
        return None
    return None


def mutated_cases(rng, valid, n):
    """Mutants of the generated XML cases (UTF-8 ones, so textual edits apply) and of the
    binary ones (byte edits)."""
    sources = [c for c in valid if not c[1].startswith(b"\xff\xfe") and not c[1].startswith(b"\xfe\xff")]
    cases = []
    tries = 0
    while len(cases) < n and tries < n * 20:
        tries += 1
        name, data, _ = rng.choice(sources)
        out = data
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            m = mutate(out, rng)
            if m is not None:
                out = m
        if out == data:
            continue
        cases.append(("mut-%05d-%s" % (len(cases), name), out, None))
    return cases
