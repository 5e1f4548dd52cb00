#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 40-powercut: the host cuts the power (kill -9 of QEMU) while torpor-suspend writes
# the image: early (5%), in the middle (50%) and after data and map are on the disk
# but before the root record (commit).  TORPOR_TEST_STALL makes torpor-suspend stop
# at that point and say so; the host kills QEMU when it sees the line.  An ext4 disk
# (/dev/vda) is mounted and being appended to when the power goes.  The next boot
# must not try the partial image, must boot normally, must activate the swap area,
# and must find the ext4 disk recoverable: mount (journal replay), sequence intact
# with no torn line (torpor syncs the disk after the freeze), unmount; then the
# host's e2fsck -fn is clean.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="power cut at 5%, 50% and before the commit: normal boot, swap and ext4 fine"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	ext4_setup 64M
}

test_run() {
	fs_boots
	b=1
	for point in 5 50 commit; do
		boot_cut "$b" "^torpor: test: stalling" torpor_test=hibernate torpor_mib=64 \
			torpor_fs=/dev/vda torpor_stall="$point"
		expect "$b" fs-mounted workload-started fs-writing hibernating
		expect_not "$b" resumed hibernate-failed poweroff
		note "cut at $point: signature '$(swap_sig)' after the cut"
		b=$((b + 1))

		boot_normal "$b" torpor_fs=/dev/vda torpor_swapon=1
		expect "$b" fs-mounted fs-unmounted
		expect_not "$b" fs-seq-bad
		# torpor syncs the disk after the freeze: not even the last append is torn
		expect "$b" fs-seq-ok
		expect_no_line "$b" "restoring" "no attempt to restore the partial image"
		expect_line "$b" "^# torpor-resume exited with status 0$"
		expect_sig SWAPSPACE2 "after the boot that followed the cut at $point"
		expect_fsck "after the cut at $point and the boot that followed"
		b=$((b + 1))
	done
}

test_main
