#!/usr/bin/python3
"""Generate the reader parity corpus: what Python's own readers make of TOML and INI texts,
and what jsonschema's Draft7Validator says of documents.

    /usr/bin/python3 tests/formats/gen_corpus.py

writes tests/fixtures/formats/toml.jsonl and tests/fixtures/formats/ini.jsonl, one case per
line: {"name", "text", "value"} where "value" is what the Python reader returned, or
{"name", "text", "error"} with Python's message when it refused the text. test_formats.c
reads every case with assay's reader and requires the same value, member order included, or
an error. Deterministic (seed SEED); stdlib only (tomllib needs Python >= 3.11), plus
python3-jsonschema (4.10, Debian 12) for tests/fixtures/formats/schema.jsonl: {"name",
"schema", "instance", "errors": [[json_path, validator, message], ...]} in iter_errors order,
which test_verify_schema.c holds the json_schema verifier to. Schema cases whose errors change
with PYTHONHASHSEED (jsonschema walks a set for additionalProperties) are left out.

Value encoding: JSON as json.dumps writes it (NaN, Infinity, big integers exact); a date or
time is {"$datetime": "offset"|"local"|"date"|"time", "text": isoformat()}.

Where assay documents a divergence (toml.h: integers beyond 64 bits and float literals beyond
the double range are errors in toml++), the case carries "assay": "error" and the reason.
"""
import configparser
import datetime
import json
import math
import os
import random
import re
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, 'tests', 'fixtures', 'formats')
SEED = 20240707


def encode(v):
    if isinstance(v, bool) or v is None or isinstance(v, (int, float, str)):
        return v
    if isinstance(v, dict):
        return {k: encode(x) for k, x in v.items()}
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, datetime.datetime):
        return {'$datetime': 'offset' if v.tzinfo else 'local', 'text': v.isoformat()}
    if isinstance(v, datetime.date):
        return {'$datetime': 'date', 'text': v.isoformat()}
    if isinstance(v, datetime.time):
        return {'$datetime': 'time', 'text': v.isoformat()}
    raise TypeError(type(v))


def walk(v):
    if isinstance(v, dict):
        for x in v.values():
            yield from walk(x)
    elif isinstance(v, list):
        for x in v:
            yield from walk(x)
    else:
        yield v


# ---------------------------------------------------------------------------------------------
# TOML

BARE = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'


