#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 58-fs-late: a filesystem the initramfs does not see (here an ext4 disk on
# virtio-scsi, whose drivers the guest loads only after the resume step; in life
# a /home that systemd-cryptsetup unlocks after the switch to the real root, an
# LVM volume the initramfs does not activate) is checked late: torpor-resume
# restores the image and leaves it to the restored torpor-suspend, which reads
# its stamp again while everything is frozen (issue 22).
#  Boot 1 hibernates with the disk (/dev/sda) mounted read-write and written to.
#  Boot 2, without torpor, mounts it read-write (its mount count moves).  Boot 3:
#  torpor-resume does not see it and restores; the late check sees the moved stamp
#  and resets without thawing, through SysRq-B, not reboot(2) (the workload
#  must not report resumed; QEMU's -no-reboot ends the boot); the swap area is
#  plain swap and the disk clean, its header page holds the reason (issue 25).
#  Boot 4 says that reason (torpor-resume, and torpor-suspend --status) and
#  hibernates again (a normal boot first); boot 5 restores, the late check
#  passes, the session is kept: the workload and the log on the disk go on.
#  Boots 6 and 7 do the same as 4 and 5 with a btrfs RAID1 on two virtio-scsi
#  disks (a /home on two LUKS devices opened after the switch to the real root):
#  the late check reads both devices, the session is kept.
# Old torpor-resume discarded the image in boots 3 and 5: the filesystem "did not
# appear", the session was lost even when nothing had touched the disk.  Older
# torpor-suspend read one device of the btrfs and rebooted unthawed in boot 7,
# and reset through reboot(2) in boot 3; and boot 4 had no trace of why the
# session of boot 3 was lost.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="a filesystem the initramfs cannot see: checked late, reboot unthawed or resumed"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	swap_create && truncate -s 64M "$T/late.img" &&
		mkfs.ext4 -q -F -b 4096 -L torpor-late "$T/late.img" >/dev/null 2>&1 &&
		rm -f "$T/b1.img" "$T/b2.img" && truncate -s 256M "$T/b1.img" "$T/b2.img" &&
		mkfs.btrfs -q -f -d raid1 -m raid1 -L torpor-late2 "$T/b1.img" "$T/b2.img" \
			>/dev/null 2>&1 &&
		LATE_DRIVERS="SCSI_VIRTIO:virtio_scsi BLK_DEV_SD:sd_mod" \
			initrd_extend "$T/initrd.cpio" "$EXT4_DRIVERS $BTRFS_DRIVERS"
}

