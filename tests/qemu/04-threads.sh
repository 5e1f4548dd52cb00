#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 04-threads: the freezer lets torpor's threads run.  Two vCPUs; boot 1 hibernates
# with four compression threads (more than CPUs) and LZ4 at acceleration 2, twice (boot 2 resumes
# and hibernates again); with --threads=4 no block is compressed on the thread that
# froze the system, so an image at all proves that threads created after
# CREATE_IMAGE ran, and the writes ran on the flusher thread.  Every restore must be
# byte-exact, and the compression-thread count of each save is noted.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh: two vCPUs, so nothing beside it
TEST_ALONE=1
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="four compression threads on two vCPUs: the image is written and restores exactly"

test_setup() {
	swap_create
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_SMP=2
	boot 1 torpor_test=hibernate torpor_cycles=2 torpor_opts=--threads=4,--compress=lz4:2
	hibernated 1 "after hibernating" normal-boot
	expect_line 1 "cpus=2$"
	expect_line 1 "^torpor: image saved: .* [1-4] compression threads?$"

	boot 2 torpor_test=boot
	note_boot 2
	expect_checks 2
	expect 2 hibernating
	expect_line 2 "^torpor: image saved: .* [1-4] compression threads?$"
	expect_sig S2SUSPEND "after hibernating again"

	boot_resume 3 "after the last resume"
	# shellcheck disable=SC2034
	BOOT_SMP=
	note_torpor
}

test_main