class TomlGen:
    def __init__(self, rnd):
        self.r = rnd
        self.n = 0

    def key(self):
        r = self.r
        self.n += 1
        k = r.choice(['k', 'key', 'a', 'b_c', 'x-y', '1', 'Über', 'a.b', 'sp ace', '', 'ｋ'])
        k = k + str(self.n)
        c = r.random()
        if c < 0.6 and re.fullmatch('[A-Za-z0-9_-]+', k):
            return k
        if c < 0.8:
            return '"' + k.replace('\\', '\\\\').replace('"', '\\"') + '"'
        return "'" + k + "'"

    def dotted(self, parts=None):
        parts = parts or self.r.choice([1, 1, 1, 2, 3])
        sep = self.r.choice(['.', '.', ' . ', '. '])
        return sep.join(self.key() for _ in range(parts))

    def string(self):
        r = self.r
        c = r.randrange(6)
        body = ''.join(r.choice(['a', 'Z', ' ', 'é', '✓', '😀', '#', '=', '[', ']', "'", ',',
                                 '.', '0', '\t']) for _ in range(r.randrange(8)))
        if c == 0:
            esc = r.choice(['\\b', '\\t', '\\n', '\\f', '\\r', '\\"', '\\\\', '\\u00e9',
                            '\\U0001F600', '\\u0000', '\\u001f', '\\u007f'])
            return '"' + body.replace('"', '\\"').replace("\\", "\\\\") + esc + '"'
        if c == 1:
            return "'" + body.replace("'", '') + "'"
        if c == 2:
            lead = r.choice(['\n', '', '\r\n'])
            mid = r.choice(['\\\n   more', '\\   \n\n  x', '\n  two', '""x', '\\"""'])
            return '"""' + lead + body.replace('"', '').replace('\\', '') + mid + '"""'
        if c == 3:
            lead = r.choice(['\n', ''])
            return "'''" + lead + body.replace("'", '') + r.choice(["\nline", "''", "x\\n"]) + "'''"
        if c == 4:
            return '"' + body.replace('"', '').replace('\\', '') + '"'
        return '""'

    def integer(self):
        r = self.r
        if r.random() < 0.1:
            return r.choice(['00', '01', '1__0', '_1', '1_', '0x', '+0x1', '9223372036854775808',
                             '-9223372036854775809', '99999999999999999999'])
        return r.choice(['0', '+0', '-0', '42', '+99', '-17', '1_000', '5_349_221', '1_2_3',
                         '0xDEADBEEF', '0xdead_beef', '0o755', '0o01234567', '0b11010110',
                         '0b1_0', '9223372036854775807', '-9223372036854775808',
                         str(r.randrange(-10**6, 10**6)), '0x0', '0o0', '0b0'])

    def floating(self):
        r = self.r
        if r.random() < 0.1:
            return r.choice(['1e400', '.5', '5.', '1.e3', '1e_3', '3.14_', '07.5', 'NaN'])
        return r.choice(['+1.0', '3.1415', '-0.01', '5e+22', '1e06', '-2E-2', '6.626e-34',
                         '224_617.445_991_228', '-0.0', '+0.0', 'inf', '+inf', '-inf', 'nan',
                         '+nan', '-nan', '0.1', '0.30000000000000004', '1e-400',
                         '2.2250738585072011e-308', '1.7976931348623157e308', '0e0', '1E+0',
                         '1.5e0_1', repr(r.uniform(-1e6, 1e6)), repr(r.random()),
                         repr(r.uniform(-1, 1) * 10 ** r.randrange(-300, 300))])

    def datetime(self):
        r = self.r
        bad = r.random() < 0.1
        y, mo, d = r.choice([(2023, 2, 29), (2024, 13, 1), (0, 1, 1)] if bad else
                            [(1979, 5, 27), (2000, 2, 29), (1999, 12, 31), (1, 1, 1),
                             (9999, 12, 31)])
        date = '%04d-%02d-%02d' % (y, mo, d)
        hh, mm, ss = r.choice([(24, 0, 0), (12, 60, 0), (23, 59, 60)] if bad else
                              [(7, 32, 0), (0, 0, 0), (23, 59, 59)])
        frac = r.choice(['', '', '.5', '.999999', '.0000001', '.123456789', '.1234567891',
                         '.000'] + (['.'] if bad else []))
        time = '%02d:%02d:%02d%s' % (hh, mm, ss, frac)
        off = r.choice(['Z', 'z', '+00:00', '-00:00', '-07:00', '+05:30', '+23:59', ''] +
                       (['+24:00', '-7:00'] if bad else []))
        sep = r.choice(['T', 't', ' ', 'T'])
        c = r.randrange(5)
        if c == 0:
            return date
        if c == 1:
            return time
        if c == 2:
            return date + sep + time
        return date + sep + time + (off or 'Z')

    def value(self, depth=0):
        r = self.r
        c = r.random()
        if depth < 3 and c < 0.1:
            items = [self.value(depth + 1) for _ in range(r.randrange(4))]
            sep = r.choice([', ', ',', ',\n  ', ' , '])
            trail = r.choice(['', ',', '\n']) if items else ''
            return '[' + sep.join(items) + trail + ']'
        if depth < 3 and c < 0.17:
            items = ['%s = %s' % (self.dotted(), self.value(depth + 1))
                     for _ in range(r.randrange(3))]
            return '{' + ', '.join(items) + '}'
        if c < 0.35:
            return self.string()
        if c < 0.55:
            return self.integer()
        if c < 0.7:
            return self.floating()
        if c < 0.8:
            return r.choice(['true', 'false'] * 9 + ['True', 'yes'])
        return self.datetime()

    def kv(self):
        sp = self.r.choice([' = ', '=', '  =\t', ' ='])
        com = self.r.choice(['', '', '', '  # comment', '#x'])
        return self.dotted() + sp + self.value() + com

    def document(self):
        r = self.r
        lines = []
        for _ in range(r.randrange(4)):
            lines.append(self.kv())
        headers = []
        for _ in range(r.randrange(5)):
            c = r.random()
            if c < 0.2 and headers:
                h = r.choice(headers) + '.' + self.key()
            elif c < 0.25 and headers:
                h = r.choice(headers)  # redefinition: usually an error
            else:
                h = self.dotted()
            headers.append(h)
            if r.random() < 0.3:
                lines.append('[[' + h + ']]')
            else:
                lines.append(r.choice(['[', '[ ']) + h + r.choice([']', ' ]']))
            for _ in range(r.randrange(4)):
                lines.append(self.kv())
            if r.random() < 0.2:
                lines.append(r.choice(['# comment', '', '   ', '\t# x']))
        nl = r.choice(['\n', '\n', '\r\n'])
        return nl.join(lines) + r.choice([nl, '', nl + nl])


