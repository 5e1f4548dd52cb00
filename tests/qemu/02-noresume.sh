#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 02-noresume: boot 1 hibernates; boot 2 has noresume, so it boots normally and
# torpor-resume puts SWAPSPACE2 back; boot 3 (without noresume) must not resume
# the stale image either.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="noresume discards the image and boots normally"

test_setup() {
	swap_create
}

test_run() {
	boot 1 torpor_test=hibernate torpor_cycles=1
	hibernated 1 "after hibernating" normal-boot

	boot 2 torpor_test=boot noresume
	note_boot 2
	expect 2 normal-boot poweroff
	expect_not 2 resumed
	expect_sig SWAPSPACE2 "after the noresume boot"

	boot 3 torpor_test=boot
	note_boot 3
	expect 3 normal-boot poweroff
	expect_not 3 resumed
	expect_sig SWAPSPACE2 "after the boot that followed"
}

test_main
