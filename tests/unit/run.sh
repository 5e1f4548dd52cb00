#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run every unit test program given as an argument, pass its TAP through, and
# end with the line "N passed, N failed".  A program that crashes or exits
# non-zero without a "not ok" line counts as one failure.
passed=0
failed=0
for t in "$@"; do
	name=${t#build/}
	echo "# $name"
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name: exited with status $rc"
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name: ran no checks"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