TOML_FIXED = [
    ('spec example', '''# This is a TOML document
title = "TOML Example"

[owner]
name = "Tom Preston-Werner"
dob = 1979-05-27T07:32:00-08:00

[database]
enabled = true
ports = [ 8000, 8001, 8002 ]
data = [ ["delta", "phi"], [3.14] ]
temp_targets = { cpu = 79.5, case = 72.0 }

[servers]

[servers.alpha]
ip = "10.0.0.1"
role = "frontend"

[servers.beta]
ip = "10.0.0.2"
role = "backend"
'''),
    ('array of tables', '''[[fruits]]
name = "apple"

[fruits.physical]  # subtable
color = "red"
shape = "round"

[[fruits.varieties]]  # nested array of tables
name = "red delicious"

[[fruits.varieties]]
name = "granny smith"


[[fruits]]
name = "banana"

[[fruits.varieties]]
name = "plantain"
'''),
    ('super table after', '[x.y.z.w]\na = 1\n[x]\nb = 2\n'),
    ('dotted then table', 'fruit.apple.color = "red"\nfruit.apple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true\n'),
    ('out of order tables', '[fruit.apple]\n[animal]\n[fruit.orange]\n'),
    ('redefine table', '[fruit]\napple = "red"\n[fruit]\norange = "orange"\n'),
    ('redefine by dotted', '[fruit]\napple.color = "red"\n[fruit.apple]\n'),
    ('inline then extend', 'type = { name = "Nail" }\ntype.edible = false\n'),
    ('static array extend', 'fruits = []\n[[fruits]]\n'),
    ('empty', ''),
    ('only comment', '# nothing\n'),
    ('bom', '\ufeffa = 1\n'),
    ('bare key numbers', '1234 = "x"\n3.14159 = "pi"\n'),
    ('empty quoted key', '"" = "blank"\n'),
    ('whitespace dotted', 'a . b . c = 1\n'),
    ('key order', 'z = 1\ny = 2\n[b]\nx = 1\n[a]\nw = 1\n'),
    ('control char', 'a = "\x01"\n'),
    ('tab in string', 'a = "x\ty"\n'),
    ('del in string', 'a = "\x7f"\n'),
    ('nul escape', 'a = "\\u0000"\n'),
    ('surrogate escape', 'a = "\\uD800"\n'),
    ('big unicode escape', 'a = "\\U00110000"\n'),
    ('mixed array', 'a = [1, "x", 2.5, true, 1979-05-27, [1], {b = 1}]\n'),
    ('trailing comma array', 'a = [\n 1,\n 2,\n]\n'),
    ('inline trailing comma', 'a = {b = 1,}\n'),
    ('inline newline', 'a = {b = 1,\n c = 2}\n'),
    ('multiline trim', 'a = """\\\n     The quick brown \\\n\n\n  fox."""\n'),
    ('multiline quotes', 'a = """Here are two quotation marks: "". Simple enough."""\nb = """Here are fifteen quotation marks: ""\\"""\\"""\\"""\\"""\\"."""\nc = """"This," she said, "is just a pointless statement.""""\n'),
    ('literal multiline quotes', "a = '''That's still pointless', she said.'''\nb = ''''That,' she said, 'is still pointless.''''\n"),
    ('crlf', 'a = 1\r\nb = """x\r\ny"""\r\n'),
    ('lone cr', 'a = 1\rb = 2\n'),
    ('lf in basic', 'a = "x\ny"\n'),
    ('no value', 'a =\n'),
    ('no newline after kv', 'a = 1 b = 2\n'),
    ('deep inline', 'a = ' + '[' * 200 + ']' * 200 + '\n'),
    ('long key', '.'.join(['k'] * 100) + ' = 1\n'),
    ('seconds omitted', 'a = 1979-05-27T07:32Z\n'),
    ('leap second', 'a = 1979-05-27T23:59:60Z\n'),
    ('year zero', 'a = 0000-01-01\n'),
    ('feb 30', 'a = 2000-02-30\n'),
    ('hour 24', 'a = 24:00:00\n'),
    ('offset no colon', 'a = 1979-05-27T07:32:00+0700\n'),
    ('nanos', 'a = 1979-05-27T07:32:00.999999999\nb = 07:32:00.0000009\n'),
    ('inf nan', 'a = inf\nb = -inf\nc = nan\nd = -nan\ne = +nan\n'),
    ('float overflow', 'a = 1e400\n'),
    ('float underflow', 'a = 1e-400\n'),
    ('int overflow', 'a = 9223372036854775808\n'),
    ('int min', 'a = -9223372036854775808\n'),
    ('hex overflow', 'a = 0x8000000000000000\n'),
    ('leading zero', 'a = 012\n'),
    ('plus hex', 'a = +0x1\n'),
    ('uppercase prefix', 'a = 0X1\n'),
    ('underscore exp', 'a = 1e1_0\n'),
    ('dup key', 'a = 1\na = 2\n'),
    ('dup quoted key', 'a = 1\n"a" = 2\n'),
    ('unicode bare key', 'é = 1\n'),
    ('true caps', 'a = True\n'),
    ('comment control', 'a = 1 # \x00\n'),
    ('comment del', 'a = 1 # \x7f\n'),
    ('array table then table', '[[a]]\n[a]\n'),
    ('table then array table', '[a]\n[[a]]\n'),
    ('header trailing junk', '[a] b = 1\n'),
    ('header comment', '[a] # c\nb = 1\n'),
    ('space in header key', '[ j . "ʞ" . \'l\' ]\n'),
    ('empty header', '[]\n'),
    ('time offset', 'a = 07:32:00Z\n'),
    ('date offset', 'a = 1979-05-27Z\n'),
    ('space date time', 'a = 1979-05-27 07:32:00\n'),
    ('lower t z', 'a = 1979-05-27t07:32:00z\n'),
    ('fraction no digits', 'a = 07:32:00.\n'),
    ('inline dotted duplicate', 'a = {b.c = 1, b.d = 2}\n'),
    ('inline dup', 'a = {b = 1, b = 2}\n'),
    ('ws before eq', 'a\t= 1\n'),
    ('tab indent', '\t[a]\n\tb = 1\n'),
]


