#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 03-thrice: three hibernate/resume cycles in a row (boots 1-4), each resume checked;
# after the last one the swap area is switched off and on again (its signature must
# be plain swap), and a fifth boot must not resume anything again.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="three cycles in a row, then a reboot resumes nothing and swapon works"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	swap_create
}

test_run() {
	boot 1 torpor_test=hibernate torpor_cycles=3 torpor_mib=64 torpor_swapon=1
	hibernated 1 "after hibernating"
	for b in 2 3; do
		boot "$b" torpor_test=boot
		note_boot "$b"
		expect_checks "$b"
		expect "$b" hibernating
		expect_not "$b" poweroff
		expect_sig S2SUSPEND "after hibernating in boot $b"
	done
	boot_resume 4 "after the third resume"
	expect 4 swapon-ok
	expect_not 4 hibernating

	boot_normal 5 torpor_swapon=1
	expect_no_line 5 "^torpor: restoring" "the image is used once only"
	expect_sig SWAPSPACE2 "after the reboot"
}

test_main
