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

FSARGS="torpor_fs=/dev/vda torpor_fstype=btrfs"

test_setup() {
	btrfs_setup
}

# recorded: the generation torpor's image records (the second word of fs=)
recorded() { dump_field "$T/swap.img" fs | awk '{ print $2 }'; }

test_run() {
	fs_boots

	echo "## (a) hibernate with the btrfs disk mounted and written, then resume"
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot 1 torpor_test=hibernate torpor_mib=64 $FSARGS
	hibernated 1 "after hibernating with the btrfs disk mounted" fs-mounted fs-writing
	g1=$(btrfs_generation)
	r1=$(recorded)
	if [ -n "$r1" ] && [ "$r1" = "$g1" ]; then
		echo "ok: the image records generation $r1, the disk's after the power off"
	else
		fail "the image records generation '$r1', the disk has '$g1'"
	fi
	note "(a) generation on disk after hibernating $g1, recorded $r1"
	fs_resume 2
	expect_no_line 2 "was mounted since hibernation" "the resume itself moved no stamp"
	expect_btrfs_check "after the resume"

	echo "## (b) a boot without torpor mounts the btrfs disk"
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot 3 torpor_test=hibernate torpor_mib=64 $FSARGS
	hibernated 3 "after hibernating again" fs-mounted fs-writing
	g3=$(btrfs_generation)
	r3=$(recorded)
	[ "$r3" = "$g3" ] || fail "the image records generation '$r3', the disk has '$g3'"
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	boot_normal 4 torpor_hib=none $FSARGS
	expect 4 fs-mounted fs-unmounted
	g4=$(btrfs_generation)
	if [ -n "$g4" ] && [ -n "$g3" ] && [ "$g4" -gt "$g3" ]; then
		echo "ok: the read-write mount moved the generation from $g3 to $g4"
	else
		fail "the read-write mount left the generation at '$g4' (was '$g3')"
	fi
	note "(b) generation $g3 when hibernating, $g4 after a mount without torpor"
	boot_stale 5 "generation $g3, now $g4"
	note "$(sed -n 's/^[^ ]* \(torpor: filesystem .*\)/\1/p' "$T/boot5.console" | head -n 1)"
	expect_btrfs_check "after the mount elsewhere and the refusal"
}

test_main