def toml_case(name, text, out):
    rec = {'name': name, 'text': text}
    try:
        v = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        rec['error'] = str(e)
        out.append(rec)
        return
    except (ValueError, RecursionError) as e:  # tomllib lets a few slip (datetime ranges)
        rec['error'] = '%s: %s' % (type(e).__name__, e)
        out.append(rec)
        return
    rec['value'] = encode(v)
    big = [x for x in walk(v) if isinstance(x, int) and not isinstance(x, bool)
           and not -2**63 <= x < 2**63]
    if big:
        rec['assay'] = 'error'
        rec['reason'] = 'an integer beyond 64 bits (toml.h)'
    elif re.search(r'(?<![0-9A-Za-z_])[+-]?[0-9_.]*[eE]\+?[0-9_]*[4-9][0-9_]{2}', text) and \
            any(isinstance(x, float) and math.isinf(x) for x in walk(v)):
        rec['assay'] = 'error'
        rec['reason'] = 'a float literal beyond the double range (toml.h)'
    out.append(rec)


def mutate(r, text):
    if not text:
        return 'x'
    i = r.randrange(len(text))
    c = r.randrange(4)
    if c == 0:
        return text[:i] + text[i + 1:]
    if c == 1:
        return text[:i] + r.choice(['"', "'", '[', ']', '=', '.', '\n', ',', '{', '}', '#',
                                    ' ', 'x', '0', ':', '-']) + text[i:]
    if c == 2:
        lines = text.split('\n')
        j = r.randrange(len(lines))
        lines.insert(j, lines[j])
        return '\n'.join(lines)
    return text[:i] + text[i:][::-1][:3] + text[i + 3:]


