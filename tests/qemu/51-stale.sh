#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 51-stale: a boot without torpor between hibernating and resuming.
#  (a) boot 1 hibernates; boot 2 has no resume step and runs util-linux swapon,
#      which must recognise torpor's signature as suspend data and rewrite it
#      (SWAPSPACE2 on the host); boot 3, with torpor, must not resume.
#  (b) boot 4 hibernates with an ext4 disk mounted; boot 5 has no resume step and
#      mounts that disk read-write and unmounts it (a rescue boot); boot 6, with
#      torpor, must refuse the image because the filesystem was mounted since, say
#      so, discard it and boot normally.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="a boot without torpor in between: util-linux swapon or an ext4 mount stale the image"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	ext4_setup 64M /sbin/swapon:/usr/lib/torpor-test/swapon
}

test_run() {
	fs_boots

	echo "## (a) util-linux swapon in a boot without torpor"
	boot 1 torpor_test=hibernate torpor_mib=32
	hibernated 1 "after hibernating"
	boot_normal 2 torpor_hib=none torpor_swapon=util
	expect 2 swapon-ok
	expect_line 2 "software suspend data detected" "util-linux swapon recognised the image"
	expect_no_line 2 "^torpor:" "torpor did not run"
	expect_sig SWAPSPACE2 "after util-linux swapon"
	note "util-linux swapon: $(sed -n 's/^[^ ]* \(swapon: .*software suspend.*\)/\1/p' "$T/boot2.console" | head -n 1)"
	boot_normal 3 torpor_swapon=1
	expect_no_line 3 "^torpor: restoring" "the stale image is not restored"

	echo "## (b) a boot without torpor mounts the ext4 disk"
	boot 4 torpor_test=hibernate torpor_mib=32 torpor_fs=/dev/vda
	hibernated 4 "after hibernating with /dev/vda mounted" fs-mounted fs-writing
	fsrec=$(dump_field "$T/swap.img" fs)
	if [ -n "$fsrec" ]; then
		echo "ok: the image records the filesystem: $fsrec"
	else
		fail "the image records no filesystem (no fs= in --dump)"
	fi
	boot_normal 5 torpor_hib=none torpor_fs=/dev/vda
	expect 5 fs-mounted fs-seq-ok fs-unmounted
	expect_sig S2SUSPEND "after the rescue boot (it did not touch swap)"
	boot_stale 6 "mount count [0-9]+, now [0-9]+"
	note "$(sed -n 's/^[^ ]* \(torpor: filesystem .*\)/\1/p' "$T/boot6.console" | head -n 1)"
	expect_fsck "after the rescue boot and the refusal"
}

test_main
