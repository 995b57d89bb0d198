#!/usr/bin/python3
"""Re-run deepdiff on every parity fixture and check the stored diff is reproduced.

    /usr/bin/python3 tests/parity/check_fixtures.py [FIXTURE ...]

For each tests/fixtures/parity/NNNN-*.json (or the files given): parse it with
json.load (which accepts NaN/Infinity and keeps big integers exact), check that
deepdiff_options is what gen_corpus.py maps options to, run
DeepDiff(expected, actual, **deepdiff_options), and compare
json.loads(to_json()) with "diff" as canonical JSON text, so key order,
int-vs-float and NaN all count.  Exit status 1 on any mismatch.
"""
import glob
import json
import logging
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gen_corpus import OUT_DIR, deepdiff_kwargs  # noqa: E402


def canon(v):
    return json.dumps(v, ensure_ascii=False, allow_nan=True)


def main(argv):
    from deepdiff import DeepDiff
    import deepdiff
    if deepdiff.__version__ != '6.2.2':
        print('warning: deepdiff %s, the fixtures were made with 6.2.2' % deepdiff.__version__)
    logging.disable(logging.WARNING)
    warnings.simplefilter('ignore')
    files = argv or sorted(glob.glob(os.path.join(OUT_DIR, '[0-9][0-9][0-9][0-9]-*.json')))
    if not files:
        print('no fixtures found in %s' % OUT_DIR)
        return 1
    t0 = time.time()
    bad = 0
    for path in files:
        with open(path, encoding='utf-8') as f:
            fx = json.load(f)
        name = os.path.basename(path)
        problems = []
        if deepdiff_kwargs(fx['options']) != fx['deepdiff_options']:
            problems.append('deepdiff_options do not match the mapping of options')
        # Parse the documents from text again, as assay's contract does (this
        # also makes every NaN the one float object json.loads uses for NaN).
        t1 = json.loads(canon(fx['expected']))
        t2 = json.loads(canon(fx['actual']))
        try:
            got = json.loads(DeepDiff(t1, t2, **fx['deepdiff_options']).to_json())
        except Exception as e:
            problems.append('deepdiff raised %s: %s' % (type(e).__name__, e))
        else:
            if canon(got) != canon(fx['diff']):
                problems.append('diff differs:\n  stored: %s\n  now:    %s' % (canon(fx['diff'])[:2000],
                                                                              canon(got)[:2000]))
        if problems:
            bad += 1
            print('FAIL %s (%s)' % (name, fx.get('name')))
            for p in problems:
                print('  ' + p)
    dt = time.time() - t0
    print('%d fixture(s) checked in %.1f s, %d failed' % (len(files), dt, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
