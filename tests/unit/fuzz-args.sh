#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/fuzz/run.sh refuses a duration it cannot bound: libFuzzer takes
# -max_total_time=0 as no limit, so "0" would fuzz for ever (make fuzz
# FUZZ_SECONDS=0).  Each call is bounded: a refusal comes before any build.
top=$(cd "$(dirname "$0")/../.." && pwd)
n=0
failed=0
# shellcheck source=tests/unit/tap.sh
. "$(dirname "$0")/tap.sh"

for a in 0 00 007 -1 1x; do
	timeout 20 sh "$top/tests/fuzz/run.sh" "$a" >/dev/null 2>&1
	rc=$?
	if [ "$rc" -eq 2 ]; then
		ok "fuzz/run.sh '$a': refused as usage (2)"
	else
		not_ok "fuzz/run.sh '$a': refused as usage (2), got $rc"
	fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
