#!/bin/bash
# termloop.sh SUITE N: SIGTERM at random moments; the interrupted folder must agree with itself.
A=/work/wt/hostile/build/assay
suite=$1 n=$2
for i in $(seq 1 $n); do
  out=/tmp/h/tl-$i; rm -rf $out
  $A run $suite -o $out -q >/dev/null 2>&1 & pid=$!
  sleep $(python3 -c "import random;print(random.uniform(0.05,1.0))"); kill -TERM $pid; wait $pid; rc=$?
  st=$(sqlite3 "file:$out/assay.db?mode=ro" "select count(*) from cases")
  ln=$(wc -l < $out/reports.jsonl)
  sm=$(python3 -c "import json;s=json.load(open('$out/summary.json'));print(s['totals']['total']-len(s.get('not_run',[])), s['interrupted'])" 2>&1)
  fin=$(sqlite3 "file:$out/assay.db?mode=ro" "select finished is not null, interrupted from run")
  echo "iter $i rc=$rc store=$st lines=$ln summary(ran,interrupted)=$sm run=$fin"
done
