#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 52-ext-ro-mount: a READ-ONLY mount of the ext4 disk elsewhere must stale the image.
#  Boot 1 hibernates with an ext4 disk (/dev/vda) mounted read-write and written to:
#  its journal needs recovery on disk.  Boot 2 has no resume step and mounts the
#  disk read-only (a rescue system "just looking"): ext4 replays the journal,
#  deletes orphan inodes and clears needs_recovery, but leaves the mount count and
#  mount time as they were (checked here on the host).  Boot 3, with torpor, must
#  refuse the image, say the journal was recovered, discard it and boot on.
# Old torpor compared the mount count and time only: it restores this image.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="ext4: a read-only mount elsewhere (journal replayed) stales the image"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	ext4_setup 64M /sbin/swapon:/usr/lib/torpor-test/swapon
}

# sb FIELD: a field of the ext4 disk's superblock, read on the host
sb() { dumpe2fs -h "$T/root.img" 2>/dev/null | sed -n "s/^$1: *//p"; }

test_run() {
	fs_boots

	boot 1 torpor_test=hibernate torpor_mib=32 torpor_fs=/dev/vda
	hibernated 1 "after hibernating with /dev/vda mounted" fs-mounted fs-writing
	count1=$(sb "Mount count") time1=$(sb "Last mount time") feat1=$(sb "Filesystem features")
	case " $feat1 " in
	*" needs_recovery "*) echo "ok: the hibernated ext4 disk needs journal recovery" ;;
	*) fail "the hibernated ext4 disk does not need recovery: $feat1" ;;
	esac
	boot_normal 2 torpor_hib=none torpor_fs=/dev/vda torpor_fsopts=ro
	expect 2 fs-mounted
	expect_sig S2SUSPEND "after the read-only rescue boot (it did not touch swap)"
	count2=$(sb "Mount count") time2=$(sb "Last mount time") feat2=$(sb "Filesystem features")
	if [ "$count1" = "$count2" ] && [ "$time1" = "$time2" ]; then
		echo "ok: the read-only mount left mount count ($count2) and time as they were"
	else
		fail "the read-only mount changed mount count $count1 -> $count2 or time"
	fi
	case " $feat2 " in
	*" needs_recovery "*) fail "the read-only mount did not replay the journal: $feat2" ;;
	*) echo "ok: the read-only mount replayed the journal (needs_recovery cleared)" ;;
	esac
	boot_stale 3 "journal recovered since, by a read-only mount or e2fsck"
	expect_fsck "after the read-only rescue boot and the refusal"
}

test_main
