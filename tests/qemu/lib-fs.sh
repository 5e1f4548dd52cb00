# SPDX-License-Identifier: GPL-2.0-only
# The filesystem disks of the QEMU tests (sourced by lib.sh; the 4x, 5x, 6x and 8x
# scenarios): the first disk ($T/root.img, /dev/vda) made an ext4 or btrfs
# filesystem on the host, the modules the guest needs for it, the boots that keep
# what the guest writes there, and the host's reads of it afterwards.

# EXT4_DRIVERS, BTRFS_DRIVERS: what initrd_extend needs to mount such a disk in the guest
# shellcheck disable=SC2034 # used by the scenarios
EXT4_DRIVERS="CRYPTO_CRC32C:crc32c_generic|crc32c_cryptoapi EXT4_FS:ext4"
# shellcheck disable=SC2034 # used by the scenarios
BTRFS_DRIVERS="CRYPTO_CRC32C:crc32c_generic|crc32c_cryptoapi BTRFS_FS:btrfs"

# root_mkfs SIZE: make $T/root.img (/dev/vda) a fresh ext4 filesystem of SIZE, with
# 4 KiB blocks as on real disks (mke2fs picks 1 KiB below 512 MiB, and a swap file
# there need not start on a page boundary)
root_mkfs() {
	rm -f "$T/root.img"
	truncate -s "$1" "$T/root.img" &&
		mkfs.ext4 -q -F -b 4096 -L torpor-test "$T/root.img" >/dev/null 2>&1
}

# ext4_setup SIZE [PROGRAM:TARGET...]: a test_setup: the swap disk, an ext4 first
# disk of SIZE, and $T/initrd.cpio with ext4's modules and the PROGRAMs
ext4_setup() {
	_size=$1
	shift
	swap_create && root_mkfs "$_size" && initrd_extend "$T/initrd.cpio" "$EXT4_DRIVERS" "$@"
}

# btrfs_setup: a test_setup: the swap disk, a btrfs first disk of 512 MiB, and
# $T/initrd.cpio with btrfs's modules, the btrfs tool and util-linux swapon
btrfs_setup() {
	swap_create && rm -f "$T/root.img" && truncate -s 512M "$T/root.img" &&
		mkfs.btrfs -q -f -L torpor-test "$T/root.img" >/dev/null 2>&1 &&
		initrd_extend "$T/initrd.cpio" "$BTRFS_DRIVERS" /bin/btrfs:/usr/bin/btrfs \
			/sbin/swapon:/usr/lib/torpor-test/swapon
}

# fs_boots: the boots that follow start $T/initrd.cpio (made by the setup) and keep
# what the guest writes to the first disk
fs_boots() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/initrd.cpio
	# shellcheck disable=SC2034 # read by boot
	BOOT_ROOT_OPTS=
}

# fs_resume N: boot N resumes the image, and the writer on the first disk goes on in
# sequence until the disk is unmounted (boot_resume: the swap disk is plain swap
# again after the resume)
fs_resume() {
	boot_resume "$1" "after the resume"
	expect "$1" fs-grows fs-seq-ok fs-unmounted
	expect_not "$1" fs-stalled fs-seq-bad fs-umount-failed
}

# boot_stale N ERE: boot N (torpor, then swapon) boots normally: the first disk was
# mounted since hibernation (why: ERE, in parentheses), so the image is discarded,
# not restored, and the swap disk is plain swap again
boot_stale() {
	boot_normal "$1" torpor_swapon=1
	expect_line "$1" "^torpor: filesystem [0-9a-f-]+ on /dev/vda was mounted since hibernation \\($2\\): not restoring the image$"
	expect_line "$1" "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line "$1" "^torpor: restoring" "the stale image is not restored"
	expect_sig SWAPSPACE2 "after the refusal"
}

# btrfs_generation: the superblock generation of the btrfs first disk, read on the host
btrfs_generation() {
	btrfs inspect-internal dump-super "$T/root.img" 2>/dev/null |
		awk '$1 == "generation" { print $2; exit }'
}

# expect_btrfs_check WHEN: the host's btrfs check --readonly finds the first disk clean
expect_btrfs_check() {
	if btrfs check --readonly "$T/root.img" >"$T/check.out" 2>&1; then
		echo "ok: btrfs check --readonly is clean $1"
	else
		sed 's/^/# btrfs check: /' "$T/check.out"
		fail "btrfs check --readonly found problems $1"
	fi
}
