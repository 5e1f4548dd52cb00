#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 55-xfs-stamp: torpor records an xfs filesystem's superblock LSN and the log
# sector at its log head.
#  (a) boot 1 mounts the fresh filesystem read-write and unmounts it: sb_lsn moves
#      from 0 (the unmount covers the log and writes the superblock back).
#  (b) boot 2 hibernates with the xfs disk (/dev/vda) mounted and written to; the
#      image must know the log head; boot 3 has no resume step and mounts the disk
#      with -o ro,norecovery (which writes nothing: the disk stays byte for byte the
#      same); boot 4 resumes and must not call the disk "mounted since hibernation".
#  (c) boot 5 hibernates the same way; boot 6 has no resume step and mounts the
#      disk read-write (replaying the log) and unmounts it; boot 7, with torpor,
#      must refuse the image, discard it and boot on; the host's xfs_repair -n
#      finds the filesystem clean.
# Old torpor stamped ext only: it restores the image of (c) over the changed disk.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="xfs: the sb_lsn and log head stamp survives a resume and a norecovery mount, refuses a mount elsewhere"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

XFS_DRIVERS="CRYPTO_CRC32C:crc32c_generic|crc32c_cryptoapi XFS_FS:xfs"
FSARGS="torpor_fs=/dev/vda torpor_fstype=xfs"

test_setup() {
	swap_create && rm -f "$T/root.img" && truncate -s 320M "$T/root.img" &&
		mkfs.xfs -q -f -L torpor-test "$T/root.img" >/dev/null 2>&1 &&
		initrd_extend "$T/initrd.cpio" "$XFS_DRIVERS"
}

# sb_lsn: the superblock's sb_lsn, read on the host
sb_lsn() { xfs_db -r -c "sb 0" -c "p lsn" "$T/root.img" 2>/dev/null | sed -n 's/^lsn = //p'; }

# log_state: xfs_logprint's view of the log (tail, head, clean or dirty)
log_state() { xfs_logprint -t "$T/root.img" 2>/dev/null | sed -n 's/^ *\(log tail: .*\)/\1/p'; }

# recorded_head: the log head torpor's image records (the third word of fs=)
recorded_head() { dump_field "$T/swap.img" fs | awk '{ print $3 }'; }

# hibernate_xfs N: boot N hibernates with the xfs disk mounted and a writer on it
hibernate_xfs() {
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot "$1" torpor_test=hibernate torpor_mib=64 $FSARGS
	hibernated "$1" "after hibernating with the xfs disk mounted" fs-mounted fs-writing
	_head=$(recorded_head)
	if [ -n "$_head" ] && [ "$_head" != 18446744073709551615 ]; then
		echo "ok: the image records log head $((_head >> 32)):$((_head & 0xffffffff))"
	else
		fail "the image records no log head ('$_head')"
	fi
	note "boot $1: image records $(dump_field "$T/swap.img" fs); disk: sb_lsn $(sb_lsn), $(log_state)"
}

expect_repair() {
	if xfs_repair -n -f "$T/root.img" >"$T/repair.out" 2>&1; then
		echo "ok: xfs_repair -n is clean $1"
	else
		sed 's/^/# xfs_repair: /' "$T/repair.out"
		fail "xfs_repair -n found problems $1"
	fi
}

test_run() {
	fs_boots

	echo "## (a) a read-write mount of a fresh filesystem moves sb_lsn"
	l0=$(sb_lsn)
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot 1 torpor_test=boot torpor_hib=none $FSARGS
	note_boot 1
	expect 1 fs-mounted fs-unmounted poweroff
	l1=$(sb_lsn)
	if [ -n "$l1" ] && [ "$l1" != "$l0" ]; then
		echo "ok: mount and unmount moved sb_lsn from $l0 to $l1"
	else
		fail "mount and unmount left sb_lsn at '$l1' (was '$l0')"
	fi
	note "(a) sb_lsn $l0 after mkfs.xfs, $l1 after a mount and unmount; $(log_state)"

	echo "## (b) hibernate; a ro,norecovery mount elsewhere; resume"
	hibernate_xfs 2
	s2=$(sha256sum <"$T/root.img")
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot 3 torpor_test=boot torpor_hib=none $FSARGS torpor_fsopts=ro,norecovery
	note_boot 3
	expect 3 normal-boot fs-mounted fs-unmounted poweroff
	if [ "$(sha256sum <"$T/root.img")" = "$s2" ]; then
		echo "ok: the ro,norecovery mount left the disk byte for byte the same"
	else
		fail "the ro,norecovery mount changed the disk"
	fi
	fs_resume 4
	expect_no_line 4 "was mounted since hibernation" "the resume itself moved no stamp"
	expect_repair "after the resume"

	echo "## (c) hibernate; a read-write mount elsewhere; torpor refuses"
	hibernate_xfs 5
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot 6 torpor_test=boot torpor_hib=none $FSARGS
	note_boot 6
	expect 6 normal-boot fs-mounted fs-unmounted poweroff
	note "(c) after the mount elsewhere: sb_lsn $(sb_lsn), $(log_state)"
	boot_stale 7 "(superblock lsn [0-9]+:[0-9]+, now [0-9]+:[0-9]+|log written at its head [0-9]+:[0-9]+)"
	note "$(sed -n 's/^[^ ]* \(torpor: filesystem .*\)/\1/p' "$T/boot7.console" | head -n 1)"
	expect_repair "after the mount elsewhere and the refusal"
}

test_main
