#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 15-itools-nodevice: initramfs-tools: a resume device that never appears costs the
# boot torpor.wait at most (boots 1 and 2: with the device, then with a UUID no disk
# carries, torpor.wait=3 and torpor.debug; in boot 2 the local-top script must be done
# within 60 s of kernel time after the swap disk appeared, twenty times torpor.wait,
# so that a slow host does not make it fail), and an image without torpor-resume
# warns (boot 3) instead of booting on silently.
# The images are built by the generator from torpor's installed hook (lib-rootfs.sh).
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="initramfs-tools: a missing resume device costs torpor.wait; a missing torpor-resume warns"

test_setup() {
	hook_use itools
}

test_run() {
	hook_nodevice 1 3 60
	hook_use itools-nobin || {
		fail "cannot build the image without torpor-resume"
		return
	}
	hboot 3 "resume=UUID=$SWAP_UUID"
	note_boot 3
	expect 3 normal-boot poweroff
	expect_line 3 "torpor: '$HOOK_LIBEXECDIR/torpor-resume' is missing, continuing boot"
}

test_main
