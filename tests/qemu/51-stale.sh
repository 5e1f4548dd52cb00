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
	swap_create && root_mkfs 64M &&
		initrd_extend "$T/initrd.cpio" "$EXT4_DRIVERS" /sbin/swapon:/usr/lib/torpor-test/swapon
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/initrd.cpio
	# shellcheck disable=SC2034 # the ext4 disk keeps what each boot writes
	BOOT_ROOT_OPTS=

	echo "## (a) util-linux swapon in a boot without torpor"
	boot 1 torpor_test=hibernate torpor_mib=32
	note_boot 1
	expect 1 workload-started hibernating
	expect_not 1 resumed hibernate-failed poweroff
	expect_sig S2SUSPEND "after hibernating"
	boot 2 torpor_test=boot torpor_hib=none torpor_swapon=util
	note_boot 2
	expect 2 normal-boot swapon-ok poweroff
	expect_not 2 resumed
	expect_line 2 "software suspend data detected" "util-linux swapon recognised the image"
	expect_no_line 2 "^torpor:" "torpor did not run"
	expect_sig SWAPSPACE2 "after util-linux swapon"
	note "util-linux swapon: $(sed -n 's/^[^ ]* \(swapon: .*software suspend.*\)/\1/p' "$T/boot2.console" | head -n 1)"
	boot 3 torpor_test=boot torpor_swapon=1
	note_boot 3
	expect 3 normal-boot swapon-ok poweroff
	expect_not 3 resumed
	expect_no_line 3 "^torpor: restoring" "the stale image is not restored"

	echo "## (b) a boot without torpor mounts the ext4 disk"
	boot 4 torpor_test=hibernate torpor_mib=32 torpor_fs=/dev/vda
	note_boot 4
	expect 4 fs-mounted workload-started fs-writing hibernating
	expect_not 4 resumed hibernate-failed poweroff
	expect_sig S2SUSPEND "after hibernating with /dev/vda mounted"
	fsrec=$(dump_field "$T/swap.img" fs)
	if [ -n "$fsrec" ]; then
		echo "ok: the image records the filesystem: $fsrec"
	else
		fail "the image records no filesystem (no fs= in --dump)"
	fi
	boot 5 torpor_test=boot torpor_hib=none torpor_fs=/dev/vda
	note_boot 5
	expect 5 normal-boot fs-mounted fs-seq-ok fs-unmounted poweroff
	expect_not 5 resumed
	expect_sig S2SUSPEND "after the rescue boot (it did not touch swap)"
	boot 6 torpor_test=boot torpor_swapon=1
	note_boot 6
	expect 6 normal-boot swapon-ok poweroff
	expect_not 6 resumed
	expect_line 6 "^torpor: filesystem [0-9a-f-]+ on /dev/vda was mounted since hibernation \\(mount count [0-9]+, now [0-9]+\\): not restoring the image$"
	expect_line 6 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line 6 "^torpor: restoring" "the stale image is not restored"
	expect_sig SWAPSPACE2 "after the refusal"
	note "$(sed -n 's/^[^ ]* \(torpor: filesystem .*\)/\1/p' "$T/boot6.console" | head -n 1)"
	expect_fsck "after the rescue boot and the refusal"
}

test_main
