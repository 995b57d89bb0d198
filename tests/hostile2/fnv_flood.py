#!/usr/bin/python3
"""Keys whose FNV-1a hashes agree in their low BITS bits (Joux multicollision: the low bits of
FNV-1a depend only on the low bits of its state), printed as one JSON object with 2**M keys.
usage: fnv_flood.py M [BITS] > out.json"""
import itertools, sys
M = int(sys.argv[1]); BITS = int(sys.argv[2]) if len(sys.argv) > 2 else 22
MASK = (1 << BITS) - 1
P = 1099511628211
ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
def step(h, s):
    for ch in s.encode():
        h = ((h ^ ch) * P) & MASK
    return h
h = 1469598103934665603 & MASK
blocks = []
for _ in range(M):
    seen = {}
    for t in itertools.product(ALPHA, repeat=3):
        s = ''.join(t); v = step(h, s)
        if v in seen:
            blocks.append((seen[v], s)); h = v; break
        seen[v] = s
    else:
        sys.exit('no collision')
out = sys.stdout
out.write('{')
for i, combo in enumerate(itertools.product(*blocks)):
    out.write(('' if i == 0 else ',') + '"' + ''.join(combo) + '":' + str(i))
out.write('}')
