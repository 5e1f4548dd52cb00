#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 53-ext-clone: a copy of the hibernated ext4 disk is attached when resuming.
#  Boot 1 hibernates with an ext4 disk (/dev/vda) mounted; the host copies that
#  disk (a backup clone: same UUID, same stamp).  Boot 2 has no resume step and
#  mounts /dev/vda read-write (its mount count moves).  Boot 3, with torpor and
#  the clone attached as /dev/vdc (last PCI slot), must not restore: two devices carry the UUID,
#  and the clone's unchanged stamp proves nothing about /dev/vda.
# Old torpor warned "cannot check filesystem" (-ENOTUNIQ without udev; with udev
# its by-uuid link may name the clone) and restored the image over /dev/vda.
#  Then the swap disk is the one copied: boot 4 hibernates into /dev/vdb, the host
#  copies it onto the third disk, and boot 5 has resume=UUID= of the swap area and,
#  as udev would make it, a /dev/disk/by-uuid link to /dev/vdb: torpor-resume must
#  see by content that two devices carry the UUID, restore neither image and discard
#  both (restoring from vdb would leave the copy's image for a later boot), and
#  torpor-suspend, though told --resume=/dev/vdb, must refuse to write an image that
#  the next boot (which reads the command line's resume=) would discard.  Old torpor
#  trusted the link on both sides and restored.
#  Then the root's ext4 disk is copied before hibernating (a clone attached, as an
#  LVM snapshot would be): boot 6 mounts /dev/vda with its copy on /dev/vdc, and
#  torpor-suspend must refuse before freezing, naming both devices, and keep the
#  session running: the next boot would find the filesystem on two devices and
#  discard the image.  Old torpor hibernated, and that boot discarded the session.
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
	fs_boots
	# the third disk is there in every boot (the same devices, the same memory):
	# blank until the host copies the hibernated disk onto it
	# shellcheck disable=SC2034 # read by boot
	BOOT_QEMU_OPTS="-drive file=$T/clone.img,format=raw,if=none,id=clone -device virtio-blk-pci,drive=clone,addr=0x1f"

	boot 1 torpor_test=hibernate torpor_mib=32 torpor_fs=/dev/vda
	hibernated 1 "after hibernating with /dev/vda mounted" fs-mounted
	cp "$T/root.img" "$T/clone.img" || fail "cannot copy the disk"
	boot_normal 2 torpor_hib=none torpor_fs=/dev/vda
	expect 2 fs-mounted fs-unmounted
	expect_sig S2SUSPEND "after the rescue boot (it did not touch swap)"
	boot_normal 3 torpor_swapon=1
	expect_line 3 "^torpor: cannot check filesystem [0-9a-f-]+ \\(mounted when hibernating\\): several devices carry its UUID: not restoring the image$"
	expect_line 3 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line 3 "^torpor: restoring" "the image is not restored over /dev/vda"
	expect_sig SWAPSPACE2 "after the refusal"

	echo "## a copy of the swap disk, and a udev link to the original"
	uuid=6d1f2b3c-4a5e-4f60-8b7c-9d0e1f2a3b4c
	mkswap -U "$uuid" "$T/swap.img" >/dev/null 2>&1 || fail "cannot mkswap"
	boot 4 torpor_test=hibernate torpor_mib=32
	hibernated 4 "after hibernating into /dev/vdb"
	cp "$T/swap.img" "$T/clone.img" || fail "cannot copy the swap disk"
	# shellcheck disable=SC2034 # read by boot
	BOOT_CMDLINE="console=ttyS0 panic=-1 resume=UUID=$uuid torpor_mib=32"
	boot 5 torpor_test=refused "torpor_link=by-uuid/$uuid:/dev/vdb" torpor_opts=--resume=/dev/vdb
	note_boot 5
	expect_refused 5 linked normal-boot
	expect_line 5 "^torpor: resume device 'UUID=$uuid' is ambiguous: several devices carry it, not restoring; any image on them is discarded$"
	expect_line 5 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_line 5 "^torpor: discarded the hibernation image on /dev/vdc, continuing boot$"
	expect_line 5 "^torpor: resume device 'UUID=$uuid' is ambiguous: several devices carry it \\(/dev/vd[bc], /dev/vd[bc]\\), and the next boot would discard the image rather than guess which one holds it$"
	expect_no_line 5 "^torpor: restoring" "neither copy of the image is restored"
	expect_sig SWAPSPACE2 "after the boot with two copies"
	[ "$(dd if="$T/clone.img" bs=1 skip=4086 count=10 2>/dev/null | tr -d '\000')" = SWAPSPACE2 ] ||
		fail "the copy of the swap disk still holds an image"

	echo "## a copy of the mounted ext4 disk attached before hibernating"
	cp "$T/root.img" "$T/clone.img" || fail "cannot copy the disk"
	boot 6 torpor_test=refused torpor_fs=/dev/vda
	note_boot 6
	expect_refused 6 normal-boot fs-mounted
	expect_line 6 "^torpor: ext filesystem [0-9a-f-]+ mounted from /dev/vda is also on /dev/vdc \\(a copy: an LVM snapshot, a cloned disk\\?\\): the next boot could not tell which one was mounted and would discard the image$"
	expect_line 6 "^torpor: hint: detach the copy or remove the snapshot"
	expect_no_line 6 "^torpor: freezing" "torpor-suspend refuses before freezing"
	expect_sig SWAPSPACE2 "after the refusal to hibernate with a copy attached"
}

test_main