def gen_toml(r):
    out = []
    for name, text in TOML_FIXED:
        toml_case(name, text, out)
    g = TomlGen(r)
    for i in range(500):
        toml_case('random %d' % i, g.document(), out)
    valid = [c['text'] for c in out if 'value' in c and c['text']]
    for i in range(300):
        toml_case('mutated %d' % i, mutate(r, r.choice(valid)), out)
    return out


# ---------------------------------------------------------------------------------------------
# INI

def ini_read(text, lower):
    cp = configparser.ConfigParser(interpolation=None)
    if not lower:
        cp.optionxform = str
    cp.read_string(text)
    return {s: dict(cp[s]) for s in cp if s != cp.default_section or cp.defaults()}


INI_FIXED = [
    ('basic', '[server]\nhost = example.org\nport: 8080\n'),
    ('default inherited', '[DEFAULT]\nuser = root\nport = 22\n[a]\nport = 2222\n[b]\n'),
    ('default only', '[DEFAULT]\nx = 1\n'),
    ('empty default', '[DEFAULT]\n[a]\nk = v\n'),
    ('default twice', '[DEFAULT]\na = 1\n[s]\n[DEFAULT]\nb = 2\n'),
    ('default dup key', '[DEFAULT]\na = 1\n[DEFAULT]\na = 2\n'),
    ('no section', 'key = value\n'),
    ('empty', ''),
    ('comments', '# top\n; also\n[a]\n  # indented comment\nk = v ; not a comment\nj = v # nor this\n'),
    ('continuation', '[a]\nk = first\n  second\n\tthird\nj = x\n'),
    ('continuation blank', '[a]\nk = first\n\n  after blank\n\n\nj = x\n'),
    ('continuation comment', '[a]\nk = first\n# comment\n  second\n'),
    ('empty value', '[a]\nk =\nj:\n'),
    ('empty value continued', '[a]\nk =\n  next\n'),
    ('dup section', '[a]\n[a]\n'),
    ('dup key', '[a]\nk = 1\nk = 2\n'),
    ('dup key case', '[a]\nKey = 1\nkey = 2\n'),
    ('case section', '[A]\n[a]\n'),
    ('no delimiter', '[a]\njunk\n'),
    ('empty key', '[a]\n= v\n'),
    ('two empty keys', '[a]\n= v\n: w\n'),
    ('first delimiter', '[a]\nurl = http://x:80/?a=b\ntime: 12:00 = noon\n'),
    ('header junk', '[a] trailing\nk = v\n'),
    ('header brackets', '[a]b]\n[[c]]\n'),
    ('header spaces', '[ spaced ]\n  [indented]\nk = v\n'),
    ('header empty', '[]\n'),
    ('header eq', '[a] = b\n'),
    ('indented header after option', '[a]\nk = v\n  [b]\nj = w\n'),
    ('indented options', '[a]\n  k = v\n  j = w\n    cont\n'),
    ('less indented', '[a]\n    k = v\n  j = w\n'),
    ('crlf', '[a]\r\nk = v\r\n  cont\r\n'),
    ('unicode', '[ünï]\nКлюч = значение\n\u00a0k\u00a0=\u00a0v\u00a0\n'),
    ('unicode space indent', '[a]\nk = v\n\u3000cont\n'),
    ('lower unicode', '[a]\nÉCOLE = 1\nİ = 2\nΣΑΣ = 3\n'),
    ('percent', '[a]\nk = 100%\nj = %(k)s\n'),
    ('semicolon value', '[a]\nk = ;\n'),
    ('hash key', '[a]\nk#x = 1\n'),
    ('colon in key line', '[a]\nk : v = w\n'),
    ('no newline end', '[a]\nk = v'),
    ('nul', '[a]\nk = a\x00b\n'),
    ('bom', '\ufeff[a]\nk = v\n'),
    ('lone cr', '[a]\nk = v\rj = w\n'),
    ('vertical tab', '[a]\nk = \x0bv\x0b\n'),
    ('many errors', '[a]\nbad1\nbad2\n[a]\n'),
    ('error then missing', 'bad\n'),
    ('continuation after header', '[a]\n  k = v\n[b]\n  cont\n'),
]


