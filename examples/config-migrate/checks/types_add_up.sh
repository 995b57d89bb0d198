#!/bin/sh
# A command plug-in (include/assay/plugin.h), kept running for the whole run (persistent: true):
# for each request line on stdin, one answer line on stdout. It checks a property no built-in
# verifier states: the summary's counts of each type add up to its count of keys, and the
# number of sections is the one the case expects.
exec jq -c --unbuffered '
  (.actual | try fromjson catch null) as $s
  | if $s == null then {is_correct: false, diff: "the summary is not JSON"}
    else (($s.types // {}) | add // 0) as $sum
      | {is_correct: ($sum == $s.keys and $s.sections == .expected.sections),
         diff: (if $sum == $s.keys and $s.sections == .expected.sections then null
                else "types add up to \($sum), keys say \($s.keys); sections \($s.sections), expected \(.expected.sections)" end)}
    end'
