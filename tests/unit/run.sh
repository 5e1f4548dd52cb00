#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run every unit test program given as an argument, pass its TAP through, and
# end with the line "N passed, N failed" (", N skipped" when a check was skipped for
# want of a tool or of root; with CI=true a skip is a failure).  A program that crashes or exits
# non-zero without a "not ok" line counts as one failure.
passed=0
failed=0
skipped=0
for t in "$@"; do
	name=${t#build/}
	echo "# $name"
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	# a skip (a tool missing) is no pass; in CI, where every tool is installed, a failure
	s=$(printf '%s\n' "$out" | grep -c '^ok .*# SKIP')
	p=$((p - s))
	if [ "$s" -gt 0 ] && [ "${CI:-}" = true ]; then
		echo "not ok - $name: $s checks skipped in CI (a tool is missing: sh tests/deps.sh check)"
		f=$((f + s))
		s=0
	fi
	skipped=$((skipped + s))
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
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
