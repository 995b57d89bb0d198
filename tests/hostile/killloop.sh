#!/bin/bash
# killloop.sh SUITE TOTAL N [extra run args]: kill -9 assay at random moments, check the store,
# resume, check the finished results folder.
A=/work/wt/hostile/build/assay
CHK=/work/wt/hostile/tests/hostile/check_results.py
suite=$1 total=$2 n=$3; shift 3
fails=0
for i in $(seq 1 $n); do
  out=/tmp/h/kl-$i; rm -rf $out
  $A run $suite -o $out -q "$@" >/dev/null 2>&1 &
  pid=$!
  d=$(python3 -c "import random;print(random.uniform(0.05,${MAXT:-1.2}))")
  sleep $d; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
  # state right after the kill
  pre_store=$(sqlite3 "file:$out/assay.db?mode=ro" "select count(*) from cases" 2>&1)
  pre_lines=$(wc -l < $out/reports.jsonl 2>/dev/null)
  rep=$($A report $out --format json 2>&1 >/dev/null | head -2)
  $A run $suite -o $out -q --resume "$@" >/tmp/h/kl-$i.resume.out 2>&1; rc=$?
  res=$(python3 $CHK $out $total 2>&1)
  echo "iter $i kill@$d store=$pre_store lines=$pre_lines resume_rc=$rc ${rep:+report_err=$rep} $res"
  [ -n "$res" ] && fails=$((fails+1))
done
echo "fails=$fails"
