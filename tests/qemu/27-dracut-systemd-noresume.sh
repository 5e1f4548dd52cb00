#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 27-dracut-systemd-noresume: dracut with systemd: noresume boots normally and
# invalidates the image through torpor-restore.service.  Boots 1 and 2 as in
# 24-dracut-noresume; boot 3 has no resume= on the command line: torpor-restore.service
# reads only the command line, so the next boot would not look for the image, and
# torpor-suspend must refuse before anything is frozen, the swap area untouched.
# The image is built by the generator from torpor's installed module (lib-rootfs.sh).
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="dracut with systemd: noresume invalidates the image; no resume= is refused"

test_setup() {
	hook_use dracut-systemd
}

test_run() {
	hook_noresume 1 /dev/vdb1
	expect_unit_order 2 boot
	# torpor-suspend --resume=/dev/vdb1, and no resume= on the command line
	hboot 3 torpor_test=hibernate
	note_boot 3
	expect 3 normal-boot hibernate-failed
	expect_not 3 resumed
	expect_line 3 "^torpor: the kernel command line has no resume=, and torpor-restore\.service in initramfs '.*' reads only the command line"
	expect_line 3 "^torpor: hint: put resume= "
	expect_part_sig SWAPSPACE2 "after the refused hibernation"
}

test_main