# late_resume N: boot N restores; the late check finds the filesystem the boot could
# not see (UUID $u) unchanged, and the session goes on with its writer
late_resume() {
	boot "$1" torpor_test=boot torpor.wait=1
	note_boot "$1"
	expect_line "$1" "^torpor: filesystem $u not present at boot: the restored system checks it before it runs$"
	expect_line "$1" "^torpor: the 1 filesystem the boot could not see is unchanged \\(1 read again in [0-9]+ ms\\)$"
	expect_fs_resumed "$1"
	expect_not "$1" fs-stalled fs-seq-bad
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/initrd.cpio
	# shellcheck disable=SC2034 # read by boot: the ext4 disk on virtio-scsi, kept
	BOOT_QEMU_OPTS="-device virtio-scsi-pci,id=scsi0 -drive file=$T/late.img,format=raw,if=none,id=late0 -device scsi-hd,drive=late0,bus=scsi0.0"
	uuid=$(blkid -o value -s UUID "$T/late.img")
	u=$(ere_quote "$uuid")

	boot 1 torpor_test=hibernate torpor_mib=32 torpor_fs=/dev/sda
	hibernated 1 "after hibernating with /dev/sda mounted" fs-mounted fs-writing
	_f=$(dump_field "$T/swap.img" features)
	if [ "$_f" = "0x01 late-check" ]; then
		echo "ok: the image says its torpor-suspend checks late ($_f)"
	else
		fail "the image's features are '$_f', not '0x01 late-check'"
	fi

	boot 2 torpor_test=boot torpor_hib=none torpor_fs=/dev/sda
	note_boot 2
	expect 2 normal-boot fs-mounted fs-seq-ok fs-unmounted poweroff
	expect_sig S2SUSPEND "after the boot without torpor (it did not touch swap)"

	boot 3 torpor_test=boot torpor.wait=1
	note_boot 3
	expect_line 3 "^torpor: filesystem $u not present at boot: the restored system checks it before it runs$"
	expect_line 3 "^torpor: restoring [0-9]+ MiB image from /dev/vdb$"
	expect_line 3 "^torpor: ext $u on /dev/sda was mounted since hibernation \\(mount count [0-9]+, now [0-9]+\\): the restored system must not run, it would corrupt that filesystem$"
	expect_line 3 "^torpor: rebooting in 10 s without resuming$"
	# SysRq-B: emergency_restart(), no reboot notifiers (md would write) nor device shutdown
	expect_line 3 "sysrq: Resetting$" "the reset went through /proc/sysrq-trigger"
	expect_no_line 3 "reboot: Restarting system" "reboot(2) was not called"
	expect_not 3 resumed token-ok normal-boot poweroff
	expect_no_line 3 "cannot keep the reason" "the reason was written before the reset"
	expect_sig SWAPSPACE2 "after the restore that rebooted unthawed"
	expect_fsck "after the restore that rebooted unthawed" "$T/late.img"
	_n=$(dd if="$T/swap.img" bs=1 skip=2048 count=8 2>/dev/null)
	if [ "$_n" = TORPORNR ]; then
		echo "ok: the swap header page holds the note of the lost session"
	else
		fail "the swap header page holds '$_n' at 2048, not the note TORPORNR"
	fi

	boot 4 torpor_test=hibernate torpor_mib=32 torpor_fs=/dev/sda torpor_verbose=1 \
		torpor_status=1
	hibernated 4 "after hibernating again" normal-boot fs-mounted fs-writing
	_why="ext $u on /dev/sda was mounted since hibernation \\(mount count [0-9]+, now [0-9]+\\): the restored system must not run, it would corrupt that filesystem"
	expect_line 4 "^torpor: the last hibernation \\(written [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC by kernel [^ ]+\\) was not resumed: $_why$"
	expect_line 4 "^# status: image now: +none$"
	expect_line 4 "^# status: last hibernation: +not resumed: $_why \\([0-9]+ (s|min) ago\\)$"

	late_resume 5
	_ms=$(sed -n 's/.*the boot could not see is unchanged (1 read again in \([0-9]*\) ms).*/\1/p' \
		"$T/boot5.console" | head -n 1)
	note "boot 5: the late check read 1 stamp in ${_ms:-?} ms"
	note "boot 5: $(late_cost 5)"
	expect_no_line 5 "was not resumed" "the image of boot 4 replaced the note"
	expect_sig SWAPSPACE2 "after the resume"
	expect_fsck "after the resumed session unmounted it" "$T/late.img"

	# shellcheck disable=SC2034 # read by boot: the btrfs RAID1 on two virtio-scsi disks
	BOOT_QEMU_OPTS="-device virtio-scsi-pci,id=scsi0 -drive file=$T/b1.img,format=raw,if=none,id=b1 -device scsi-hd,drive=b1,bus=scsi0.0 -drive file=$T/b2.img,format=raw,if=none,id=b2 -device scsi-hd,drive=b2,bus=scsi0.0"
	uuid=$(blkid -o value -s UUID "$T/b1.img")
	u=$(ere_quote "$uuid")
	boot 6 torpor_test=hibernate torpor_mib=32 torpor_fs=/dev/sda torpor_fstype=btrfs \
		torpor_fsopts=device=/dev/sdb torpor_verbose=1
	hibernated 6 "after hibernating with the two-device btrfs mounted" fs-mounted fs-writing

	late_resume 7
	note "boot 7: two btrfs devices, $(late_cost 7)"
	expect_sig SWAPSPACE2 "after the resume with the two-device btrfs"
}

# late_cost N: the late check's debug line of boot N (torpor_verbose=1 when hibernating)
late_cost() {
	sed -n 's/.*torpor: debug: late check: \([0-9]* ms in all.*\)/\1/p' "$T/boot$1.console" | head -n 1
}

test_main
