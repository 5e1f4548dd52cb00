#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 42-signal: signals while torpor-suspend works.  After FREEZE no other process runs,
# so the test build raises them itself (TORPOR_TEST_SIGNAL, suspend/testhook.h).
# SIGINT at 5%, SIGTERM at 50%, SIGHUP with data and map written but not the root:
# each aborts cleanly: "hibernation aborted by signal N", exit status 1, the system
# thawed with the workload's token, counter and data intact, the swap area still
# SWAPSPACE2 and swapon works.  SIGTSTP, SIGTTIN and SIGTTOU while writing (in a
# process group of its own, as under a login shell: under PID 1 the kernel would drop
# them) and SIGTERM right after the commit change nothing: the image is saved, the
# machine powers off, and the next boot resumes with the workload intact.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="SIGINT/SIGTERM/SIGHUP before the commit abort cleanly; stop signals and SIGTERM after it do not"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	swap_create
}

# aborted_boot N SIGNUM SIGNAME WHEN: boot N raises SIGNAME at WHEN; it must abort
aborted_boot() {
	_b=$1
	boot "$_b" torpor_test=refused torpor_mib=64 torpor_swapon=1 torpor_signal="$4:$3"
	note_boot "$_b"
	expect_refused "$_b" swapon-ok imagesize-kept
	expect_not "$_b" swapon-failed
	expect_line "$_b" "Freezing user space processes" "the system was frozen"
	expect_line "$_b" "^torpor: test: raising signal $2 " "the test build raised $3"
	expect_line "$_b" "^torpor: hibernation aborted by signal $2 \\(SIG$3\\); the system keeps running$"
	expect_no_line "$_b" "^torpor: image saved" "no image was committed"
	expect_sig SWAPSPACE2 "after SIG$3 at $4"
	note "boot $_b: SIG$3 at $4: $(sed -n 's/^[^ ]* \(torpor: hibernation aborted.*\)/\1/p' \
		"$T/boot$_b.console" | head -n 1)"
}

test_run() {
	aborted_boot 1 2 INT 5
	aborted_boot 2 15 TERM 50
	aborted_boot 3 1 HUP before-root

	# in a process group of its own, where the stop signals are not dropped by the kernel
	boot 4 torpor_test=hibernate torpor_mib=64 torpor_pgrp=1 \
		torpor_signal=30:TSTP,60:TTIN,70:TTOU,commit:TERM
	hibernated 4 "after the signals at 30%, 60%, 70% and after the commit"
	expect_line 4 "^torpor: test: raising signal 20 while writing" "SIGTSTP was raised"
	expect_line 4 "^torpor: test: raising signal 21 while writing" "SIGTTIN was raised"
	expect_line 4 "^torpor: test: raising signal 22 while writing" "SIGTTOU was raised"
	expect_line 4 "^torpor: test: raising signal 15 after the commit" "SIGTERM was raised"
	expect_line 4 "^torpor: powering off$"
	expect_no_line 4 "^torpor: hibernation (aborted|failed)"

	boot_resume 5 "after the resume"
}

test_main
