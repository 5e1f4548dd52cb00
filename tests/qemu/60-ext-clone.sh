#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 60-ext-clone: a copy of the hibernated ext4 disk is attached when resuming.
#  Boot 1 hibernates with an ext4 disk (/dev/vda) mounted; the host copies that
#  disk (a backup clone: same UUID, same stamp).  Boot 2 has no resume step and
#  mounts /dev/vda read-write (its mount count moves).  Boot 3, with torpor and
#  the clone attached as /dev/vdc (last PCI slot), must not restore: two devices carry the UUID,
#  and the clone's unchanged stamp proves nothing about /dev/vda.
# Old torpor warned "cannot check filesystem" (-ENOTUNIQ without udev; with udev
# its by-uuid link may name the clone) and restored the image over /dev/vda.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="ext4: a clone of the hibernated disk attached at resume is a doubt, not a pass"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	swap_create && root_mkfs 64M && rm -f "$T/clone.img" && truncate -s 64M "$T/clone.img" &&
		initrd_extend "$T/initrd.cpio" "$EXT4_DRIVERS" /sbin/swapon:/usr/lib/torpor-test/swapon
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/initrd.cpio
	# shellcheck disable=SC2034 # the ext4 disk keeps what each boot writes
	BOOT_ROOT_OPTS=
	# the third disk is there in every boot (the same devices, the same memory):
	# blank until the host copies the hibernated disk onto it
	# shellcheck disable=SC2034 # read by boot
	BOOT_QEMU_OPTS="-drive file=$T/clone.img,format=raw,if=none,id=clone -device virtio-blk-pci,drive=clone,addr=0x1f"

	boot 1 torpor_test=hibernate torpor_mib=32 torpor_fs=/dev/vda
	note_boot 1
	expect 1 fs-mounted workload-started hibernating
	expect_not 1 resumed hibernate-failed poweroff
	expect_sig S2SUSPEND "after hibernating with /dev/vda mounted"
	cp "$T/root.img" "$T/clone.img" || fail "cannot copy the disk"
	boot 2 torpor_test=boot torpor_hib=none torpor_fs=/dev/vda
	note_boot 2
	expect 2 normal-boot fs-mounted fs-unmounted poweroff
	expect_not 2 resumed
	expect_sig S2SUSPEND "after the rescue boot (it did not touch swap)"
	boot 3 torpor_test=boot torpor_swapon=1
	note_boot 3
	expect 3 normal-boot swapon-ok poweroff
	expect_not 3 resumed
	expect_line 3 "^torpor: cannot check filesystem [0-9a-f-]+ \\(mounted when hibernating\\): several devices carry its UUID: not restoring the image$"
	expect_line 3 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line 3 "^torpor: restoring" "the image is not restored over /dev/vda"
	expect_sig SWAPSPACE2 "after the refusal"
}

test_main
