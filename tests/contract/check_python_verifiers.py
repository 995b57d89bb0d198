"""Runs a suite's Python verifiers under the contract's own definitions (verifier_models.py) and
compares their results with assay's reports.jsonl, case by case (tests/cli/t3101).

    python3 check_python_verifiers.py SUITE_DIR REPORTS_JSONL

Independent of assay: each case's program (the suite's `command` + `arguments`) is run here with
subprocess in a fresh folder, its files read, and the verifier (the same file assay ran) is built
with the checkpoint's mapping and called with objects carrying the CaseResult attributes, with
VerificationResult being the contract's model. For every case, the attributes the verifier
returned must be in assay's report with the same is_correct, weight and diff, assay must have
verified nothing else, and the report's score and passed must be calculate_score and did_pass
(for Python verifiers assay has no partial credit, so its score and the contract's agree).
Diffs that print a measured time (Example 4's efficiency) are compared up to the figure.
Prints one line per difference; exits 1 if there is any.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import types

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import verifier_models  # noqa: E402  (the contract's definitions)

for name in ["slop_code", "slop_code.evaluation", "slop_code.evaluation.verifiers"]:
    sys.modules.setdefault(name, types.ModuleType(name))
sys.modules["slop_code.evaluation.verifiers.models"] = verifier_models

TIME = re.compile(r"\d+\.\d{3}s")


class Obj:
    def __init__(self, values):
        self.__dict__.update(values)


def load_verifier(suite, spec, config):
    path = os.path.join(suite, spec["python"])
    sys.path.insert(0, os.path.dirname(path))
    module = types.ModuleType("verifier_" + os.path.basename(path)[:-3])
    module.__file__ = path
    # in scope as in the guide, as assay's bridge does (the examples use it unimported)
    module.VerificationResult = verifier_models.VerificationResult
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), module.__dict__)
    return getattr(module, spec.get("class", "Verifier"))(dict(config))


def run_case(command, args, paths):
    work = tempfile.mkdtemp(prefix="contract-case-")
    t0 = time.monotonic()
    p = subprocess.run(command + args, cwd=work, capture_output=True, stdin=subprocess.DEVNULL)
    elapsed = time.monotonic() - t0
    files = {}
    for rel in paths:
        full = os.path.join(work, rel)
        if os.path.isfile(full):
            with open(full, encoding="utf-8", errors="replace") as f:
                files[rel] = f.read()
    return {"output": p.stdout.decode("utf-8", "replace"),
            "stderr": p.stderr.decode("utf-8", "replace"),
            "status_code": p.returncode, "files": files, "execution_time": elapsed}


def reference(suite):
    with open(os.path.join(suite, "suite.yaml"), encoding="utf-8") as f:
        s = yaml.safe_load(f)
    command = s["adapter"]["command"]
    out = {}
    for cp_name, cp in s["checkpoints"].items():
        spec = cp.get("verifier") or s.get("verifier")
        verifier = load_verifier(suite, spec, cp)
        for g_name, g in cp["groups"].items():
            folder = os.path.join(suite, cp.get("path", cp_name), g_name)
            for file in sorted(os.listdir(folder)):
                with open(os.path.join(folder, file), encoding="utf-8") as f:
                    case = yaml.safe_load(f)
                cid = file.rsplit(".", 1)[0]
                exp = case.get("expected", {})
                paths = [fs["path"] for fs in exp.get("files", [])] \
                    if isinstance(exp.get("files"), list) else list(exp.get("files", {}))
                got = run_case(command, case.get("arguments", []), paths)
                gtype = (g or {}).get("type", "Functionality")
                actual = Obj(dict(id=cid, group=g_name, group_type=gtype, **got))
                expected = Obj(dict(dict(id=cid, group=g_name, group_type=gtype, output=None,
                                         stderr=None, status_code=None, files={}), **exp))
                results = verifier(g_name, cid, actual, expected)
                results = {k: (v if isinstance(v, verifier_models.VerificationResult)
                               else verifier_models.VerificationResult(**v))
                           for k, v in results.items()}
                out[(cp_name, g_name, cid)] = {
                    "results": {k: {"is_correct": v.is_correct, "weight": v.weight,
                                    "diff": v.diff} for k, v in results.items()},
                    "score": verifier_models.calculate_score(results),
                    "passed": verifier_models.did_pass(results)}
    return out


def same_diff(a, b):
    if isinstance(a, str) and isinstance(b, str):
        return TIME.sub("T", a) == TIME.sub("T", b)
    return a == b


def main():
    suite, reports = sys.argv[1], sys.argv[2]
    want = reference(suite)
    problems = []
    seen = set()
    with open(reports, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            c = r["case"]  # assay's checkpoint, score, passed live in the line's case
            key = (c["checkpoint"], r["group"], r["id"])
            seen.add(key)
            if key not in want:
                problems.append("%s: not in the suite's reference" % "/".join(key))
                continue
            w = want[key]
            verified = {k: v for k, v in r["results"].items() if v["is_correct"] is not None}
            if set(verified) != set(w["results"]):
                problems.append("%s: assay verified %s, the contract %s"
                                % ("/".join(key), sorted(verified), sorted(w["results"])))
            for k, v in w["results"].items():
                a = verified.get(k)
                if a is None:
                    continue
                if a["is_correct"] != v["is_correct"] or a["weight"] != v["weight"]:
                    problems.append("%s %s: assay (%s, %s), contract (%s, %s)"
                                    % ("/".join(key), k, a["is_correct"], a["weight"],
                                       v["is_correct"], v["weight"]))
                if not same_diff(a["diff"], v["diff"]):
                    problems.append("%s %s: diff %r, contract %r"
                                    % ("/".join(key), k, a["diff"], v["diff"]))
            if abs(c["score"] - w["score"]) > 1e-12:
                problems.append("%s: score %r, calculate_score %r"
                                % ("/".join(key), c["score"], w["score"]))
            if c["passed"] != w["passed"]:
                problems.append("%s: passed %r, did_pass %r"
                                % ("/".join(key), c["passed"], w["passed"]))
    for key in sorted(set(want) - seen):
        problems.append("%s: no report from assay" % "/".join(key))
    for p in problems:
        print(p)
    print("%d cases compared, %d differences" % (len(want), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
