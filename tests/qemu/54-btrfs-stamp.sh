#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 54-btrfs-stamp: torpor records a btrfs filesystem's superblock generation.
#  (a) boot 1 hibernates with a btrfs disk (/dev/vda) mounted and written to; the
#      generation in the image must be the one on the disk after the power off
#      (read after the snapshot, not before the freeze's sync); boot 2 resumes
#      and must not call the disk "mounted since hibernation".
#  (b) boot 3 hibernates the same way; boot 4 has no resume step and mounts the
#      disk read-write and unmounts it (the generation moves); boot 5, with torpor,
#      must refuse the image, naming both generations, discard it and boot on.
# That swap I/O into a btrfs swap file leaves the generation alone is proved by
# 91-btrfs-swapgen (run when named: it waits minutes for the generation to settle).
# Old torpor stamped ext only: it restores the image of (b) over the changed disk.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="btrfs: the generation stamp survives a resume and refuses a mount elsewhere"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

BTRFS_DRIVERS="CRYPTO_CRC32C:crc32c_generic BTRFS_FS:btrfs"
FSARGS="torpor_fs=/dev/vda torpor_fstype=btrfs"

test_setup() {
	swap_create && rm -f "$T/root.img" && truncate -s 512M "$T/root.img" &&
		mkfs.btrfs -q -f -L torpor-test "$T/root.img" >/dev/null 2>&1 &&
		initrd_extend "$T/initrd.cpio" "$BTRFS_DRIVERS" /bin/btrfs:/usr/bin/btrfs \
			/sbin/swapon:/usr/lib/torpor-test/swapon
}

# generation: the superblock generation of the btrfs disk, read on the host
generation() {
	btrfs inspect-internal dump-super "$T/root.img" 2>/dev/null |
		awk '$1 == "generation" { print $2; exit }'
}

# recorded: the generation torpor's image records (the second word of fs=)
recorded() { dump_field "$T/swap.img" fs | awk '{ print $2 }'; }

expect_btrfs_check() {
	if btrfs check --readonly "$T/root.img" >"$T/check.out" 2>&1; then
		echo "ok: btrfs check --readonly is clean $1"
	else
		sed 's/^/# btrfs check: /' "$T/check.out"
		fail "btrfs check --readonly found problems $1"
	fi
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/initrd.cpio
	# shellcheck disable=SC2034 # the disk keeps what each boot writes
	BOOT_ROOT_OPTS=

	echo "## (a) hibernate with the btrfs disk mounted and written, then resume"
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot 1 torpor_test=hibernate torpor_mib=64 $FSARGS
	note_boot 1
	expect 1 fs-mounted workload-started fs-writing hibernating
	expect_not 1 resumed hibernate-failed poweroff
	expect_sig S2SUSPEND "after hibernating with the btrfs disk mounted"
	g1=$(generation)
	r1=$(recorded)
	if [ -n "$r1" ] && [ "$r1" = "$g1" ]; then
		echo "ok: the image records generation $r1, the disk's after the power off"
	else
		fail "the image records generation '$r1', the disk has '$g1'"
	fi
	note "(a) generation on disk after hibernating $g1, recorded $r1"
	boot 2 torpor_test=boot
	note_boot 2
	expect_checks 2
	expect 2 fs-grows fs-seq-ok fs-unmounted poweroff
	expect_not 2 fs-stalled fs-seq-bad fs-umount-failed
	expect_no_line 2 "was mounted since hibernation" "the resume itself moved no stamp"
	expect_sig SWAPSPACE2 "after the resume"
	expect_btrfs_check "after the resume"

	echo "## (b) a boot without torpor mounts the btrfs disk"
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot 3 torpor_test=hibernate torpor_mib=64 $FSARGS
	note_boot 3
	expect 3 fs-mounted workload-started fs-writing hibernating
	expect_not 3 resumed hibernate-failed poweroff
	expect_sig S2SUSPEND "after hibernating again"
	g3=$(generation)
	r3=$(recorded)
	[ "$r3" = "$g3" ] || fail "the image records generation '$r3', the disk has '$g3'"
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot 4 torpor_test=boot torpor_hib=none $FSARGS
	note_boot 4
	expect 4 normal-boot fs-mounted fs-unmounted poweroff
	expect_not 4 resumed
	g4=$(generation)
	if [ -n "$g4" ] && [ -n "$g3" ] && [ "$g4" -gt "$g3" ]; then
		echo "ok: the read-write mount moved the generation from $g3 to $g4"
	else
		fail "the read-write mount left the generation at '$g4' (was '$g3')"
	fi
	note "(b) generation $g3 when hibernating, $g4 after a mount without torpor"
	boot 5 torpor_test=boot torpor_swapon=1
	note_boot 5
	expect 5 normal-boot swapon-ok poweroff
	expect_not 5 resumed
	expect_line 5 "^torpor: filesystem [0-9a-f-]+ on /dev/vda was mounted since hibernation \\(generation $g3, now $g4\\): not restoring the image$"
	expect_line 5 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line 5 "^torpor: restoring" "the stale image is not restored"
	expect_sig SWAPSPACE2 "after the refusal"
	note "$(sed -n 's/^[^ ]* \(torpor: filesystem .*\)/\1/p' "$T/boot5.console" | head -n 1)"
	expect_btrfs_check "after the mount elsewhere and the refusal"
}

test_main
