#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 80-noswap: the swap disk (48 MiB) is far smaller than the image (256 MiB of
# workload, half of each page random).  Boot 1: torpor-suspend estimates the
# compressed image before the freeze and refuses with the numbers: exit status 1,
# no "freezing processes", the workload intact.  Boot 2: with that refusal turned
# off (the test build's TORPOR_TEST_NO_FITCHECK), the late check while writing
# must fail cleanly: exit status 1, a message saying how much it needed and had,
# the system thawed with the workload's token, counter and data intact.  The swap
# disk stays plain swap; the next boot is a normal one.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="swap smaller than the image: refused before the freeze with the sizes, the late check still there, workload intact, normal boot"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	# shellcheck disable=SC2034 # read by swap_create
	SWAP_SIZE=48M
	swap_create
}

test_run() {
	boot 1 torpor_test=refused
	note_boot 1
	expect_refused 1
	expect_line 1 "^torpor: the image needs about [0-9]+ MiB compressed \([0-9]+ MiB of memory in use, ratio [01]\.[0-9]+\).* and a margin of [0-9]+ MiB, but /dev/vdb has only [0-9]+ MiB free"
	expect_line 1 "^torpor: hint: use a larger swap area"
	expect_no_line 1 "^torpor: freezing processes" "refused before the freeze"
	expect_no_line 1 "^torpor: not enough swap space" "the late check is not reached"
	expect_sig SWAPSPACE2 "after the refusal"
	note "$(sed -n 's/^[^ ]* \(torpor: the image needs .*\)/\1/p' "$T/boot1.console" | head -n 1)"

	boot 2 torpor_test=refused torpor_fitcheck=off
	note_boot 2
	expect_refused 2
	expect_line 2 "^torpor: freezing processes"
	expect_line 2 "^torpor: not enough swap space on .*: the image needs about [0-9]+ MiB, [0-9]+ MiB were free"
	expect_sig SWAPSPACE2 "after the failed hibernation"
	note "$(sed -n 's/^[^ ]* \(torpor: not enough swap .*\)/\1/p' "$T/boot2.console" | head -n 1)"

	boot_normal 3 torpor_swapon=1
	expect_sig SWAPSPACE2 "after the next boot"
}

test_main
