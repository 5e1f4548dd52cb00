#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 45-noswap: the swap disk (48 MiB) is smaller than the image.  torpor-suspend must
# fail cleanly: exit status 1, a message saying how much it needed and had, the
# system thawed with the workload's token, counter and data intact, and the swap
# disk still plain swap; the next boot is a normal one.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="swap smaller than the image: exit 1 with the sizes, workload intact, normal boot"
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
	expect 1 workload-started hibernating "suspend-exit 1" token-ok counter-ok data-ok poweroff
	expect_not 1 resumed token-bad counter-bad data-bad
	expect_line 1 "^torpor: not enough swap space on .*: the image needs about [0-9]+ MiB, [0-9]+ MiB were free"
	expect_sig SWAPSPACE2 "after the failed hibernation"
	note "$(sed -n 's/^[^ ]* \(torpor: not enough swap .*\)/\1/p' "$T/boot1.console" | head -n 1)"

	boot 2 torpor_test=boot torpor_swapon=1
	note_boot 2
	expect 2 normal-boot swapon-ok poweroff
	expect_not 2 resumed
	expect_sig SWAPSPACE2 "after the next boot"
}

test_main
