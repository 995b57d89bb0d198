#!/usr/bin/env python3
"""check_results.py DIR EXPECTED_TOTAL: consistency of a results folder after a finished run.
Prints problems; exit 1 if any."""
import sqlite3, json, sys, os, hashlib
d, total = sys.argv[1], int(sys.argv[2])
probs = []
db = sqlite3.connect(f"file:{d}/assay.db?mode=ro", uri=True)
ic = db.execute("PRAGMA integrity_check").fetchone()[0]
if ic != "ok": probs.append(f"integrity {ic}")
rows = db.execute("SELECT checkpoint, grp, id, line, passed FROM cases ORDER BY position, seq").fetchall()
names = [(r[0], r[1], r[2]) for r in rows]
if len(set(names)) != len(names): probs.append("duplicate case rows")
if len(rows) != total: probs.append(f"store has {len(rows)} cases, expected {total}")
# attributes per case (in its line since schema 3: docs/reports.md "The store")
noattr = db.execute("SELECT count(*) FROM cases c WHERE NOT EXISTS"
                    " (SELECT 1 FROM json_each(c.line, '$.results'))").fetchone()[0]
if noattr: probs.append(f"{noattr} cases without attributes")
# every value cut out of a stored line has its blob
nocut = db.execute("SELECT count(*) FROM cases c, json_tree(c.line) t WHERE t.key = 'sha256'"
                   " AND t.path LIKE '%assay_cut%' AND t.value NOT IN (SELECT sha256 FROM blobs)").fetchone()[0]
if nocut: probs.append(f"{nocut} cut values without their blob")
lines = open(f"{d}/reports.jsonl", "rb").read().split(b"\n")
if lines and lines[-1] == b"": lines.pop()
if len(lines) != len(rows): probs.append(f"reports.jsonl has {len(lines)} lines, store {len(rows)}")
for i, (l, r) in enumerate(zip(lines, rows)):
    if l.decode() != r[3]:
        probs.append(f"line {i} differs from store"); break
ids = [json.loads(l)["id"] for l in lines if l.strip()]
if len(set(ids)) != len(ids): probs.append("duplicate ids in reports.jsonl")
s = json.load(open(f"{d}/summary.json"))
t = s.get("totals", {})
if t.get("total") != total: probs.append(f"summary total {t.get('total')}")
passed = sum(r[4] for r in rows)
if t.get("passed") != passed: probs.append(f"summary passed {t.get('passed')} store {passed}")
if s.get("interrupted"): probs.append("summary says interrupted")
# blob records vs files
for sha, kind, n in db.execute("SELECT sha256, kind, bytes FROM blobs"):
    ch = db.execute("SELECT count(*) FROM blob_chunks WHERE blob=?", (sha,)).fetchone()[0]
    if not ch and n > 0:
        p = f"{d}/blobs/{sha}"
        if not os.path.isfile(p): probs.append(f"blob file {sha[:12]} missing"); continue
        if hashlib.sha256(open(p, "rb").read()).hexdigest() != sha: probs.append(f"blob file {sha[:12]} bad")
fin = db.execute("SELECT finished, interrupted FROM run").fetchone()
if not fin[0] or fin[1]: probs.append(f"run row finished={fin[0]} interrupted={fin[1]}")
for p in probs: print("PROBLEM:", p)
sys.exit(1 if probs else 0)
