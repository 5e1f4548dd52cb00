#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 16-itools-badcmdline: initramfs-tools: a malformed resume_offset= reaches torpor-resume
# through the hook as --offset=12x; the image must be discarded, not left on disk for
# a later boot (issue 8).  Boot 1 hibernates into the swap partition /dev/vdb1; boot 2
# has resume_offset=12x: torpor names the malformed value, tries the offset as the
# kernel reads it (page 12, nothing there) and then 0, where it discards the image.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="initramfs-tools: a malformed resume_offset= discards the image"

test_setup() {
	hook_use itools
}

test_run() {
	hboot 1 resume=/dev/vdb1 torpor_test=hibernate
	note_boot 1
	expect 1 normal-boot hibernating
	expect_not 1 resumed hibernate-failed
	expect_part_sig S2SUSPEND "after hibernating"
	hboot 2 resume=/dev/vdb1 resume_offset=12x
	note_boot 2
	expect 2 normal-boot poweroff
	expect_not 2 resumed
	expect_line 2 "torpor: malformed argument '--offset=12x': not a number$"
	expect_line 2 "^torpor: warning: malformed argument: not restoring the image on /dev/vdb1$"
	expect_line 2 "^torpor: discarded the hibernation image on /dev/vdb1, continuing boot$"
	expect_part_sig SWAPSPACE2 "after booting with resume_offset=12x"
}

test_main
