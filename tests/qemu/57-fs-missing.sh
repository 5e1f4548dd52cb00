#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 57-fs-missing: a filesystem that was mounted when hibernating and is missing at
# resume (here: its disk replaced by a blank one; in life a separate /home the
# initramfs does not unlock, which another system may have mounted since) cannot
# be checked at boot, so it is left to the late check (issue 22), which finds the
# disk no longer holds it and reboots without thawing, with the reason.
#  Boot 1 hibernates with an ext4 disk (/dev/vda) mounted and written to.  Boot 2
#  has a blank disk in its place: torpor-resume must say the filesystem is not
#  present and restore; the restored torpor-suspend must say the disk no longer
#  holds it and reboot unthawed.  Boot 3 has the disk back: the log on it is in
#  sequence (the sync after the freeze) and e2fsck is clean.
# Older torpor warned "cannot check filesystem" and restored the image anyway; then
# torpor-resume discarded it ("did not appear").
#  Boot 4: an ext4 mounted after torpor-suspend listed the filesystems and before
#  the freeze (TORPOR_TEST_MOUNT, as an automounter might) would be neither synced
#  nor stamped: torpor-suspend must see it after the freeze, thaw and exit 1 with
#  the device named, the workload intact.  Old torpor hibernated without it.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="a recorded filesystem missing at resume: the late check reboots unthawed"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	ext4_setup 64M
}

test_run() {
	fs_boots

	boot 1 torpor_test=hibernate torpor_mib=32 torpor_fs=/dev/vda
	hibernated 1 "after hibernating with /dev/vda mounted" fs-mounted fs-writing

	mv "$T/root.img" "$T/root.saved" && truncate -s 64M "$T/root.img"
	boot 2 torpor_test=boot torpor.wait=2
	note_boot 2
	expect_not 2 resumed normal-boot poweroff
	expect_line 2 "^torpor: filesystem [0-9a-f-]+ not present at boot: the restored system checks it before it runs$"
	expect_line 2 "^torpor: ext [0-9a-f-]+ on /dev/vda no longer holds that filesystem \\(reformatted or overwritten since hibernation\\): the restored system must not run$"
	expect_line 2 "^torpor: rebooting in 10 s without resuming$"
	expect_line 2 "sysrq: Resetting$" "the reset went through /proc/sysrq-trigger"
	expect_no_line 2 "reboot: Restarting system" "reboot(2) was not called"
	expect_sig SWAPSPACE2 "after the restore that rebooted unthawed"

	mv "$T/root.saved" "$T/root.img"
	boot_normal 3 torpor_fs=/dev/vda
	expect 3 fs-mounted fs-seq-ok fs-unmounted
	expect_not 3 fs-seq-bad
	expect_fsck "after the disk came back and was mounted and unmounted"

	boot 4 torpor_test=refused torpor_late_mount=ext4:/dev/vda:/mnt/late
	note_boot 4
	expect_refused 4 normal-boot
	expect_line 4 "^torpor: test: mounted /dev/vda on /mnt/late \\(TORPOR_TEST_MOUNT\\)$"
	expect_line 4 "^torpor: /dev/vda \\(ext4\\) was mounted while torpor-suspend prepared, after it listed the filesystems: it would be neither synced nor guarded against a mount elsewhere$"
	expect_sig SWAPSPACE2 "after the refused hibernation"
}

test_main
