#!/bin/bash
# forge.sh NAME 'commands run in the forged copy f of shard s1': then merge f s2, show, report.
# Run from /tmp/h/m (shards s1 s2 of /tmp/h/mix).
A=/work/wt/hostile/build/assay
name=$1; cmd=$2
rm -rf f out; cp -a s1 f
(cd f && eval "$cmd")
/usr/bin/time -f "%e s %M KB" -o tm timeout ${TMO:-120} $A merge f s2 --suite /tmp/h/mix -o out -q > mo 2> me; rc=$?
echo "== $name: merge rc=$rc ($(cat tm | tail -1)) $(head -c 300 me | tr '\n' ' ')"
timeout ${TMO:-120} $A show f big3 >/dev/null 2> se; echo "   show big1 rc=$? $(head -c 200 se| tr '\n' ' ')"
timeout ${TMO:-120} $A report f --format json >/dev/null 2> re; echo "   report rc=$? $(head -c 200 re| tr '\n' ' ')"
