#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-suspend's non-kernel paths under valgrind: usage errors, bad devices and
# --check never reach /dev/snapshot, so they are safe on the build host.  Each must
# be free of memory errors and leaks and give the documented exit status.
bin=${TORPOR_SUSPEND:-build/torpor-suspend}
n=0
fail=0

vg() {
	want=$1
	shift
	n=$((n + 1))
	out=$(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$bin" "$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		echo "ok $n - valgrind: torpor-suspend $* exits $want cleanly"
	else
		echo "not ok $n - valgrind: torpor-suspend $* exited $rc, wanted $want"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=1
	fi
}

if ! command -v valgrind >/dev/null 2>&1; then
	echo "not ok 1 - valgrind not installed (sh tests/deps.sh check installs it)"
	exit 1
fi
vg 0 --help
vg 2 --bogus-option
vg 2 --resume-offset=abc
vg 2 extra-argument
vg 1 --check --resume=/dev/null
vg 1 --check --resume=/nonexistent/device
vg 1 --check --resume=UUID=00000000-0000-0000-0000-000000000000
exit $fail
