# Random expected/actual pairs for cmp.py (exec'd): CASES built from a seed.
import json, os, random
R = random.Random(int(os.environ.get('SEED', '1')))
N = int(os.environ.get('NCASES', '300'))
LEAVES = ['1', '1.0', '-0.0', '0.0', '0', 'NaN', 'Infinity', '-Infinity', 'true', 'false', 'null',
          '"a"', '"A"', '"a\\u0000"', '"\\ud800"', '"\\u00e9"', '"\u00e9"', '12345678901234567890',
          '12345678901234567891', '1e2', '100', '2', '"b"', '""', '[]', '{}', '1.0000000000001']
KEYS = ['a', 'b', 'c', '_p', '__q', '', 'A', 'k\\u0000', 'a\\"b', 'x']

def gen(d=0):
    r = R.random()
    if d > 4 or r < 0.35:
        return R.choice(LEAVES)
    if r < 0.65:
        return '[' + ','.join(gen(d + 1) for _ in range(R.randint(0, 5))) + ']'
    ks = [R.choice(KEYS) for _ in range(R.randint(0, 5))]
    return '{' + ','.join('"%s":%s' % (k, gen(d + 1)) for k in ks) + '}'

def mutate(t):
    # mutate at text level through a parsed tree of tokens: simplest is regenerate parts
    ops = R.randint(0, 3)
    for _ in range(ops):
        c = R.random()
        if c < 0.3:
            # replace one leaf occurrence
            leaf = R.choice(LEAVES)
            idxs = [i for i in range(len(t)) if t.startswith(leaf, i)]
            if idxs:
                i = R.choice(idxs)
                t = t[:i] + R.choice(LEAVES) + t[i + len(leaf):]
        elif c < 0.5:
            # duplicate a key: insert "k": value after an opening brace
            idxs = [i for i, ch in enumerate(t) if ch == '{']
            if idxs:
                i = R.choice(idxs)
                ins = '"%s":%s' % (R.choice(KEYS), gen(3))
                t = t[:i + 1] + ins + ('' if t[i + 1] == '}' else ',') + t[i + 1:]
        elif c < 0.7:
            idxs = [i for i, ch in enumerate(t) if ch == '[']
            if idxs:
                i = R.choice(idxs)
                ins = gen(3)
                t = t[:i + 1] + ins + ('' if t[i + 1] == ']' else ',') + t[i + 1:]
        else:
            pass
    return t

OPTS = [{}, {"ignore_order": True}, {"significant_digits": 2}, {"significant_digits": 0},
        {"ignore_string_case": True}, {"exclude_paths": ["root['a']"]},
        {"exclude_regex_paths": ["\\['b'\\]"]}, {"abs_tol": 0.5}, {"strict_types": True},
        {"exact_integers": True}, {"ignore_order": True, "significant_digits": 1},
        {"ignore_extra_keys": True}, {"number_format_notation": "e", "significant_digits": 1}]
CASES = []
for i in range(N):
    e = gen()
    a = mutate(e) if R.random() < 0.8 else e
    CASES.append(("f%d" % i, e, a, R.choice(OPTS)))