def ini_case(name, text, out):
    rec = {'name': name, 'text': text}
    try:
        rec['value'] = ini_read(text, False)
    except configparser.Error as e:
        rec['error'] = str(e)
    try:
        rec['lower'] = ini_read(text, True)
    except configparser.Error as e:
        rec['lower_error'] = str(e)
    out.append(rec)


class IniGen:
    def __init__(self, r):
        self.r = r
        self.n = 0

    def word(self):
        self.n += 1
        return self.r.choice(['k', 'Key', 'KEY', 'path', 'é', 'Σ', 'a b', 'x.y', 'x-y',
                              'DEFAULT', 'n', '']) + str(self.n % 7)

    def line(self):
        r = self.r
        c = r.random()
        ind = r.choice(['', '', '', ' ', '  ', '\t', '    '])
        if c < 0.5:
            return ind + self.word() + r.choice([' = ', '=', ': ', ':', ' : ', '\t=\t']) + \
                r.choice(['v', '1', '', 'a b', 'x=y', 'c:d', '; c', '# c', ' spaced ', '%(k)s',
                          'Ünï', 'TRUE'])
        if c < 0.65:
            return ind + r.choice(['more', 'cont = x', '[notsect]', 'x'])
        if c < 0.75:
            return ind + r.choice(['# c', '; c', '#', ';'])
        if c < 0.85:
            return r.choice(['', ' ', '\t'])
        if c < 0.97:
            return ind + '[' + r.choice([self.word(), 'DEFAULT', 'sec', 'Sec']) + ']' + \
                r.choice(['', '', ' x', ']'])
        return ind + r.choice(['junk', '=', ':x', '[]'])

    def document(self):
        r = self.r
        lines = []
        if r.random() < 0.9:
            lines.append('[' + r.choice(['DEFAULT', 'main', 'a']) + ']')
        for _ in range(r.randrange(12)):
            lines.append(self.line())
        nl = r.choice(['\n', '\n', '\r\n'])
        return nl.join(lines) + r.choice([nl, ''])


def gen_ini(r):
    out = []
    for name, text in INI_FIXED:
        ini_case(name, text, out)
    g = IniGen(r)
    for i in range(600):
        ini_case('random %d' % i, g.document(), out)
    return out


# ---------------------------------------------------------------------------------------------
# JSON Schema (draft-07)

