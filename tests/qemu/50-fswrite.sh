#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 50-fswrite: a process appends sequence numbers to a file on a mounted ext4 disk
# (/dev/vda) while boot 1 hibernates; after the resume in boot 2 it keeps appending
# (the file grows, no number is missing or repeated), then stops, and the disk is
# unmounted cleanly.  The host's e2fsck -fn must find the filesystem clean and
# debugfs must read the same unbroken sequence.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="a writer on mounted ext4 keeps writing across hibernate, fsck clean"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	ext4_setup 64M
}

test_run() {
	fs_boots
	boot 1 torpor_test=hibernate torpor_mib=64 torpor_fs=/dev/vda
	hibernated 1 "after hibernating" fs-mounted fs-writing
	expect_line 1 "^# cycle 1 of 1, counter [0-9]+$"

	fs_resume 2
	expect_no_line 2 "was mounted since hibernation" "the resume boot did not mount the disk"
	expect_fsck "after the writer stopped and the disk was unmounted"
	if debugfs -R "cat /log" "$T/root.img" 2>/dev/null >"$T/log.txt" &&
		awk 'NR != $1 { exit 1 } END { exit NR < 10 }' "$T/log.txt"; then
		echo "ok: debugfs reads $(wc -l <"$T/log.txt") lines in sequence"
		note "the writer's log holds $(wc -l <"$T/log.txt") lines in sequence; $(sed -n 's/^[^ ]* # \(log has .* before hibernating\)$/\1/p' "$T/boot2.console")"
	else
		fail "debugfs does not read an unbroken sequence from /log"
	fi
}

test_main
