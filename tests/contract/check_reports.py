#!/usr/bin/env python3
"""Validates every line of reports.jsonl files with the contract's models (verification_models.py)
and checks that the score and verdict assay states for the case (`case.score`, `case.passed`)
are the contract's calculate_score and did_pass of the line's results.

usage: check_reports.py [--format-result] REPORTS.jsonl...
Prints one line per problem and exits 1 if there was any; else prints "N lines valid".
With --format-result, prints instead a JSON object {checkpoint/group/id: format_result()}.
"""

import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pydantic import ValidationError  # noqa: E402

from verification_models import VerifierReport, calculate_score  # noqa: E402


def main(argv):
    show_format = False
    if argv and argv[0] == "--format-result":
        show_format = True
        argv = argv[1:]
    problems = 0
    n = 0
    formats = {}
    for path in argv:
        with open(path, encoding="utf-8") as f:
            for lineno, text in enumerate(f, 1):
                if not text.strip():
                    continue
                n += 1
                where = f"{path}:{lineno}"
                try:
                    report = VerifierReport.model_validate_json(text)
                except ValidationError as e:
                    problems += 1
                    print(f"{where}: not a VerifierReport: {e}")
                    continue
                case = report.case
                score = calculate_score(report.results)
                if not isinstance(case.get("score"), (int, float)) or not math.isclose(
                    case["score"], score, rel_tol=0, abs_tol=1e-9
                ):
                    problems += 1
                    print(f"{where}: case.score {case.get('score')!r}, calculate_score {score!r}")
                if case.get("passed") is not report.did_pass():
                    problems += 1
                    print(f"{where}: case.passed {case.get('passed')!r}, "
                          f"did_pass {report.did_pass()!r}")
                key = f"{case.get('checkpoint')}/{report.group}/{report.id}"
                formats[key] = report.format_result()
    if show_format:
        json.dump(formats, sys.stdout, sort_keys=True, indent=1)
        print()
    elif not problems:
        print(f"{n} lines valid")
    return 1 if problems or not n else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
