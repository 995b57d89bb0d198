#!/usr/bin/python3
"""Generate the deepdiff parity corpus: tests/fixtures/parity/NNNN-<category>.json.

Run with Debian's interpreter, which has python3-deepdiff 6.2.2 (and numpy):

    /usr/bin/python3 tests/parity/gen_corpus.py

Deterministic: a fixed seed drives every random choice, and the documents are
written as JSON text and parsed back with json.loads before deepdiff sees them
(exactly what assay's contract does), so a fixture's "diff" is what
DeepDiff(expected, actual, **deepdiff_options).to_json() gives for the
documents stored in the file.

Every case is run under several PYTHONHASHSEED values (in worker processes);
a case whose output differs between them is not written as a fixture but listed
in tests/parity/unstable-cases.json (with the outputs seen), and so is a case on
which deepdiff raises.

Only stdlib + deepdiff.  See tests/parity/README.md and
docs/internals/deepdiff-parity.md.
"""
import json
import logging
import os
import random
import subprocess
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT_DIR = os.path.join(ROOT, 'tests', 'fixtures', 'parity')
UNSTABLE_FILE = os.path.join(HERE, 'unstable-cases.json')
SEED = 20240611
HASH_SEEDS = ('0', '1', '2', '3', '4', '5')

NaN = float('nan')
INF = float('inf')


# ---------------------------------------------------------------------------
# assay options -> deepdiff kwargs (the contract)

def deepdiff_kwargs(options):
    """Map assay's json-verifier options to the exact DeepDiff kwargs."""
    kw = {'ignore_numeric_type_changes': True}
    if options.get('ignore_order'):
        kw['ignore_order'] = True
        kw['report_repetition'] = True
    for name in ('exclude_paths', 'exclude_regex_paths', 'ignore_string_case',
                 'significant_digits', 'number_format_notation', 'max_diffs'):
        if name in options:
            kw[name] = options[name]
    if 'abs_tol' in options:
        kw['math_epsilon'] = options['abs_tol']
    return kw


def dumps(value):
    """The fixture's JSON text for a document (NaN/Infinity as Python writes them)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=True)


def run_deepdiff(expected_text, actual_text, kw):
    """What assay's reference does: parse both texts, diff, to_json, parse."""
    from deepdiff import DeepDiff
    t1 = json.loads(expected_text)
    t2 = json.loads(actual_text)
    return json.loads(DeepDiff(t1, t2, **kw).to_json())


# ---------------------------------------------------------------------------
# case collection

class Corpus:
    def __init__(self):
        self.cases = []
        self.names = set()

    def add(self, category, name, expected, actual, options=None, both=False):
        """Add a case; with both=True also its ignore_order twin."""
        options = dict(options or {})
        variants = [options]
        if both and not options.get('ignore_order'):
            io = dict(options)
            io['ignore_order'] = True
            variants.append(io)
        for opts in variants:
            nm = name + (' [ignore_order]' if opts.get('ignore_order') and both else '')
            if nm in self.names:
                raise SystemExit('duplicate case name: %s' % nm)
            self.names.add(nm)
            self.cases.append({
                'category': category,
                'name': nm,
                'expected_text': dumps(expected),
                'actual_text': dumps(actual),
                'options': opts,
                'deepdiff_options': deepdiff_kwargs(opts),
            })


# ---------------------------------------------------------------------------
# random building blocks

WORDS = ['a', 'b', 'c', 'id', 'name', 'value', 'x', 'y', 'z', 'items', 'meta',
         'count', 'tags', 'k1', 'k2', 'k3', 'deep', 'list', 'obj', 'n']
STRINGS = ['', 'a', 'b', 'foo', 'bar', 'Foo', 'hello world', 'x y', '0', '1',
           'true', 'null', 'é', '日本', '😀', 'tab\there', "quote'", 'dq"',
           'back\\slash']
FLOATS = [0.0, -0.0, 0.1, 0.2, 0.30000000000000004, 0.5, 1.0, 1.5, -2.25, 3.14159,
          1e16, 1e-7, 5e-324, 1.7976931348623157e308, 2.5e-10, 123456.789,
          -1e22, 1e100, 6.02214076e23, 9007199254740993.0]


def rand_scalar(rng, kinds='isfbn'):
    k = rng.choice(kinds)
    if k == 'i':
        return rng.choice([rng.randint(-5, 20), rng.randint(-1000, 1000),
                           rng.randint(-2**40, 2**40)])
    if k == 's':
        return rng.choice(STRINGS)
    if k == 'f':
        return rng.choice([rng.choice(FLOATS), round(rng.uniform(-100, 100), rng.randint(0, 6)),
                           rng.uniform(-1, 1)])
    if k == 'b':
        return rng.choice([True, False])
    return None


def rand_value(rng, depth=3, width=4):
    r = rng.random()
    if depth <= 0 or r < 0.45:
        return rand_scalar(rng)
    if r < 0.75:
        keys = rng.sample(WORDS, rng.randint(0, width))
        return {k: rand_value(rng, depth - 1, width) for k in keys}
    return [rand_value(rng, depth - 1, width) for _ in range(rng.randint(0, width))]


def rand_dict(rng, depth=3, width=5):
    keys = rng.sample(WORDS, rng.randint(1, width))
    return {k: rand_value(rng, depth - 1, width) for k in keys}


def deepcopy(v):
    return json.loads(json.dumps(v))


def mutate(rng, v, p=0.3, depth=0):
    """Return a mutated copy of v (random edits all through the tree)."""
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            r = rng.random()
            if r < p * 0.25:
                continue  # removed
            out[k] = mutate(rng, x, p, depth + 1) if r < 1 - p * 0.2 else rand_value(rng, 2)
        if rng.random() < p:
            nk = rng.choice(WORDS + ['new', 'extra'])
            if nk not in out:
                out[nk] = rand_value(rng, 2)
        if rng.random() < p * 0.3:
            items = list(out.items())
            rng.shuffle(items)  # key order must not matter for dicts
            out = dict(items)
        return out
    if isinstance(v, list):
        out = [mutate(rng, x, p, depth + 1) for x in v]
        if rng.random() < p and out:
            del out[rng.randrange(len(out))]
        if rng.random() < p:
            out.insert(rng.randint(0, len(out)), rand_value(rng, 2))
        return out
    if rng.random() < p:
        return rand_scalar(rng)
    return v


def edit_list(rng, lst, n_edits, alphabet, where=None):
    """Apply n random insert/delete/replace edits at start/middle/end."""
    out = list(lst)
    for _ in range(n_edits):
        op = rng.choice(['ins', 'del', 'rep'])
        if not out:
            op = 'ins'
        pos_kind = where or rng.choice(['start', 'middle', 'end', 'any'])
        n = len(out)
        if pos_kind == 'start':
            i = 0
        elif pos_kind == 'end':
            i = n if op == 'ins' else n - 1
        elif pos_kind == 'middle':
            i = n // 2
        else:
            i = rng.randint(0, n if op == 'ins' else n - 1)
        if op == 'ins':
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                out.insert(i, rng.choice(alphabet))
        elif op == 'del':
            k = rng.choice([1, 1, 2])
            del out[i:i + k]
        else:
            out[i] = rng.choice(alphabet)
    return out


