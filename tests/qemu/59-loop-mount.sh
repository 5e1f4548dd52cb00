#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 59-loop-mount: filesystems on devices that stop with the freeze, or live in RAM.
# Boots 1-2: an ext4 image file loop-mounted read-write (a mounted .img, a container
# file): boot 1 copies the host's ext4 disk into /run/loop.img (tmpfs), attaches it
# to a loop device, mounts it read-write and keeps appending to a log on it while
# torpor-suspend hibernates.  A loop device's workqueue is frozen with the
# processes: old torpor stamped the filesystem and read its superblock again after
# the snapshot, and the machine stayed frozen for good (the boot times out).  Now it
# is named as not protected (nothing at boot or while frozen can read it) and never
# read after the freeze; boot 2 restores, the writer goes on, the log holds an
# unbroken sequence and the filesystem unmounts.
# Boots 3-4: the same through a partition, md0p1 of an md array over a loop device
# (a partition has no slaves/ in sysfs: the first fix of the walk missed it and hung);
# a one-disk raid1, as 6.12 and later build no linear personality.
# Boots 5-6: an ext4 on zram: stamped, the boot could never find it and discarded
# the image; now it is neither stamped nor named, and the session is kept.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="ext4 on loop, on md over loop, on zram: never read while frozen, restored"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	swap_create && root_mkfs 32M &&
		initrd_extend "$T/initrd.cpio" \
			"$EXT4_DRIVERS BLK_DEV_LOOP:loop BLK_DEV_MD:md_mod MD_RAID1:raid1 ZRAM:zram"
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/initrd.cpio
	boot 1 torpor_test=hibernate torpor_mib=64 torpor_fs=/dev/vda torpor_loop=1
	hibernated 1 "after hibernating with a loop mount" loop-attached fs-mounted fs-writing
	expect_line 1 "^torpor: warning: not protected against a mount elsewhere: ext4 /mnt/fs on loop0 \\(/run/loop\\.img\\): it cannot be read while the system is frozen, nor by the initramfs$"
	expect_line 1 "^torpor: warning: cannot sync ext4 /mnt/fs after freezing: loop0 \\(/run/loop\\.img\\) does not answer while the system is frozen$"

	fs_resume 2
	expect_no_line 2 "^torpor: .*(not restoring|discarded)" "the image is restored"

	echo "## ext4 on md0p1, md0 over a loop device"
	boot 3 torpor_test=hibernate torpor_mib=64 torpor_fs=/dev/vda torpor_stack=mdpart
	hibernated 3 "after hibernating with ext4 on md0p1 over a loop device" stack-mdpart \
		fs-mounted fs-writing
	expect_line 3 "^torpor: warning: not protected against a mount elsewhere: ext4 /mnt/fs on loop0 \\(/run/md\\.img\\): it cannot be read while the system is frozen, nor by the initramfs$"
	boot 4 torpor_test=boot
	note_boot 4
	expect_fs_resumed 4
	expect_no_line 4 "^torpor: .*(not restoring|discarded)" "the image is restored"

	echo "## ext4 on zram"
	boot 5 torpor_test=hibernate torpor_mib=64 torpor_fs=/dev/vda torpor_stack=zram
	hibernated 5 "after hibernating with ext4 on zram" stack-zram fs-mounted fs-writing
	expect_no_line 5 "^torpor: warning: not protected against a mount elsewhere: ext4 " \
		"a filesystem in RAM is not named"
	boot 6 torpor_test=boot
	note_boot 6
	expect_fs_resumed 6
	expect_no_line 6 "^torpor: .*(not restoring|discarded|did not appear)" "the image is restored"
}

test_main
