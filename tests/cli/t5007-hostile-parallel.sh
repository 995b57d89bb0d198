#!/usr/bin/env bash
# The hostile suite of t5003 with two cases running at once (-j2): no attack may reach a case
# running beside it, the results store or the run.
HOSTILE_JOBS=2 exec bash "$(dirname "$0")/t5003-hostile.sh"
