#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 84-dead-disk: a disk that does not answer (dm-delay, each read taking 40 s) while
# torpor looks for a stamped filesystem's devices, which reads every disk.  Its reader
# process is killed at the 3 s deadline but lives on, asleep in the kernel until the
# read ends (the device's last opener, its exit waits for the page under read), and
# the kernel cannot freeze a process in that state (issue 22, review of item 2).
# Boot 1: torpor-suspend refuses before the freeze, naming the process and the device
# (old torpor froze: the freeze failed, or waited on that process).
# Boots 2-3: hibernated without the disk, restored with it: torpor-resume discards
# the image before loading it, saying why (old torpor loaded it, then its freeze for
# the restore failed).
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="a disk that does not answer: refused before a freeze that would fail, its stuck reader named"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	swap_create && root_mkfs 32M &&
		initrd_extend "$T/initrd.cpio" "$EXT4_DRIVERS BLK_DEV_LOOP:loop BLK_DEV_DM:dm_mod DM_DELAY:dm_delay"
}

DEAD="/dev/dm-[0-9]+"

test_run() {
	fs_boots
	boot 1 torpor_test=refused torpor_mib=32 torpor_fs=/dev/vda torpor_deadblk=1
	note_boot 1
	expect_refused 1 deadblk-ready fs-mounted
	expect_line 1 "^torpor: warning: skipped $DEAD while looking for filesystem [0-9a-f-]+: it did not answer within 3 s$"
	expect_line 1 "^torpor: cannot hibernate: process [0-9]+, which torpor-suspend started to read $DEAD, is stuck waiting for it \\($DEAD did not answer\\), and the kernel cannot freeze a process in that state$"
	expect_no_line 1 "Freezing user space processes" "nothing was frozen"
	expect_sig SWAPSPACE2 "after boot 1"

	echo "## hibernated without the dead disk, restored with it"
	hibernate_first 2 torpor_mib=32 torpor_fs=/dev/vda
	boot_normal 3 torpor_deadblk=1
	expect 3 deadblk-ready
	expect_line 3 "^torpor: warning: skipped $DEAD while looking for filesystem [0-9a-f-]+: it did not answer within 3 s$"
	expect_line 3 "^torpor: cannot restore: process [0-9]+, which torpor-resume started to read $DEAD, is stuck waiting for it \\($DEAD did not answer\\), and the kernel cannot freeze a process in that state: not restoring the image$"
	expect_line 3 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line 3 "Freezing user space processes" "nothing was frozen"
	expect_sig SWAPSPACE2 "after boot 3"
}

test_main
