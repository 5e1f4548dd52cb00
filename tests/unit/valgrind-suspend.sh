#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-suspend's non-kernel paths under valgrind: usage errors, bad devices and
# --check never reach /dev/snapshot, so they are safe on the build host.  Each must
# be free of memory errors and leaks and give the documented exit status.
bin=${TORPOR_SUSPEND:-build/torpor-suspend}
n=0
fail=0

# vg STATUS PATTERN ARGS...: exits STATUS, free of memory errors, and its output
# matches PATTERN (where the run was meant to get to), unless PATTERN is empty
vg() {
	want=$1 pattern=$2
	shift 2
	n=$((n + 1))
	out=$(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$cbin" "$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ] && { [ -z "$pattern" ] || printf '%s\n' "$out" | grep -q -- "$pattern"; }; then
		echo "ok $n - valgrind: torpor-suspend $* exits $want cleanly${pattern:+: $pattern}"
	else
		echo "not ok $n - valgrind: torpor-suspend $* exited $rc, wanted $want${pattern:+ and \"$pattern\"}"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=1
	fi
}

if ! command -v valgrind >/dev/null 2>&1; then
	echo "not ok 1 - valgrind not installed (sh tests/deps.sh check installs it)"
	exit 1
fi
cbin=$bin
vg 0 "" --help
vg 0 "^torpor-suspend " --version
vg 2 "^torpor: unknown option '--bogus-option'" --bogus-option
vg 2 "invalid --resume-offset 'abc'" --resume-offset=abc
vg 2 "unexpected argument 'extra-argument'" extra-argument
# --check as root must get past the namespace checks to the device, as on a host's
# root shell.  Where init's /proc/1/root or /proc/1/ns/mnt gives EACCES (a sandbox
# or CI container's root) the installed build refuses, rightly, so the test build
# runs these instead, told to go on past that EACCES only (testhook.h).
if [ "$(id -u)" -ne 0 ]; then
	# an ordinary user's --check makes the checks that need no root, then says so (usercheck.c)
	far="hint: run 'sudo torpor-suspend --check' for the whole check"
elif stat -L /proc/1/root /proc/1/ns/mnt >/dev/null 2>&1; then
	far="cannot find resume device"
else
	echo "# /proc/1/root or /proc/1/ns/mnt unreadable here: --check runs ${TORPOR_SUSPEND_TEST:-build/test/torpor-suspend} with TORPOR_TEST_NS_UNREADABLE=allow"
	vg 1 "cannot tell whether torpor-suspend runs in" --check --resume=/dev/null
	cbin=${TORPOR_SUSPEND_TEST:-build/test/torpor-suspend}
	export TORPOR_TEST_NS_UNREADABLE=allow
	far="cannot find resume device"
fi
vg 1 "$far" --check --resume=/dev/null
vg 1 "$far" --check --resume=/nonexistent/device
vg 1 "$far" --check --resume=UUID=00000000-0000-0000-0000-000000000000
exit $fail
