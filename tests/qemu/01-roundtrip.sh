#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 01-roundtrip: boot 1 starts the workload and hibernates with torpor-suspend; boot 2
# restores it with torpor-resume, checks token, counter and data, and hibernates a
# second time; boot 3 restores again and checks again.  The swap signature must be
# torpor's while an image is on the disk and SWAPSPACE2 after the last resume.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="token, counter and data survive hibernate, twice"

test_setup() {
	swap_create
}

test_run() {
	boot 1 torpor_test=hibernate torpor_cycles=2 torpor_verbose=1
	hibernated 1 "after hibernating" normal-boot
	# image_size = auto: half of the 1 GiB fits the 1 GiB swap disk, so all of RAM
	_auto="\(auto, not the kernel's [0-9]+ MiB\): the largest image the kernel keeps"
	expect_line 1 "^torpor: debug: image_size [0-9]+ MiB $_auto" \
		"image_size = auto asks for all of RAM when half of it fits"

	# the parameters of a resume boot only matter when it fails to resume
	boot 2 torpor_test=boot
	note_boot 2
	expect_checks 2
	expect 2 hibernating imagesize-kept
	expect_not 2 poweroff
	expect_sig S2SUSPEND "after hibernating again"

	boot_resume 3 "after the last resume"
	expect_not 3 hibernating
	expect 3 imagesize-kept
	note_torpor
}

test_main
