#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 41-powercut-seq: the disk agrees with the image.  A fast appender (workload append)
# writes lines to a log on a mounted ext4 disk (/dev/vda) as fast as it can, and after
# each write() returns records the line's number on a raw witness disk (/dev/vdc) with
# O_DIRECT, where a power cut cannot undo it.  The host cuts the power while
# torpor-suspend writes the image, TORPOR_TEST_CUTS times (default 3) at points spread
# from 0% to the commit.  Each following boot must find, after the journal replay,
# the log in sequence with no torn line and at least as many lines as the witness
# says were written: what the frozen appender saw succeed is on the disk.  The
# kernel's sync in FREEZE runs before the freeze; torpor syncs again after it.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="power cuts against a fast appender on ext4: no append it saw succeed is lost"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	swap_create && root_mkfs 64M && rm -f "$T/witness.img" &&
		truncate -s 1M "$T/witness.img" && initrd_extend "$T/initrd.cpio" "$EXT4_DRIVERS"
}

# host_check N WHEN: the log, read on the host, is in sequence and holds at least the
# witness's count
host_check() {
	_w=$(dd if="$T/witness.img" bs=512 count=1 2>/dev/null | tr -d '\000' | head -n 1)
	if ! debugfs -R "cat /log" "$T/root.img" 2>/dev/null >"$T/log.txt"; then
		fail "debugfs cannot read /log $2"
		return
	fi
	_l=$(wc -l <"$T/log.txt")
	if awk 'NR != $1 { exit 1 }' "$T/log.txt" && [ -n "$_w" ] && [ "$_l" -ge "$_w" ]; then
		echo "ok: debugfs reads $_l lines in sequence, the appender saw $_w written $2"
	else
		fail "debugfs reads $_l lines, the appender saw ${_w:-none} written $2"
		tail -n 3 "$T/log.txt" | sed 's/^/# log: /'
	fi
	note "cut $1: the appender saw ${_w:-none} lines written, the disk holds $_l"
}

test_run() {
	cuts=${TORPOR_TEST_CUTS:-3}
	case $cuts in
	'' | *[!0-9]* | 0)
		fail "TORPOR_TEST_CUTS must be a positive number, not '$cuts'"
		return
		;;
	esac
	fs_boots
	# the witness disk, on a PCI slot after the two usual disks: /dev/vdc
	# shellcheck disable=SC2034 # read by boot
	BOOT_QEMU_OPTS="-drive file=$T/witness.img,format=raw,if=none,id=witness -device virtio-blk-pci,drive=witness,addr=0x10"
	b=1
	i=1
	while [ "$i" -le "$cuts" ]; do
		if [ "$i" -eq "$cuts" ]; then
			point=commit
		else
			point=$(((i - 1) * 100 / (cuts - 1)))
		fi
		boot_cut "$b" "^torpor: test: stalling" torpor_test=hibernate torpor_mib=64 \
			torpor_fs=/dev/vda torpor_fs_fast=1 torpor_witness=/dev/vdc \
			torpor_stall="$point" || return
		expect "$b" fs-mounted workload-started fs-writing hibernating
		expect_not "$b" resumed hibernate-failed poweroff
		b=$((b + 1))

		boot "$b" torpor_test=boot torpor_fs=/dev/vda torpor_witness=/dev/vdc
		expect "$b" normal-boot fs-mounted fs-seq-ok fs-witness-ok fs-unmounted poweroff
		expect_not "$b" resumed fs-seq-bad fs-witness-lost
		expect_no_line "$b" "restoring" "no attempt to restore the partial image"
		expect_sig SWAPSPACE2 "after the boot that followed cut $i (at $point)"
		expect_fsck "after cut $i (at $point) and the boot that followed"
		host_check "$i at $point" "after cut $i (at $point)"
		b=$((b + 1))
		i=$((i + 1))
	done
}

test_main
