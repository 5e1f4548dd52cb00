#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 00-noimage: a swap disk fresh from mkswap holds no image, so the guest boots
# normally at once: torpor-resume exits 0 quietly and the swap signature is untouched.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="no image: boots normally without a resume attempt"

test_setup() {
	swap_create
}

test_run() {
	boot 1 torpor_test=boot
	note_boot 1
	expect 1 init resume-start normal-boot poweroff
	expect_not 1 resumed
	if grep -q '^[^ ]* # torpor-resume exited with status 0$' "$T/boot1.console"; then
		echo "ok: torpor-resume exited with status 0"
	else
		fail "boot 1: torpor-resume did not exit with status 0"
	fi
	# with no image there is nothing to read: the resume step takes no time
	_took=$(sub "$(stamp 1 normal-boot)" "$(stamp 1 resume-start)")
	if [ "$_took" != "?" ] && awk -v t="$_took" 'BEGIN { exit !(t < 3) }'; then
		echo "ok: the resume step took $_took s"
	else
		fail "boot 1: the resume step took $_took s with no image (expected under 3 s)"
	fi
	expect_sig SWAPSPACE2 "after a normal boot"
}

test_main
