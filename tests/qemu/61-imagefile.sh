#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 61-imagefile: zram is the only swap; the image file is swap only while the image is
# written.  Boot 1 (resume=/dev/vda, no resume_offset) mounts the ext4 disk /dev/vda
# and makes /mnt/fs/image with torpor-suspend --setup-image-file, which prints its
# resume= line (torpor refuses to hibernate into the file until /proc/cmdline names
# it).  Boot 2 gets resume=/dev/vda resume_offset=<the printed page>, swaps to a 256
# MiB zram disk and hibernates with --image-file.  Boot 3, with the same line,
# restores: the boot side is the plain swap-file path.  After the restore the
# workload is intact, the image file is no swap area and zram still is; the host's
# e2fsck -fn is clean.  Boot 2 asks for --discard-after-resume and the disk discards
# (QEMU punches the holes in root.img): after the resume every page of the file but
# its header reads as zeroes on the host.  Boot 4 makes an image file of 4 MiB, too
# small; boot 5, with its resume_offset=, is refused before the freeze: exit 1 with
# the sizes and the hint to make it larger, the file deactivated, zram active, the
# workload intact; its disk does not discard, so the file is zeroed instead.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="hibernate into an image file while zram is the only swap: round trip; too small: refused"

test_setup() {
	swap_create && root_mkfs 384M &&
		initrd_extend "$T/initrd.cpio" "$EXT4_DRIVERS ZRAM:zram"
}

# expect_file_zeroed PATH: every block of PATH on the ext4 root.img but its first
# (the swap header) reads as zeroes, wherever the extents lie on the disk
expect_file_zeroed() {
	_bs=$(dumpe2fs -h "$T/root.img" 2>/dev/null | sed -n 's/^Block size: *//p')
	debugfs -R "blocks $1" "$T/root.img" 2>/dev/null | tr ' ' '\n' | awk 'NF' >"$T/blocks"
	_n=$(wc -l <"$T/blocks")
	if [ -z "$_bs" ] || [ "$_n" -lt 2 ]; then
		fail "debugfs names no blocks of $1 on the root disk (block size '$_bs')"
		return
	fi
	# runs of consecutive blocks after the first: "start count"
	_bad=$(tail -n +2 "$T/blocks" | awk '
		NR == 1 { s = $1; n = 1; next }
		$1 == s + n { n++; next }
		{ print s, n; s = $1; n = 1 }
		END { print s, n }' |
		while read -r _s _c; do
			dd if="$T/root.img" bs="$_bs" skip="$_s" count="$_c" 2>/dev/null |
				cmp -s -n $((_c * _bs)) - /dev/zero || echo "$_s+$_c"
		done)
	if [ -z "$_bad" ]; then
		echo "ok: the $((_n - 1)) blocks of $1 after its header read as zeroes on the host"
	else
		fail "blocks of $1 that are not zeroes after the discard: $(echo "$_bad" | tr "\n" " " | cut -c1-200)"
	fi
}

# make_imagefile N SIZE: boot N (the command line $base) makes /mnt/fs/image of SIZE
# with --setup-image-file; the resume_offset= it printed in $page.  Fails when it
# printed none.
make_imagefile() {
	BOOT_CMDLINE=$base
	boot "$1" torpor_test=imagefile-setup torpor_fs=/dev/vda torpor_imagefile=/mnt/fs/image \
		torpor_imagefile_size="$2"
	note_boot "$1"
	expect "$1" fs-mounted imagefile-made fs-unmounted
	page=$(printed_page "$1")
	[ -n "$page" ] && return
	fail "boot $1: torpor-suspend --setup-image-file printed no resume_offset="
	return 1
}

test_run() {
	fs_boots
	# shellcheck disable=SC2034 # read by boot: the disk discards, and keeps what is written
	BOOT_ROOT_OPTS=,discard=unmap
	base="console=ttyS0 panic=-1 resume=/dev/vda torpor_mib=64"
	make_imagefile 1 256M || return
	echo "ok: --setup-image-file printed resume_offset=$page"
	note "image file at page $page of /dev/vda"
	grep -E "setup took" "$T/boot1.console" | sed 's/^/# /'

	BOOT_CMDLINE="$base resume_offset=$page"
	boot 2 torpor_test=hibernate torpor_fs=/dev/vda torpor_zram=256 \
		torpor_imagefile=/mnt/fs/image torpor_verbose=1 torpor_opts=--discard-after-resume
	note_boot 2
	expect 2 fs-mounted workload-started hibernating
	expect_not 2 resumed hibernate-failed swapon-failed poweroff imagefile-made
	grep -E "swapon|swapoff" "$T/boot2.console" | sed 's/^/# /'

	boot 3 torpor_test=boot
	note_boot 3
	expect_checks 3
	expect 3 imagefile-inactive zram-active fs-unmounted poweroff
	expect_not 3 imagefile-active zram-inactive fs-umount-failed
	grep -E "swapon|swapoff|discarded" "$T/boot3.console" | sed 's/^/# /'
	expect_line 3 "torpor: discarded the image's pages in '/mnt/fs/image' \\([0-9.]* s\\)"
	expect_file_zeroed /image
	expect_fsck "after the resume and a clean unmount"
	note_torpor

	# a file made again moves: boot 4 makes a 4 MiB one, boot 5 names its page
	make_imagefile 4 4M || return
	# shellcheck disable=SC2034 # read by boot: this disk does not discard
	BOOT_QEMU_OPTS="-global virtio-blk-pci.discard=off"
	BOOT_CMDLINE="$base resume_offset=$page"
	boot 5 torpor_test=refused torpor_mib=32 torpor_fs=/dev/vda torpor_zram=256 \
		torpor_imagefile=/mnt/fs/image torpor_opts=--discard-after-resume
	# shellcheck disable=SC2034 # read by boot
	BOOT_QEMU_OPTS=
	# shellcheck disable=SC2034 # read by boot
	BOOT_CMDLINE=
	note_boot 5
	expect 5 "suspend-exit 1" imagefile-inactive zram-active token-ok \
		counter-ok data-ok fs-unmounted poweroff
	expect_not 5 resumed imagefile-active imagefile-made token-bad counter-bad data-bad
	expect_line 5 "torpor: the image needs about [0-9]+ MiB compressed .* but swap file '/mnt/fs/image' has only [0-9]+ MiB free"
	expect_no_line 5 "torpor: freezing processes" "refused before the freeze"
	expect_line 5 "torpor: hint: image file '/mnt/fs/image' is 4 MiB: make it larger"
	expect_line 5 "torpor: zeroed the image's pages in '/mnt/fs/image' \\(4 MiB, [0-9.]* s; the device does not discard\\)"
	expect_fsck "after the refused hibernation"
}

# printed_page N: the resume_offset= that --setup-image-file printed in boot N
printed_page() {
	sed -n 's|.*resume=UUID=[-0-9a-f]* resume_offset=\([0-9]*\).*|\1|p' "$T/boot$1.console" |
		head -n 1
}

test_main
