#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 90-kernel-reference: the same round trip as 01-roundtrip, with the kernel's own
# hibernation instead of torpor (echo disk >/sys/power/state to hibernate, the swap
# disk's maj:min into /sys/power/resume to resume).  It proves the harness itself and
# is the reference for the benchmarks; run.sh runs it only when asked:
#   sh tests/qemu/run.sh 90-kernel-reference
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="kernel hibernation keeps token, counter and data (reference)"
# shellcheck disable=SC2034
TEST_NEEDS_TORPOR=0

test_setup() {
	swap_create
}

test_run() {
	boot 1 torpor_hib=kernel torpor_test=hibernate torpor_cycles=2
	note_boot 1
	expect 1 normal-boot workload-started hibernating
	expect_not 1 resumed hibernate-failed poweroff
	expect_sig S1SUSPEND "after hibernating"

	boot 2 torpor_hib=kernel torpor_test=boot
	note_boot 2
	expect_checks 2
	expect 2 hibernating
	expect_not 2 poweroff
	expect_sig S1SUSPEND "after hibernating again"

	boot 3 torpor_hib=kernel torpor_test=boot
	note_boot 3
	expect_checks 3
	expect 3 poweroff
	expect_sig SWAPSPACE2 "after the last resume"
	note_kernel
}

test_main
