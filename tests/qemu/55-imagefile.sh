#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 55-imagefile: zram is the only swap; the image file is swap only while the image is
# written.  Boot 1 (resume=/dev/vda, no resume_offset) mounts the ext4 disk /dev/vda,
# swaps to a 256 MiB zram disk, makes /mnt/fs/image with torpor-suspend
# --setup-image-file, which prints its resume= line, and hibernates with
# --image-file.  Boot 2 gets resume=/dev/vda resume_offset=<the printed page>: the
# boot side is the plain swap-file path.  After the restore the workload is intact,
# the image file is no swap area and zram still is; the host's e2fsck -fn is clean.
# Boot 3 makes an image file of 4 MiB, too small: exit 1 with the sizes and the
# hint to make it larger, the file deactivated, zram active, the workload intact.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="hibernate into an image file while zram is the only swap: round trip; too small: refused"

test_setup() {
	swap_create && root_mkfs 384M &&
		initrd_extend "$T/initrd.cpio" "$EXT4_DRIVERS ZRAM:zram"
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/initrd.cpio
	# shellcheck disable=SC2034 # the ext4 disk keeps what each boot writes
	BOOT_ROOT_OPTS=
	base="console=ttyS0 panic=-1 resume=/dev/vda torpor_mib=64"
	BOOT_CMDLINE=$base
	boot 1 torpor_test=hibernate torpor_fs=/dev/vda torpor_zram=256 \
		torpor_imagefile=/mnt/fs/image torpor_imagefile_size=256M torpor_verbose=1
	note_boot 1
	expect 1 fs-mounted workload-started imagefile-made hibernating
	expect_not 1 resumed hibernate-failed swapon-failed poweroff
	page=$(sed -n 's|.*resume=UUID=[-0-9a-f]* resume_offset=\([0-9]*\).*|\1|p' \
		"$T/boot1.console" | head -n 1)
	if [ -z "$page" ]; then
		fail "boot 1: torpor-suspend --setup-image-file printed no resume_offset="
		return
	fi
	echo "ok: --setup-image-file printed resume_offset=$page"
	note "image file at page $page of /dev/vda"
	grep -E "swapon|swapoff|setup took" "$T/boot1.console" | sed 's/^/# /'

	BOOT_CMDLINE="$base resume_offset=$page"
	boot 2 torpor_test=boot
	# shellcheck disable=SC2034 # back to the default
	BOOT_CMDLINE=
	note_boot 2
	expect_checks 2
	expect 2 imagefile-inactive zram-active fs-unmounted poweroff
	expect_not 2 imagefile-active zram-inactive fs-umount-failed
	grep -E "swapon|swapoff" "$T/boot2.console" | sed 's/^/# /'
	expect_fsck "after the resume and a clean unmount"
	note_torpor

	boot 3 torpor_test=refused torpor_mib=32 torpor_fs=/dev/vda torpor_zram=256 \
		torpor_imagefile=/mnt/fs/image torpor_imagefile_size=4M
	note_boot 3
	expect 3 imagefile-made "suspend-exit 1" imagefile-inactive zram-active token-ok \
		counter-ok data-ok fs-unmounted poweroff
	expect_not 3 resumed imagefile-active token-bad counter-bad data-bad
	expect_line 3 "torpor: not enough swap space on .*the image needs about [0-9]* MiB, [0-9]* MiB were free"
	expect_line 3 "torpor: hint: image file '/mnt/fs/image' is 4 MiB: make it larger"
	expect_fsck "after the refused hibernation"
}

test_main
