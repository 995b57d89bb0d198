#!/usr/bin/python3
"""Hostile review 2: run json-verifier cases through new assay, old assay (baseline) and deepdiff.
usage: cmp.py CASES.py  (a python file defining CASES = [(name, expected_text, actual_bytes, options), ...])"""
import json, os, shutil, subprocess, sys
NEW = os.environ.get('NEW', '/work/wt/hostile2/build/assay')
OLD = os.environ.get('OLD', '/tmp/h2base/build/assay')
ROOT = '/tmp/h2/suite'

def ystr(s):
    return json.dumps(s)  # JSON string is valid YAML double-quoted scalar

def build(cases):
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(ROOT + '/sub'); os.makedirs(ROOT + '/cp/g')
    with open(ROOT + '/suite.yaml', 'w') as f:
        f.write('name: h2\nadapter:\n  type: cli\n  command: [cat]\n  submission: sub\n'
                'checkpoints:\n  cp:\n    groups:\n      g:\n        type: Core\n')
    for i, (name, exp, act, opts) in enumerate(cases):
        with open(f'{ROOT}/sub/a{i}', 'wb') as f:
            f.write(act if isinstance(act, bytes) else act.encode())
        v = {'verifier': 'json'}; v.update(opts)
        with open(f'{ROOT}/cp/g/c{i:03d}.yaml', 'w') as f:
            f.write(f'arguments: [a{i}]\nexpected:\n  output: {ystr(exp)}\n'
                    f'verify:\n  output: {json.dumps(v)}\n')
    subprocess.run(['chmod', '-R', '755', '/tmp/h2'])

def run(binary):
    p = subprocess.run([binary, 'run-case', ROOT, '--format', 'json', '--full', '-q', '--sandbox', 'off'],
                       capture_output=True, text=True, timeout=600)
    try:
        res = json.loads(p.stdout)
    except Exception:
        return {'_err': (p.returncode, p.stdout[-500:], p.stderr[-500:])}
    out = {}
    for r in res:
        cid = r.get('id') or r.get('case') or r.get('case_id')
        out[cid.split('/')[-1]] = r
    return out

def kw(options):
    k = {'ignore_numeric_type_changes': True}
    if options.get('ignore_order'):
        k['ignore_order'] = True; k['report_repetition'] = True
    for n in ('exclude_paths', 'exclude_regex_paths', 'ignore_string_case', 'significant_digits',
              'number_format_notation', 'max_diffs'):
        if n in options: k[n] = options[n]
    if 'abs_tol' in options: k['math_epsilon'] = options['abs_tol']
    return k

def dd(exp, act, opts):
    from deepdiff import DeepDiff
    try:
        t1 = json.loads(exp); t2 = json.loads(act)
    except Exception as e:
        return 'parse-error: %s' % e
    try:
        return json.loads(DeepDiff(t1, t2, **kw(opts)).to_json())
    except Exception as e:
        return 'raise: %r' % e

def verdict(r):
    if not isinstance(r, dict): return r
    a = None
    for at in r.get('attributes', r.get('verifications', [])) if isinstance(r.get('attributes', r.get('verifications')), list) else []:
        pass
    return r

if __name__ == '__main__':
    ns = {}
    exec(open(sys.argv[1]).read(), ns)
    cases = ns['CASES']
    build(cases)
    new = run(NEW); old = run(OLD)
    if '_err' in new or '_err' in old:
        print('ERR', new.get('_err'), old.get('_err'))
    for i, (name, exp, act, opts) in enumerate(cases):
        cid = f'c{i:03d}'
        n = new.get(cid); o = old.get(cid)
        ddr = dd(exp, act if isinstance(act, str) else act.decode('utf-8', 'surrogatepass'), opts)
        def summ(r):
            if r is None: return None
            v = r.get('results', {}).get('output', r)
            return json.dumps({'ok': v.get('is_correct'), 'diff': v.get('diff')}, sort_keys=True)[:600]
        sn, so = summ(n), summ(o)
        flag = '' if sn == so else '  <<< NEW!=OLD'
        if isinstance(ddr, dict) and n is not None:
            nv = n.get('results', {}).get('output', {})
            if nv.get('is_correct') != (ddr == {}): flag += '  <<< VERDICT!=DEEPDIFF'
        print(f'--- {cid} {name} {json.dumps(opts)}{flag}\n  new: {sn}\n  old: {so if sn != so else "(same)"}\n  dd : {json.dumps(ddr)[:400]}')
