#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 56-mounted-rw: torpor-resume refuses to restore while a disk filesystem is mounted
# read-write, also one whose st_dev is an anonymous 0:N: boot 1 hibernates; boot 2
# mounts a btrfs disk (/dev/vdc) read-write before the resume step, as a broken
# initramfs might.  torpor-resume must name it, discard the image and boot normally.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="a btrfs mounted read-write before the resume step: image discarded, normal boot"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	swap_create && rm -f "$T/btrfs.img" && truncate -s 128M "$T/btrfs.img" &&
		mkfs.btrfs -q -f "$T/btrfs.img" >/dev/null 2>&1 &&
		initrd_extend "$T/initrd.cpio" "$BTRFS_DRIVERS"
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/initrd.cpio
	# the btrfs disk, on a PCI slot after the two usual disks: /dev/vdc
	# shellcheck disable=SC2034 # read by boot
	BOOT_QEMU_OPTS="-drive file=$T/btrfs.img,format=raw,if=none,id=btrfs -device virtio-blk-pci,drive=btrfs,addr=0x10"
	boot 1 torpor_test=hibernate torpor_mib=64
	expect 1 workload-started hibernating
	expect_not 1 resumed hibernate-failed
	expect_sig S2SUSPEND "after hibernating"

	boot 2 torpor_test=boot torpor_premount=btrfs:/dev/vdc
	expect 2 premounted normal-boot poweroff
	expect_not 2 resumed premount-failed
	expect_line 2 "mounted read-write at '/mnt/pre'" "torpor-resume names the btrfs mount"
	expect_line 2 "discarded the hibernation image" "the image is invalidated"
	expect_no_line 2 "torpor: restoring [0-9]+ MiB" "no attempt to restore the image"
	expect_sig SWAPSPACE2 "after the refused resume"
}

test_main
