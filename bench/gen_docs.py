#!/usr/bin/env python3
"""Generates the pair of documents of the diff benchmark (issue #6): N records of
id/name/email/tags/score/nested (170,000 records make about 22 MB); the second document has 1%
of its records changed (a leaf changed, a key added or removed, an item appended), its last
0.05% of records removed and 0.1% new records appended. Deterministic for a given seed.

usage: bench/gen_docs.py N OUT_EXPECTED OUT_ACTUAL [SEED]
"""
import json
import random
import sys


def record(rng, i):
    return {
        "id": i,
        "name": "user-%06d" % i,
        "email": "u%d@x.io" % i,
        "tags": [rng.choice(["red", "green", "blue", "amber", "teal"]) for _ in range(rng.randint(1, 3))],
        "score": round(rng.uniform(0, 1000), 2),
        "nested": {"level": rng.randint(0, 9), "ok": rng.random() < 0.5},
    }


def mutate(rng, rec):
    r = json.loads(json.dumps(rec))
    roll = rng.random()
    if roll < 0.4:
        r["score"] = round(r["score"] + rng.uniform(1, 10), 3)
    elif roll < 0.6:
        r["nested"]["level"] = r["nested"]["level"] + 1
    elif roll < 0.75:
        r["name"] = r["name"].upper()
    elif roll < 0.85:
        r["extra"] = rng.randint(0, 100)          # a key added
    elif roll < 0.95:
        del r["email"]                            # a key removed
    else:
        r["tags"].append("new")                   # an item appended
    return r


def main():
    n = int(sys.argv[1])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    rng = random.Random(seed)
    expected = [record(rng, i) for i in range(n)]
    actual = []
    for rec in expected[: n - n // 2000]:         # the last items removed
        actual.append(mutate(rng, rec) if rng.random() < 0.01 else rec)
    for i in range(n // 1000):
        actual.append(record(rng, n + i))         # items appended
    with open(sys.argv[2], "w") as f:
        json.dump(expected, f)
    with open(sys.argv[3], "w") as f:
        json.dump(actual, f)


main()