SCHEMAS = [
    ('type', {'type': 'string'}, [5, 'x', None, True, 1.5, [1], {'a': 1}]),
    ('type list', {'type': ['string', 'null']}, [5, 'x', None]),
    ('integer', {'type': 'integer'}, [1, 1.0, 1.5, True, '1', 10**20]),
    ('number', {'type': 'number'}, [1, 1.5, True, None, float('inf')]),
    ('boolean', {'type': 'boolean'}, [True, 0, 'true']),
    ('object', {'type': 'object'}, [{}, [], 'x']),
    ('array', {'type': 'array'}, [[], {}, 'x']),
    ('required', {'type': 'object', 'required': ['name', 'age', "it's"]},
     [{}, {'name': 'x'}, {'name': 'x', 'age': 1, "it's": 1}, [1]]),
    ('properties', {'properties': {'name': {'type': 'string'}, 'age': {'type': 'integer',
                                                                       'minimum': 0}}},
     [{'name': 5, 'age': -1}, {'name': 'x', 'age': 3}, {'age': 1.5}, {'other': 1}, 'str']),
    ('nested paths', {'properties': {'user': {'properties': {'tags': {'items': {
        'type': 'string'}}}}}}, [{'user': {'tags': ['a', 1, 'b', None]}}]),
    ('additionalProperties false', {'properties': {'a': {}}, 'additionalProperties': False},
     [{'a': 1}, {'a': 1, 'b': 2}, {'b': 1, 'c': 2, 'a': 0}, {'z': 1, 'y': 2, 'x': 3}]),
    ('additionalProperties schema', {'properties': {'a': {}},
                                     'additionalProperties': {'type': 'integer'}},
     [{'a': 'x', 'b': 2}, {'b': 'x'}]),
    ('patternProperties', {'patternProperties': {'^x_': {'type': 'integer'}},
                           'additionalProperties': False},
     [{'x_a': 1}, {'x_a': 'no'}, {'y': 1}, {'y': 1, 'z': 2, 'x_b': 3}]),
    ('items schema', {'items': {'type': 'integer', 'minimum': 2}}, [[1, 2, 3, 'x'], [], 'x']),
    ('items tuple', {'items': [{'type': 'string'}, {'type': 'integer'}],
                     'additionalItems': False},
     [['a', 1], ['a', 'b'], ['a', 1, 2, 3], [1]]),
    ('additionalItems schema', {'items': [{}], 'additionalItems': {'type': 'string'}},
     [[1, 'a', 2], [1]]),
    ('items false', {'items': False}, [[], [1]]),
    ('enum', {'enum': ['a', 1, None, [1, 2], {'k': True}]},
     ['a', 1, 1.0, True, 'b', None, [1, 2], [1.0, 2.0], {'k': True}, {'k': 1}]),
    ('const', {'const': {'a': [1, 'x']}}, [{'a': [1, 'x']}, {'a': [1.0, 'x']}, {'a': [True, 'x']},
                                           'x']),
    ('const false', {'const': False}, [False, 0, None]),
    ('pattern', {'pattern': '^[a-z]+\\d$'}, ['abc1', 'ABC1', 'xabc1y', 5]),
    ('pattern search', {'pattern': 'b+'}, ['abbc', 'ac', 'éb']),
    ('pattern unicode', {'pattern': '^\\w+$'}, ['héllo', 'hé llo']),
    ('minimum maximum', {'minimum': 0, 'maximum': 10}, [-1, 0, 10, 10.5, 5, True, 'x']),
    ('exclusive', {'exclusiveMinimum': 0, 'exclusiveMaximum': 1.5}, [0, 1.5, 1, -3, 2]),
    ('float bounds', {'minimum': 0.1}, [0.05, 0.1, 1e-300]),
    ('lengths', {'minLength': 2, 'maxLength': 3}, ['a', 'ab', 'abcd', 'éé', '😀😀😀😀', 5]),
    ('items counts', {'minItems': 1, 'maxItems': 2}, [[], [1], [1, 2, 3]]),
    ('properties counts', {'minProperties': 1, 'maxProperties': 1}, [{}, {'a': 1}, {'a': 1,
                                                                                  'b': 2}]),
    ('uniqueItems', {'uniqueItems': True}, [[1, 2], [1, 1], [1, 1.0], [1, True], [[1], [1]],
                                           [{'a': 1}, {'a': 1}], ['a', 'b', 'a']]),
    ('multipleOf', {'multipleOf': 3}, [9, 10, 9.0, 4.5]),
    ('multipleOf float', {'multipleOf': 0.5}, [1.5, 1.25, 3]),
    ('ref definitions', {'definitions': {'pos': {'type': 'integer', 'minimum': 1}},
                         'properties': {'a': {'$ref': '#/definitions/pos'},
                                        'b': {'$ref': '#/definitions/pos', 'type': 'string'}}},
     [{'a': 0, 'b': 2}, {'a': 'x', 'b': 'x'}]),
    ('ref recursive', {'definitions': {'node': {'type': 'object', 'properties': {
        'value': {'type': 'integer'}, 'next': {'$ref': '#/definitions/node'}},
        'required': ['value']}}, '$ref': '#/definitions/node'},
     [{'value': 1, 'next': {'value': 'x', 'next': {}}}]),
    ('ref escaped', {'definitions': {'a/b': {'type': 'string'}, 'c~d': {'type': 'integer'},
                                     'e f': {'const': 1}},
                     'properties': {'x': {'$ref': '#/definitions/a~1b'},
                                    'y': {'$ref': '#/definitions/c~0d'},
                                    'z': {'$ref': '#/definitions/e%20f'}}},
     [{'x': 1, 'y': 'y', 'z': 2}]),
    ('ref root', {'properties': {'child': {'$ref': '#'}}, 'type': 'object'},
     [{'child': {'child': 5}}]),
    ('allOf', {'allOf': [{'type': 'integer'}, {'minimum': 3}]}, [5, 1, 'x']),
    ('anyOf', {'anyOf': [{'type': 'string'}, {'minimum': 3}]}, [5, 1, 'x']),
    ('oneOf', {'oneOf': [{'type': 'integer'}, {'minimum': 3}]}, [1, 5, 2.5, 'x']),
    ('oneOf three', {'oneOf': [{'minimum': 1}, {'minimum': 2}, {'minimum': 3}]}, [5, 0]),
    ('not', {'not': {'type': 'string'}}, ['x', 5]),
    ('true false schemas', {'properties': {'a': True, 'b': False}}, [{'a': 1, 'b': 2}]),
    ('annotations', {'$schema': 'http://json-schema.org/draft-07/schema#', 'title': 't',
                     'description': 'd', 'default': 1, 'examples': [1], 'format': 'email',
                     'type': 'string'}, ['not an email', 5]),
    ('keyword order', {'type': 'object', 'required': ['a'], 'properties': {'b': {
        'type': 'string'}}, 'additionalProperties': False}, [{'b': 1, 'c': 2}]),
    ('many at one path', {'type': 'string', 'enum': ['a'], 'const': 'a'}, [5]),
    ('manifest', {
        'type': 'object',
        'required': ['apiVersion', 'kind', 'metadata'],
        'properties': {
            'apiVersion': {'const': 'v1'},
            'kind': {'enum': ['Service', 'ConfigMap']},
            'metadata': {'type': 'object', 'required': ['name'], 'properties': {
                'name': {'type': 'string', 'pattern': '^[a-z0-9-]+$', 'maxLength': 63},
                'labels': {'type': 'object', 'additionalProperties': {'type': 'string'}}}},
            'spec': {'type': 'object', 'properties': {'ports': {
                'type': 'array', 'minItems': 1, 'items': {
                    'type': 'object', 'required': ['port'], 'properties': {
                        'port': {'type': 'integer', 'minimum': 1, 'maximum': 65535},
                        'protocol': {'enum': ['TCP', 'UDP']}}}}}}},
        'additionalProperties': False},
     [{'apiVersion': 'v1', 'kind': 'Service', 'metadata': {'name': 'web'},
       'spec': {'ports': [{'port': 80}]}},
      {'apiVersion': 'v2', 'kind': 'Pod', 'metadata': {'name': 'Web_1', 'labels': {'a': 1}},
       'spec': {'ports': [{'port': 0, 'protocol': 'SCTP'}, {}]}, 'status': {}},
      {'kind': 'Service', 'metadata': {}, 'spec': {'ports': []}}]),
]