# ---------------------------------------------------------------------------
# categories

def cat_equal(c, rng):
    fixed = [
        ({}, {}), ([], []), (None, None), (0, 0), ('', ''), (1, 1.0), (0, -0.0),
        ({'a': 1, 'b': 2}, {'b': 2, 'a': 1}), ([1, 2, 3], [1, 2, 3]),
        ({'a': [1, {'b': None}]}, {'a': [1, {'b': None}]}),
        ([1.0, 2, 3], [1, 2.0, 3.0]), ({'n': NaN}, {'n': NaN}), ([NaN], [NaN]),
        ({'i': INF, 'j': -INF}, {'i': INF, 'j': -INF}),
        ({'big': 2**64}, {'big': 2**64}), ('😀', '😀'),
    ]
    for i, (e, a) in enumerate(fixed):
        c.add('equal', 'equal fixed %d' % i, e, a, both=True)
    for i in range(14):
        v = rand_dict(rng, 4, 5)
        c.add('equal', 'equal random %d' % i, v, deepcopy(v), both=True)
    # same multiset, different order: equal only under ignore_order
    for i in range(6):
        v = [rng.randint(0, 5) for _ in range(rng.randint(2, 12))]
        w = list(v)
        rng.shuffle(w)
        c.add('equal', 'equal multiset %d' % i, v, w, {'ignore_order': True})


def cat_nested_objects(c, rng):
    fixed = [
        ({'a': 1}, {'a': 2}),
        ({'a': 1, 'b': 2, 'c': 3}, {'d': 1, 'c': 4, 'b': 5, 'e': 6}),
        ({'a': {'b': {'c': 1}}}, {'a': {'b': {'c': 2, 'd': 3}}}),
        ({'z': 1, 'y': 2, 'x': 3}, {'x': 30, 'y': 20, 'z': 10}),
        ({'a': 1, 'b': 2, 'c': 3, 'd': 4}, {}),
        ({}, {'a': 1, 'b': {'c': [1]}}),
        ({'r1': 1, 'r2': 2, 'k': {'r3': 3}}, {'k': {'a3': 3}, 'a1': 1, 'a2': 2}),
        ({'a': {'x': 1, 'y': 2}, 'b': {'x': 1}}, {'b': {'x': 2}, 'a': {'y': 3, 'x': 4}}),
    ]
    for i, (e, a) in enumerate(fixed):
        c.add('nested-objects', 'nested fixed %d' % i, e, a)
    for i in range(40):
        e = rand_dict(rng, 4, 6)
        a = mutate(rng, e, p=rng.choice([0.1, 0.3, 0.5]))
        c.add('nested-objects', 'nested random %d' % i, e, a, both=(i % 2 == 0))


def cat_scalar_lists(c, rng):
    fixed = [
        ([], [1]), ([1], []), ([1, 2, 3], [0, 1, 2, 3]), ([1, 2, 3], [1, 2, 3, 4]),
        ([1, 2, 3], [1, 2, 9, 3]), ([1, 2, 3], [2, 3]), ([1, 2, 3], [1, 2]),
        ([1, 2, 3], [1, 3]), ([1, 2, 3], [4, 5, 6]), ([1, 2, 3], [3, 2, 1]),
        ([9, 1, 8, 2], [1, 2, 7]), (['a', 'b', 'c'], ['a', 'x', 'y', 'c']),
        ([1, 2, 3, 4, 5], [1, 9, 3, 9, 5]), ([1, 1, 1], [1, 1]), ([1, 2], [2, 1]),
        ([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]), ([1, 2, 3], [1, 'x', 3]),
        ([1, 2, 3], [1, [2], 3]), ([None, None], [None, 0]),
        (['a', 'b', 'c', 'd'], ['b', 'a', 'd', 'c']),
        ([1, 2, 3, 4], [1, 5, 6, 4, 7]), ([0, 1, 0, 1, 0], [1, 0, 1, 0, 1]),
    ]
    for i, (e, a) in enumerate(fixed):
        c.add('scalar-lists', 'scalar list fixed %d' % i, e, a, both=True)
    alphabets = [list(range(6)), list(range(30)), ['a', 'b', 'c', 'd'],
                 [0, 1, 'a', None, True, 2.5], [1, 1.0, 2, 2.0, 3]]
    for i in range(90):
        alpha = alphabets[i % len(alphabets)]
        n = rng.choice([0, 1, 2, 3, 5, 8, 13, 20, 30, 50])
        e = [rng.choice(alpha) for _ in range(n)]
        where = ['start', 'middle', 'end', None][i % 4]
        a = edit_list(rng, e, rng.randint(1, 6), alpha, where)
        c.add('scalar-lists', 'scalar list random %d' % i, e, a, both=(i % 3 == 0))


def rand_record(rng, i):
    return {'id': i, 'name': rng.choice(['ann', 'bob', 'cy', 'dee', 'eve']),
            'score': rng.choice([rng.randint(0, 100), round(rng.uniform(0, 100), 2)]),
            'tags': rng.sample(['x', 'y', 'z', 'w'], rng.randint(0, 3))}


def cat_object_lists(c, rng):
    fixed = [
        ([{'a': 1}, {'a': 2}], [{'a': 1}, {'a': 3}]),
        ([{'a': 1}, {'a': 2}], [{'a': 2}, {'a': 1}]),
        ([{'a': 1}], [{'a': 1}, {'a': 2}]),
        ([{'a': 1}, {'a': 2}, {'a': 3}], [{'a': 1}, {'a': 3}]),
        ([{'a': 1, 'b': 2}, {'a': 5, 'b': 6}, 'x', 'y', 'z'],
         [{'a': 1, 'b': 3}, 'x', 'y', 'z', {'a': 5, 'b': 7}]),
        ([[1, 2], [3, 4]], [[1, 2], [3, 5]]), ([[1, 2], [3, 4]], [[3, 4], [1, 2]]),
        ([{'a': [1, 2]}, 1], [1, {'a': [1, 2, 3]}]),
    ]
    for i, (e, a) in enumerate(fixed):
        c.add('object-lists', 'object list fixed %d' % i, e, a, both=True)
    for i in range(40):
        n = rng.choice([1, 2, 3, 5, 8, 12])
        e = [rand_record(rng, j) for j in range(n)]
        a = deepcopy(e)
        for _ in range(rng.randint(1, 4)):
            op = rng.choice(['edit', 'append', 'remove', 'swap', 'insert'])
            if op == 'edit' and a:
                r = rng.choice(a)
                r[rng.choice(['name', 'score', 'tags'])] = rand_scalar(rng)
            elif op == 'append':
                a.append(rand_record(rng, 100 + i))
            elif op == 'remove' and a:
                del a[rng.randrange(len(a))]
            elif op == 'swap' and len(a) > 1:
                x, y = rng.sample(range(len(a)), 2)
                a[x], a[y] = a[y], a[x]
            elif op == 'insert':
                a.insert(rng.randint(0, len(a)), rand_record(rng, 200 + i))
        c.add('object-lists', 'object list random %d' % i, e, a, both=True)


