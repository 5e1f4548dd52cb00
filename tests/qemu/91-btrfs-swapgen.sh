#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 91-btrfs-swapgen: swap I/O into a btrfs swap file does not move the superblock
# generation that torpor stamps btrfs with (54-btrfs-stamp), so a machine that
# swapped into such a file is not refused at resume.  A proof, run when named
# (sh tests/qemu/run.sh 91-btrfs-swapgen): it takes minutes.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="btrfs: heavy swapping into a btrfs swap file leaves the generation as it was"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

FSARGS="torpor_fs=/dev/vda torpor_fstype=btrfs"

test_setup() {
	btrfs_setup
}

test_run() {
	fs_boots
	# boot 1 (256 MiB of memory, no torpor) swaps heavily, first to the swap disk (a
	# control, reported), then into a btrfs swap file on the btrfs disk: over the
	# second the generation must not move.  Each phase starts once the generation
	# has not moved for 64 s (btrfs commits pending work within 30-60 s): minutes.
	# shellcheck disable=SC2034 # read by boot
	BOOT_TIMEOUT=900
	echo "## heavy swapping into a btrfs swap file"
	# shellcheck disable=SC2086 # FSARGS is a list of parameters
	BOOT_MEM=256 boot 1 torpor_test=swapgen torpor_hib=none torpor_mib=384 $FSARGS
	note_boot 1
	expect 1 fs-mounted workload-started data-ok fs-unmounted poweroff
	# shellcheck disable=SC2046 # the marker's four words
	set -- $(sed -n 's/^[^ ]* === swapgen-disk //p' "$T/boot1.console")
	[ $# -eq 4 ] || fail "boot 1 printed no '=== swapgen-disk' line"
	note "control, swapping to the swap disk: generation $1 before, $2 after; $3 pages out, $4 in"
	# shellcheck disable=SC2046 # the marker's four words
	set -- $(sed -n 's/^[^ ]* === swapgen //p' "$T/boot1.console")
	if [ $# -ne 4 ]; then
		fail "boot 1 printed no '=== swapgen' line"
	elif [ "$1" != "$2" ] || [ -z "$1" ]; then
		fail "swapping into the btrfs swap file moved the generation from '$1' to '$2'"
	elif [ "$3" -lt 16384 ] || [ "$4" -lt 16384 ]; then
		fail "too little swapping to prove anything: $3 pages out, $4 in"
	else
		echo "ok: generation $1 before and after $3 pages swapped out to the btrfs file and $4 in"
	fi
	note "btrfs swap file: generation $1 before, $2 after; $3 pages swapped out, $4 in ($(($3 / 256)) and $(($4 / 256)) MiB)"
	expect_btrfs_check "after swapping"
}

test_main