def schema_errors(schema, instance):
    import jsonschema
    v = jsonschema.Draft7Validator(schema)
    return [[e.json_path, e.validator if e.validator is not None else 'false', e.message]
            for e in v.iter_errors(instance)]


def gen_schema_worker():
    """Run in a subprocess under a given PYTHONHASHSEED: prints the errors of every case."""
    out = []
    for name, schema, instances in SCHEMAS:
        for i, inst in enumerate(instances):
            out.append({'name': '%s %d' % (name, i), 'schema': schema, 'instance': inst,
                        'errors': schema_errors(schema, inst)})
    print(json.dumps(out))


def gen_schema():
    import subprocess
    import sys
    runs = []
    for seed in ('0', '1', '2'):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        runs.append(json.loads(subprocess.check_output(
            [sys.executable, __file__, '--schema-worker'], env=env)))
    return [c for i, c in enumerate(runs[0]) if all(r[i] == c for r in runs[1:])]


def write(name, cases):
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name)
    with open(path, 'w', encoding='utf-8') as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + '\n')
    ok = sum(1 for c in cases if 'value' in c or not c.get('errors', True))
    print('%s: %d cases, %d read or valid, %d refused or invalid' % (path, len(cases), ok,
                                                                     len(cases) - ok))


def main():
    import sys
    if sys.argv[1:] == ['--schema-worker']:
        gen_schema_worker()
        return
    r = random.Random(SEED)
    write('toml.jsonl', gen_toml(r))
    write('ini.jsonl', gen_ini(r))
    write('schema.jsonl', gen_schema())


if __name__ == '__main__':
    main()