def cat_type_changes(c, rng):
    vals = ['1', 1, 1.0, 1.5, [1], {'a': 1}, {}, [], None, True, False, 0, 'abc', 'true',
            'null', [[]], 2**70]
    k = 0
    for x in vals:
        for y in vals:
            if x is y:
                continue
            if rng.random() < 0.35:
                c.add('type-changes', 'type change %d %s -> %s' % (k, json.dumps(x), json.dumps(y)),
                      {'v': x}, {'v': y})
                k += 1
    # inside lists (difflib-free and difflib paths), and at the root
    c.add('type-changes', 'type change root str->int', 'a', 1)
    c.add('type-changes', 'type change root dict->list', {}, [])
    c.add('type-changes', 'type change root list->dict', [1], {'0': 1})
    c.add('type-changes', 'type change root None->dict', None, {'a': 1})
    c.add('type-changes', 'type change in list', [1, 'a', None, [2]], ['1', 2, {}, [2]], both=True)
    c.add('type-changes', 'type change in list of dicts', [{'a': 1}, 'x'], [{'a': '1'}, 'y'], both=True)


def cat_bool_int(c, rng):
    pairs = [(True, 1), (False, 0), (1, True), (0, False), (1.0, True), (True, 1.0),
             (False, 0.0), (0.0, False), (True, False), (True, 2), (False, -0.0),
             (True, '1'), (True, None), (False, [])]
    for i, (x, y) in enumerate(pairs):
        c.add('bool-int', 'bool/int dict %d %s vs %s' % (i, json.dumps(x), json.dumps(y)),
              {'v': x}, {'v': y})
        c.add('bool-int', 'bool/int list %d %s vs %s' % (i, json.dumps(x), json.dumps(y)),
              [x], [y], both=True)
    c.add('bool-int', 'bool/int list with others', [1, 2, 3], [True, 5, 6], both=True)
    c.add('bool-int', 'bool/int list mixed', [True, 0, 1, False], [1, False, True, 0], both=True)
    c.add('bool-int', 'bool/int list longer', [1, 2, True, 4, 0], [True, 2, 1, 4, False, 7], both=True)
    c.add('bool-int', 'bool/int repetition', [1, True, 1], [True, 1, True], {'ignore_order': True})


def cat_reorder(c, rng):
    for i in range(16):
        n = rng.randint(2, 15)
        kind = i % 3
        if kind == 0:
            e = list(range(n))
        elif kind == 1:
            e = [rng.choice(STRINGS) for _ in range(n)]
        else:
            e = [{'id': j, 'v': rng.randint(0, 3)} for j in range(n)]
        a = list(e)
        rng.shuffle(a)
        c.add('reorder', 'reorder %d' % i, e, a, both=True)
    c.add('reorder', 'reorder dict keys only', {'a': 1, 'b': [1, 2], 'c': {'x': 1, 'y': 2}},
          {'c': {'y': 2, 'x': 1}, 'b': [1, 2], 'a': 1}, both=True)
    c.add('reorder', 'reorder nested lists', [[1, 2], [3, 4], [5]], [[5], [4, 3], [2, 1]], both=True)


def cat_repetition(c, rng):
    fixed = [
        ([1, 2, 3, 3], [3, 1, 2]), ([1, 2], [1, 1, 2, 2, 2]), (['a', 'a', 'b'], ['b', 'b', 'a']),
        ([1, 2, 3, 4, 5, 6], [6, 6, 5, 4, 3, 2, 1, 1]), ([{'a': 1}, {'a': 1}], [{'a': 1}]),
        ([[1], [1], [2]], [[2], [1], [2]]), ([1, 1, 5], [1, 6, 6]), ([None, None, 0], [0, 0, None]),
        ([1, 2, 2, 3], [2, 3, 3, 4, 4]), ([1.0, 1, True], [1, 1.0, 1.0, True, True]),
    ]
    for i, (e, a) in enumerate(fixed):
        c.add('repetition', 'repetition fixed %d' % i, e, a, {'ignore_order': True})
    for i in range(30):
        alpha = [list(range(4)), ['a', 'b', 'c'], [0, 'a', None, 2.5, [1], {'k': 1}]][i % 3]
        e = [rng.choice(alpha) for _ in range(rng.randint(0, 14))]
        a = edit_list(rng, e, rng.randint(1, 5), alpha)
        rng.shuffle(a)
        c.add('repetition', 'repetition random %d' % i, e, a, {'ignore_order': True})


def cat_pairing(c, rng):
    """ignore_order pairing of unmatched items (distance, cutoffs, the no-break bug)."""
    K = ['k1', 'k2', 'k3', 'k4']
    fixed = [
        ([{'a': 1, 'b': 1, 'c': 1}, {'a': 1, 'b': 1, 'c': 2}] + K, [{'a': 1, 'b': 1, 'c': 3}] + K),
        ([{'a': 1, 'b': 1, 'c': 1}, {'a': 1, 'b': 1, 'c': 2}] + K,
         [{'a': 1, 'b': 1, 'c': 3}, {'a': 1, 'b': 1, 'c': 4}] + K),
        ([1, 2], [3, 4]), ([10, 20], [11, 21]), ([10, 20, 30], [10, 20, 31]),
        ([1, 2, 3, 4, 5], [1, 2, 3, 4, 6]), ([1, 2, 3, 4, 5], [1, 2, 3, 40, 50]),
        ([1, 2, 3, 4, 5], [1, 2, 3, -4, -5]), ([1.5, 2.5, 3.5, 4.5], [1.5, 2.5, 3.6, 4.4]),
        (['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'e']),
        ([{'x': 1, 'y': 2, 'z': 3}, 'p', 'q'], [{'x': 1, 'y': 2, 'z': 4}, 'p', 'q']),
        ([{'x': 1, 'y': 2, 'z': 3}, 'p', 'q'], [{'x': 9, 'y': 8, 'z': 4}, 'p', 'q']),
        ([{'x': 1}, {'y': 2}, 'p', 'q', 'r'], [{'x': 2}, {'y': 3}, 'p', 'q', 'r']),
        ([[1, 2, 3], 'p', 'q'], [[1, 2, 4], 'p', 'q']), ([[1, 2, 3], 'p', 'q'], [[3, 2, 1, 1], 'p', 'q']),
        ([{'a': 1, 'b': 2}, {'a': 1, 'b': 2}, 'p', 'q', 'r'], [{'a': 1, 'b': 3}, 'p', 'q', 'r']),
        ([{'a': None}, 'p', 'q'], [{'a': 0}, 'p', 'q']),
        ([{'a': '1'}, 'p', 'q', 'r'], [{'a': 1}, 'p', 'q', 'r']),
        ([{'a': 1, 'b': [1, 2]}, 'p', 'q', 'r'], [{'a': 1, 'b': [2, 3]}, 'p', 'q', 'r']),
        ([1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 60, 70]),
        ([1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6.5, 7.5]),
        ([True, 'p', 'q'], [1, 'p', 'q']), ([0, 'p', 'q'], [-0.0, 'p', 'q']),
        ([5, 'p', 'q'], [-5, 'p', 'q']), ([5, 'p', 'q'], [0, 'p', 'q']),
    ]
    for i, (e, a) in enumerate(fixed):
        c.add('pairing', 'pairing fixed %d' % i, e, a, {'ignore_order': True})
    for i in range(40):
        n = rng.randint(3, 10)
        e = [rand_record(rng, j) for j in range(n)] + [rng.choice(STRINGS) for _ in range(rng.randint(0, 4))]
        a = []
        for x in e:
            if isinstance(x, dict) and rng.random() < 0.4:
                x = deepcopy(x)
                for _ in range(rng.randint(1, 3)):
                    x[rng.choice(['name', 'score', 'tags', 'id'])] = rand_scalar(rng, 'is')
            a.append(x)
        if rng.random() < 0.5:
            a.append(rand_record(rng, 50))
        if rng.random() < 0.3 and a:
            del a[rng.randrange(len(a))]
        rng.shuffle(a)
        c.add('pairing', 'pairing random %d' % i, e, a, {'ignore_order': True})


def cat_mutual(c, rng):
    """Order mode: an item removed and an item added at the same path become values_changed."""
    fixed = [
        ([9, 1, 8, 2], [1, 2, 7]), ([9, 1, 8, 2, 5], [1, 2, 7, 5, 6]),
        (['d', 'a', 'x', 'b'], ['a', 'b', 'y']), ({'l': [9, 1, 8, 2]}, {'l': [1, 2, 7]}),
        # one mutual path whose old and new values are equal (3 -> 3)
        ([1, 0, 1, 5, 3], [1, 4, 0, 1, 3, 5]), ([3, 5, 3, 6, 5], [6, 3, 0, 0, 5, 5, 3, 3, 6]),
        ([1, 0, 0, 1, 2, 2], [4, 1, 0, 2, 1, 3, 2]), ([4, 1, 2, 4, 4], [1, 4, 5, 1, 4, 5, 5]),
        ({'a': [9, 1, 8, 2], 'b': {'c': 1}}, {'b': {'c': 2}, 'a': [1, 2, 7]}),
        # two or more mutual paths: their order in values_changed follows Python's
        # string-set iteration order, which PYTHONHASHSEED changes (excluded as unstable)
        ([5, 3, 2, 4, 1, 3, 3], [3, 4, 3, 1, 0, 0, 4, 3]),
        ([3, 1, 1, 5, 2, 0, 0, 6, 4, 6], [1, 2, 0, 5, 0, 4, 5, 3, 2]),
    ]
    for i, (e, a) in enumerate(fixed):
        c.add('mutual', 'mutual fixed %d' % i, e, a)
    # dense independent random lists: many delete/insert pairs at the same index
    for i in range(40):
        e = [rng.randint(0, 6) for _ in range(rng.randint(3, 10))]
        a = [rng.randint(0, 6) for _ in range(rng.randint(3, 10))]
        c.add('mutual', 'mutual random %d' % i, e, a)


def cat_tolerance(c, rng):
    eps_cases = [
        (1.0, 1.05, 0.1), (1.0, 1.1, 0.1), (1.0, 1.2, 0.1), (0.0, 1e-7, 1e-6), (0.0, 1e-6, 1e-6),
        (0.0, 1.000001e-6, 1e-6), (1e20, 1.0000000001e20, 0.0), (1e20, 1.00000001e20, 0.0),
        (100, 100.0000001, 0.0), (1, 2, 1), (1, 2, 0.999999), (-1.0, 1.0, 2.0), (0.1 + 0.2, 0.3, 1e-15),
        (0.1 + 0.2, 0.3, 1e-17), (10**30, 10**30 + 1, 0.0), (5, 5.0000049, 5e-6), (1e-300, 2e-300, 0.0),
        (INF, INF, 0.1), (INF, -INF, 0.1), (NaN, NaN, 0.1), (True, 1, 0.5), ('1', 1, 0.5),
    ]
    for i, (x, y, eps) in enumerate(eps_cases):
        c.add('tolerance', 'abs_tol %d %r vs %r eps %r' % (i, x, y, eps), {'v': x}, {'v': y}, {'abs_tol': eps})
    c.add('tolerance', 'abs_tol list order', [1.0, 2.0, 3.0], [1.01, 2.5, 3.0], {'abs_tol': 0.05})
    c.add('tolerance', 'abs_tol list ignore_order', [1.0, 2.0, 3.0, 'p'], [1.01, 2.5, 3.0, 'p'],
          {'abs_tol': 0.05, 'ignore_order': True})
    c.add('tolerance', 'abs_tol ignore_order pair', [1.0], [1.05], {'abs_tol': 0.1, 'ignore_order': True})
    c.add('tolerance', 'abs_tol ignore_order objects', [{'a': 1.0, 'b': 'x'}, 'p', 'q'],
          [{'a': 1.001, 'b': 'x'}, 'p', 'q'], {'abs_tol': 0.01, 'ignore_order': True})
    for i in range(20):
        x = rng.uniform(-10, 10)
        eps = rng.choice([1e-3, 1e-6, 0.01, 0.5])
        d = eps * rng.choice([0.5, 0.999, 1.0, 1.001, 2]) * rng.choice([1, -1])
        c.add('tolerance', 'abs_tol random %d' % i, {'v': x, 'w': [x, x]}, {'v': x + d, 'w': [x, x + d]},
              {'abs_tol': eps})


def cat_significant_digits(c, rng):
    cases = [
        (1.2345, 1.2349, 2), (0.001, 0.0014, 2), (100.0, 100.006, 2), (0.125, 0.13, 2),
        (0.135, 0.14, 2), (2.5, 3.5, 0), (2.5, 2.0, 0), (1.5, 2.0, 0), (0.5, 0.0, 0), (-0.4, 0.4, 0),
        (1e-13, 0, None), (1.0000000000001, 1, None), (1.000000000001, 1, None), (10**30, 10**30 + 1, None),
        (2**64, 2**64 + 1, None), (2**53, 2**53 + 1, None), (1e16, 1e16 + 2, None), (123.456, 123.4, 1),
        (1234.5, 1235.4, 3), (-0.0001, 0.0001, 3), (0.1 + 0.2, 0.3, 5), (1.7976931348623157e308, 1e308, 2),
        (5e-324, 0.0, 5), (1, 1.004, 2), (1, 1.005, 2), (1, 1.006, 2),
    ]
    for i, (x, y, sd) in enumerate(cases):
        opts = {} if sd is None else {'significant_digits': sd}
        c.add('significant-digits', 'sigdig %d %r vs %r sd %r' % (i, x, y, sd), {'v': x}, {'v': y}, opts)
    for i, (x, y, sd) in enumerate([(1.2345, 1.2349, 2), (0.001, 0.0014, 2), (100.0, 100.006, 2),
                                    (12345.0, 12355.0, 3), (12345.0, 12346.0, 3), (0.00012, 0.000125, 1),
                                    (1e20, 1.04e20, 1), (1e20, 1.06e20, 1)]):
        c.add('significant-digits', 'sigdig e-notation %d' % i, {'v': x}, {'v': y},
              {'significant_digits': sd, 'number_format_notation': 'e'})
    c.add('significant-digits', 'sigdig ignore_order', [1.001, 2.002, 'p'], [2.0021, 1.0012, 'p'],
          {'significant_digits': 2, 'ignore_order': True})
    c.add('significant-digits', 'sigdig ignore_order collide', [1.001, 1.002], [1.0],
          {'significant_digits': 2, 'ignore_order': True})
    c.add('significant-digits', 'sigdig list order', [1.001, 2.002, 3.0], [1.0, 2.0, 3.1],
          {'significant_digits': 2})
    for i in range(12):
        x = round(rng.uniform(-50, 50), rng.randint(1, 6))
        y = x + rng.choice([1, -1]) * 10 ** -rng.randint(1, 6)
        sd = rng.randint(0, 5)
        c.add('significant-digits', 'sigdig random %d' % i, {'v': x}, {'v': y}, {'significant_digits': sd})


def cat_float_format(c, rng):
    vals = [0.1 + 0.2, 0.3, 1e16, 1e-7, -0.0, 0.0, 5e-324, 1.7976931348623157e308, 1e22, 1e21, 1e-5,
            1e-4, 123456789012345680.0, 0.1, 2.5, 100.0, -1.5e-10, 9007199254740993.0, 4.35, 1e300,
            2.2250738585072014e-308, 1.0, 3.0000000000000004]
    for i in range(len(vals) - 1):
        c.add('float-format', 'float %d %r vs %r' % (i, vals[i], vals[i + 1]),
              {'v': vals[i]}, {'v': vals[i + 1]})
    c.add('float-format', 'float list', vals, list(reversed(vals)), both=True)
    c.add('float-format', 'float -0.0 vs 0.0', [-0.0, {'z': -0.0}], [0.0, {'z': 0}], both=True)
    for i in range(20):
        e = {'f%d' % j: rng.choice([rng.uniform(-1e6, 1e6), rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30),
                                    rng.choice(vals)]) for j in range(5)}
        a = {k: (v if rng.random() < 0.3 else rng.choice([v * (1 + 1e-12), v * 1.5, -v, v + 0.1]))
             for k, v in e.items()}
        c.add('float-format', 'float random %d' % i, e, a)


def cat_unicode(c, rng):
    keys = ['😀', 'e\u0301', '\u00e9', "it's", 'say "hi"', 'back\\slash', 'new\nline', '',
            'tab\t', 'nul\u0000', '\u2028', 'ключ', '中文', "both'\"", "]['x", '\U0001F600\U0001F3FD']
    for i, k in enumerate(keys):
        c.add('unicode', 'unicode key %d' % i, {k: 1, 'o': {k: 'x'}}, {k: 2, 'o': {k: 'y'}})
        c.add('unicode', 'unicode key add/remove %d' % i, {k: 1}, {k + '2': 1})
    vals = ['😀', 'e\u0301', '\u00e9', 'A\u030a', '\u212b', 'ß', 'SS', 'ǅ', 'İ', '\ufeff', 'a\u0000b',
            'multi\nline\ntext', 'ΣΑΣ', 'σας']
    for i in range(len(vals) - 1):
        c.add('unicode', 'unicode value %d' % i, {'v': vals[i]}, {'v': vals[i + 1]})
        c.add('unicode', 'unicode value case-insensitive %d' % i, {'v': vals[i]}, {'v': vals[i + 1]},
              {'ignore_string_case': True})
    c.add('unicode', 'unicode list', vals, vals[::-1], both=True)
    c.add('unicode', 'unicode keys in list items', [{k: 1} for k in keys], [{k: 2} for k in keys])


def cat_big_int(c, rng):
    pairs = [(2**64, 2**64 + 1), (-2**100, -2**100 + 1), (10**30, 10**30 + 1), (10**30, 1e30),
             (2**64, float(2**64)), (2**53 + 1, float(2**53)), (2**63 - 1, 2**63), (2**64, 'x'),
             (10**300, 10**300 + 1), (10**308, 10**307), (2**64, 2**65), (-2**100, 2**100), (12, 10**25),
             (2**64, [2**64])]
    for i, (x, y) in enumerate(pairs):
        c.add('big-int', 'big int %d' % i, {'v': x}, {'v': y})
        c.add('big-int', 'big int list %d' % i, [x, 1], [y, 1], both=True)
    c.add('big-int', 'big int repetition', [2**64, 2**64, 3], [2**64 + 1, 3, 3], {'ignore_order': True})
    c.add('big-int', 'big int pairing', [2**64, 5, 1, 2, 3], [2**64 + 10**6, 6, 1, 2, 3], {'ignore_order': True})
    c.add('big-int', 'big int pairing int64', [2**62, 5, 1, 2, 3], [2**62 + 10**6, 7, 1, 2, 3],
          {'ignore_order': True})
    # deepdiff raises on ints beyond float range (listed in unstable-cases.json as 'raises')
    c.add('big-int', 'big int beyond float range', {'v': 10**400}, {'v': 1})


def cat_nan_inf(c, rng):
    pairs = [(NaN, NaN), (NaN, 1), (NaN, INF), (INF, -INF), (INF, INF), (-INF, -INF), (INF, 1e308),
             (NaN, 'NaN'), (INF, None), (NaN, 0.0), (-INF, 0)]
    for i, (x, y) in enumerate(pairs):
        c.add('nan-inf', 'nan/inf %d %r vs %r' % (i, x, y), {'v': x}, {'v': y})
        c.add('nan-inf', 'nan/inf list %d %r vs %r' % (i, x, y), [x, 'p'], [y, 'p'], both=True)
    c.add('nan-inf', 'nan list shift', [NaN, 1, NaN], [1, NaN, NaN, 2], both=True)
    c.add('nan-inf', 'nan ignore_order', [NaN, 1, 2, 3], [1, 2, 3, 4], {'ignore_order': True})
    c.add('nan-inf', 'nan ignore_order pair', [NaN, 1.5, 2.5, 3.5, 4.5], [INF, 1.5, 2.5, 3.6, 4.5],
          {'ignore_order': True})
    c.add('nan-inf', 'nan with sigdig', {'v': NaN, 'w': INF}, {'v': NaN, 'w': INF}, {'significant_digits': 3})
    c.add('nan-inf', 'nan with abs_tol', {'v': NaN, 'w': INF}, {'v': NaN, 'w': -INF}, {'abs_tol': 0.5})


def cat_empty(c, rng):
    pairs = [({}, []), ([], {}), ([], [[]]), ([[]], []), ({}, {'a': {}}), ({'a': {}}, {}),
             ({'a': []}, {'a': {}}), ({'a': {}}, {'a': None}), ([{}], [[]]), ('', []), ([], ''),
             ([], None), ({'a': []}, {'a': [None]}), ([[], []], [[]]), ({'': {}}, {'': []}), ([{}, {}], [{}])]
    for i, (x, y) in enumerate(pairs):
        c.add('empty-containers', 'empty %d' % i, x, y, both=isinstance(x, list) and isinstance(y, list))


def cat_exclude_paths(c, rng):
    doc_e = {'a': {'x': 1, 'y': [1, 2, 3]}, 'b': 2, '1': 'one', 'c': [{'k': 1}, {'k': 2}],
             'name': 'n', "q'": 1}
    doc_a = {'a': {'x': 2, 'y': [1, 5, 3]}, 'b': 3, '1': 'uno', 'c': [{'k': 1}, {'k': 3}],
             'name': 'm', "q'": 2, 'new': 1}
    excl = [["root['b']"], ['b'], ['x'], ["['b']"], ['1'], ["root['a']"], ["root['a']['y'][1]"],
            ["root['c'][1]['k']"], ["root['c'][1]"], ['name', 'b'], ["root['new']"], ['new'],
            ["root['q'']"], ["root.b"], ["root['a']['x']", "root['c']"], ['a'], ['c'], ['root']]
    for i, ex in enumerate(excl):
        c.add('exclude-paths', 'exclude_paths %d %s' % (i, json.dumps(ex)), doc_e, doc_a, {'exclude_paths': ex})
    c.add('exclude-paths', 'exclude_paths list index', [1, 2, 3], [1, 5, 6], {'exclude_paths': ['root[1]']})
    c.add('exclude-paths', 'exclude_paths bare index', [1, 2, 3], [1, 5, 6], {'exclude_paths': ['1']})
    c.add('exclude-paths', 'exclude_paths removed key', {'a': 1, 'b': 2}, {'a': 1}, {'exclude_paths': ['b']})
    c.add('exclude-paths', 'exclude_paths ignore_order', [{'a': 1, 'b': 2}, 'p'], [{'a': 1, 'b': 3}, 'p'],
          {'exclude_paths': ["root[0]['b']"], 'ignore_order': True})
    c.add('exclude-paths', 'exclude_paths ignore_order t2 index', ['p', {'a': 1, 'b': 2}], [{'a': 1, 'b': 3}, 'p'],
          {'exclude_paths': ["root[1]['b']"], 'ignore_order': True})
    c.add('exclude-paths', 'exclude_paths ignore_order t2 index 0', ['p', {'a': 1, 'b': 2}], [{'a': 1, 'b': 3}, 'p'],
          {'exclude_paths': ["root[0]['b']"], 'ignore_order': True})
    regexes = [[r"\['b'\]"], [r"\[1\]"], [r"root\['a'\]"], [r"\['k'\]$"], [r"^root\['c'\]\[\d+\]"], [r"x|y"],
               [r"name"], [r"."], [r"\['a'\]\['y'\]\[\d\]"], [r"^root$"]]
    for i, rx in enumerate(regexes):
        c.add('exclude-regex', 'exclude_regex_paths %d %s' % (i, json.dumps(rx)), doc_e, doc_a,
              {'exclude_regex_paths': rx})
    c.add('exclude-regex', 'exclude_regex ignore_order', [{'a': 1, 'b': 2}, {'a': 5, 'b': 6}, 'p'],
          [{'a': 1, 'b': 3}, {'a': 5, 'b': 7}, 'p'], {'exclude_regex_paths': [r"\['b'\]"], 'ignore_order': True})
    c.add('exclude-regex', 'exclude_regex list', [1, 2, 3, 4], [1, 9, 3, 9, 5], {'exclude_regex_paths': [r"\[3\]"]})


def cat_string_case(c, rng):
    pairs = [('Foo', 'foo'), ('Foo', 'BAR'), ('ABC', 'abd'), ('x\nY', 'X\nz'), ('ß', 'SS'), ('İ', 'i'),
             ('ΣΑΣ', 'σας'), ('', 'A')]
    for i, (x, y) in enumerate(pairs):
        c.add('string-case', 'string case %d' % i, {'v': x}, {'v': y}, {'ignore_string_case': True})
        c.add('string-case', 'string case off %d' % i, {'v': x}, {'v': y})
    c.add('string-case', 'string case keys are not folded', {'Key': 1}, {'key': 1}, {'ignore_string_case': True})
    c.add('string-case', 'string case list', ['A', 'b', 'C'], ['a', 'B', 'd'], {'ignore_string_case': True}, both=True)
    c.add('string-case', 'string case repetition', ['A', 'a', 'b'], ['a', 'B', 'B'],
          {'ignore_string_case': True, 'ignore_order': True})


def cat_multiline(c, rng):
    pairs = [('x\ny', 'x\nz'), ('x\n', 'x'), ('a', 'a\nb'), ('l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9', 'l1\nl2\nl3\nX\nl5\nl6\nl7\nl8\nl9'),
             ('\n'.join('line%d' % i for i in range(20)), '\n'.join('line%d' % i for i in range(20) if i not in (3, 15))),
             ('a\r\nb', 'a\nb'), ('a\rb', 'a\nb'), ('one\n\ntwo', 'one\ntwo'), ('x\ny', 5)]
    for i, (x, y) in enumerate(pairs):
        c.add('multiline', 'multiline %d' % i, {'v': x}, {'v': y})
    c.add('multiline', 'multiline in list', ['a\nb', 'c'], ['a\nc', 'c'], both=True)


def cat_private_keys(c, rng):
    c.add('private-keys', 'dunder key changed', {'__a': 1, 'b': 1}, {'__a': 2, 'b': 1})
    c.add('private-keys', 'dunder key added', {'b': 1}, {'__a': 2, 'b': 1})
    c.add('private-keys', 'dunder key removed', {'__x__': [1], 'b': 1}, {'b': 2})
    c.add('private-keys', 'single underscore key', {'_a': 1}, {'_a': 2})
    c.add('private-keys', 'dunder in list items', [{'__a': 1, 'k': 1}, 'p'], [{'__a': 2, 'k': 1}, 'p'], both=True)


def cat_deep(c, rng):
    for depth in (10, 30, 50):
        def nest(leaf, kind):
            v = leaf
            for i in range(depth):
                v = {'k%d' % (i % 3): v} if (kind == 'dict' or (kind == 'mix' and i % 2)) else [v]
            return v
        for kind in ('dict', 'list', 'mix'):
            c.add('deep-nesting', 'deep %s %d' % (kind, depth), nest(1, kind), nest(2, kind),
                  both=(kind != 'dict' and depth <= 10))
            c.add('deep-nesting', 'deep %s %d type' % (kind, depth), nest(1, kind), nest([1], kind))
    # depth 50 random paths with changes along the way
    v = {}
    cur = v
    for i in range(50):
        cur['side%d' % i] = i
        cur['n'] = {} if i % 2 == 0 else [{}]
        cur = cur['n'] if i % 2 == 0 else cur['n'][0]
    w = deepcopy(v)
    cur = w
    for i in range(50):
        if i % 7 == 0:
            cur['side%d' % i] = -i
        cur = cur['n'] if i % 2 == 0 else cur['n'][0]
    c.add('deep-nesting', 'deep 50 side changes', v, w)


def cat_large(c, rng):
    e = list(range(1200))
    a = list(e)
    for i in (0, 10, 500, 501, 502, 900, 1199):
        a[i] = -a[i] - 1
    del a[700:710]
    a[300:300] = [5000, 5001]
    c.add('large', 'large int list edits', e, a, both=True)
    e = [rand_record(rng, i) for i in range(1000)]
    a = deepcopy(e)
    for i in rng.sample(range(1000), 15):
        a[i]['score'] = -1
    a.append(rand_record(rng, 5000))
    del a[42]
    c.add('large', 'large record list edits', e, a)
    a2 = deepcopy(e)
    rng.shuffle(a2)
    for i in rng.sample(range(1000), 5):
        a2[i]['name'] = 'zed'
    c.add('large', 'large record list shuffled ignore_order', e, a2, {'ignore_order': True})
    e = {'key%04d' % i: i for i in range(1500)}
    a = {k: (v if v % 97 else v + 1) for k, v in e.items() if v % 331}
    a.update({'added%d' % i: i for i in range(5)})
    c.add('large', 'large flat dict', e, a)
    e = [rng.randint(0, 9) for _ in range(1500)]
    a = edit_list(rng, e, 40, list(range(10)))
    c.add('large', 'large small-alphabet list', e, a, both=True)
    e = [rng.choice(STRINGS) for _ in range(1000)]
    c.add('large', 'large equal strings', e, list(e), both=True)


def cat_max_diffs(c, rng):
    e = {'a': 1, 'b': 2, 'c': 3, 'd': {'x': 1, 'y': 2}, 'l': [1, 2, 3]}
    a = {'a': 2, 'b': 3, 'c': 4, 'd': {'x': 5, 'y': 6}, 'l': [1, 5, 6], 'z': 0}
    for m in (0, 1, 2, 3, 4, 5, 7, 9, 12, 20):
        c.add('max-diffs', 'max_diffs %d' % m, e, a, {'max_diffs': m})
    for m in (1, 2, 3, 6):
        c.add('max-diffs', 'max_diffs list %d' % m, [1, 2, 3, 4], [5, 6, 7, 8], {'max_diffs': m}, both=True)


def cat_hash_collisions(c, rng):
    """ignore_order matches items by DeepHash; some strings hash like non-strings."""
    pairs = [([None, 'x'], ['NONE', 'x']), ([1], ['number:1.000000000000']), ([1.5, 'p'], ['number:1.500000000000', 'p']),
             ([True], ['bool:true']), ([False], ['bool:false']), ([{}], ['dict:{}']), ([[]], ['list:']),
             ([None], ['none'])]
    for i, (e, a) in enumerate(pairs):
        c.add('hash-collisions', 'hash collision %d' % i, e, a, both=True)
    c.add('hash-collisions', 'hash collision case-folded null', [None], ['none'], {'ignore_string_case': True, 'ignore_order': True})
    c.add('hash-collisions', 'hash collision case-folded keys', [{'A': 1}], [{'a': 1}], {'ignore_string_case': True, 'ignore_order': True})
    c.add('hash-collisions', 'case-folded keys paired', [{'A': 1}, 'p', 'q'], [{'a': 2}, 'p', 'q'],
          {'ignore_string_case': True, 'ignore_order': True})
    c.add('hash-collisions', 'hash collision in nested list', {'l': [[None, 1], 'p']}, {'l': [['NONE', 1], 'p']}, {'ignore_order': True})


def cat_pairing_distance(c, rng):
    """The weights in ignore_order's distance: null and '_'-prefixed keys weigh 0."""
    ten = ['k%d' % i for i in range(10)]
    c.add('pairing-distance', 'distance plain keys (not paired)', [{'a': 1}, 'p', 'q'],
          [{'a': 1, 'd': {k: 1 for k in ten}}, 'p', 'q'], {'ignore_order': True})
    c.add('pairing-distance', 'distance underscore keys weigh 0 (paired)', [{'a': 1}, 'p', 'q'],
          [{'a': 1, 'd': {'_' + k: 1 for k in ten}}, 'p', 'q'], {'ignore_order': True})
    c.add('pairing-distance', 'distance nulls weigh 0 (paired)', [{'a': 1}, 'p', 'q'],
          [{'a': 1, 'd': [None] * 10}, 'p', 'q'], {'ignore_order': True})
    c.add('pairing-distance', 'distance numbers (not paired)', [{'a': 1}, 'p', 'q'],
          [{'a': 1, 'd': [0] * 10}, 'p', 'q'], {'ignore_order': True})
    c.add('pairing-distance', 'distance dunder keys count 1 in R', [{'a': 1, 'b': 2, '__x': [1, 2, 3]}, 'p', 'q'],
          [{'a': 9, 'b': 8}, 'p', 'q'], {'ignore_order': True})
    c.add('pairing-distance', 'distance type change str->int convertible', [{'a': '1', 'b': 1, 'c': 1}, 'p', 'q'],
          [{'a': 1, 'b': 1, 'c': 1}, 'p', 'q'], {'ignore_order': True})
    c.add('pairing-distance', 'distance type change str->int not convertible', [{'a': 'x', 'b': 1, 'c': 1}, 'p', 'q'],
          [{'a': 1, 'b': 1, 'c': 1}, 'p', 'q'], {'ignore_order': True})
    c.add('pairing-distance', 'distance nested ignore_order list', [{'l': [1, 2, 3, 4], 'n': 'a'}, 'p', 'q'],
          [{'l': [4, 3, 2, 5], 'n': 'a'}, 'p', 'q'], {'ignore_order': True})
    c.add('pairing-distance', 'distance tie: earlier added first', [{'v': 10}, {'v': 30}, 'p', 'q', 'r', 's'],
          [{'v': 20}, {'v': 11}, 'p', 'q', 'r', 's'], {'ignore_order': True})


def cat_raises(c, rng):
    """Inputs on which deepdiff 6.2.2 raises (never fixtures; listed in unstable-cases.json)."""
    c.add('raises', 'raises: significant_digits 0 with NaN', {'v': NaN}, {'v': 1}, {'significant_digits': 0})
    c.add('raises', 'raises: significant_digits 0 with Infinity', {'v': INF}, {'v': 1}, {'significant_digits': 0})
    c.add('raises', 'raises: empty exclude path', {'a': 1}, {'a': 2}, {'exclude_paths': ['']})
    c.add('raises', 'raises: abs_tol with int beyond float range', {'v': 10**400}, {'v': 1}, {'abs_tol': 0.1})


CATEGORIES = [cat_equal, cat_nested_objects, cat_scalar_lists, cat_object_lists, cat_type_changes,
              cat_bool_int, cat_reorder, cat_repetition, cat_pairing, cat_mutual, cat_tolerance,
              cat_significant_digits, cat_float_format, cat_unicode, cat_big_int, cat_nan_inf, cat_empty,
              cat_exclude_paths, cat_string_case, cat_multiline, cat_private_keys, cat_deep, cat_large,
              cat_max_diffs, cat_hash_collisions, cat_pairing_distance, cat_raises]


def build_cases():
    rng = random.Random(SEED)
    c = Corpus()
    for fn in CATEGORIES:
        fn(c, rng)
    return c.cases


# ---------------------------------------------------------------------------
# running under several hash seeds

def quiet():
    logging.getLogger('deepdiff').setLevel(logging.CRITICAL)
    logging.disable(logging.WARNING)
    warnings.simplefilter('ignore')


MUTUAL = {'max': 0}


def watch_mutual_paths():
    """Record how many paths TreeResult.mutual_add_removes_to_become_value_changes
    converts at once.  Two or more are appended to values_changed in the
    iteration order of a Python set of path strings, which depends on
    PYTHONHASHSEED; such a case is unstable even if the seeds tried happen
    to agree.  (Observation only: the method itself runs unchanged.)"""
    from deepdiff.model import TreeResult
    original = TreeResult.mutual_add_removes_to_become_value_changes

    def wrapped(self):
        if self.get('iterable_item_added') and self.get('iterable_item_removed'):
            added = {i.path() for i in self['iterable_item_added']}
            removed = {i.path() for i in self['iterable_item_removed']}
            MUTUAL['max'] = max(MUTUAL['max'], len(added & removed))
        return original(self)
    TreeResult.mutual_add_removes_to_become_value_changes = wrapped


def worker(cases_path, out_path):
    """Compute every case's diff in this process (one PYTHONHASHSEED)."""
    quiet()
    watch_mutual_paths()
    sys.setrecursionlimit(10000)
    with open(cases_path, encoding='utf-8') as f:
        cases = json.load(f)
    out = []
    for case in cases:
        MUTUAL['max'] = 0
        try:
            diff = run_deepdiff(case['expected_text'], case['actual_text'], case['deepdiff_options'])
            out.append({'ok': True, 'diff_text': json.dumps(diff, ensure_ascii=False),
                        'mutual': MUTUAL['max']})
        except Exception as e:  # recorded, the case is not written as a fixture
            out.append({'ok': False, 'error': '%s: %s' % (type(e).__name__, str(e)[:200])})
    with open(out_path, 'w', encoding='utf-8') as f:
        json.dump(out, f, ensure_ascii=False)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--worker':
        worker(sys.argv[2], sys.argv[3])
        return
    cases = build_cases()
    tmp = os.path.join(OUT_DIR, '.tmp')
    os.makedirs(tmp, exist_ok=True)
    cases_path = os.path.join(tmp, 'cases.json')
    with open(cases_path, 'w', encoding='utf-8') as f:
        json.dump(cases, f, ensure_ascii=False)
    procs = []
    for hs in HASH_SEEDS:
        env = dict(os.environ, PYTHONHASHSEED=hs)
        outp = os.path.join(tmp, 'out-%s.json' % hs)
        procs.append((hs, outp, subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), '--worker', cases_path, outp], env=env)))
    results = {}
    for hs, outp, p in procs:
        if p.wait() != 0:
            raise SystemExit('worker for PYTHONHASHSEED=%s failed' % hs)
        with open(outp, encoding='utf-8') as f:
            results[hs] = json.load(f)
        os.unlink(outp)
    os.unlink(cases_path)
    os.rmdir(tmp)

    for name in os.listdir(OUT_DIR):
        if name.endswith('.json') and name[:4].isdigit():
            os.unlink(os.path.join(OUT_DIR, name))

    unstable = []
    counts = {}
    n = 0
    for idx, case in enumerate(cases):
        outs = [results[hs][idx] for hs in HASH_SEEDS]
        if not all(o['ok'] for o in outs):
            unstable.append({'name': case['name'], 'category': case['category'], 'reason': 'raises',
                             'expected': case['expected_text'], 'actual': case['actual_text'],
                             'deepdiff_options': case['deepdiff_options'],
                             'errors': sorted({o.get('error', '') for o in outs})})
            continue
        texts = {hs: results[hs][idx]['diff_text'] for hs in HASH_SEEDS}
        if len(set(texts.values())) != 1 or max(o['mutual'] for o in outs) >= 2:
            reason = ('output differs between PYTHONHASHSEED values' if len(set(texts.values())) != 1
                      else 'not seen to differ, but 2+ mutual add/remove paths (set order)')
            unstable.append({'name': case['name'], 'category': case['category'],
                             'reason': reason,
                             'expected': case['expected_text'], 'actual': case['actual_text'],
                             'deepdiff_options': case['deepdiff_options'],
                             'outputs': {hs: json.loads(t) for hs, t in texts.items()}})
            continue
        n += 1
        counts[case['category']] = counts.get(case['category'], 0) + 1
        fname = '%04d-%s.json' % (n, case['category'])
        # Assemble the fixture as text so the documents are byte-for-byte the
        # texts deepdiff was run on.
        text = ('{\n"name": %s,\n"options": %s,\n"deepdiff_options": %s,\n"expected": %s,\n'
                '"actual": %s,\n"diff": %s\n}\n') % (
            json.dumps(case['name'], ensure_ascii=False),
            json.dumps(case['options'], ensure_ascii=False, sort_keys=True),
            json.dumps(case['deepdiff_options'], ensure_ascii=False, sort_keys=True),
            case['expected_text'], case['actual_text'],
            json.dumps(json.loads(texts[HASH_SEEDS[0]]), ensure_ascii=False, indent=1))
        with open(os.path.join(OUT_DIR, fname), 'w', encoding='utf-8') as f:
            f.write(text)
    with open(UNSTABLE_FILE, 'w', encoding='utf-8') as f:
        json.dump(unstable, f, ensure_ascii=False, indent=1)
        f.write('\n')
    print('wrote %d fixtures to %s' % (n, os.path.relpath(OUT_DIR, ROOT)))
    for cat in sorted(counts):
        print('  %-20s %d' % (cat, counts[cat]))
    print('excluded %d case(s), see %s' % (len(unstable), os.path.relpath(UNSTABLE_FILE, ROOT)))
    for u in unstable:
        print('  - %s: %s' % (u['name'], u['reason']))


if __name__ == '__main__':
    main()
