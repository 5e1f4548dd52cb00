#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 60-swapfile: hibernate into a swap file.  Boot 1 (resume=/dev/vda, no
# resume_offset) mounts the ext4 disk /dev/vda, makes /mnt/fs/swapfile (dd, chmod
# 600, mkswap, swapon); torpor-suspend finds the file's header page itself, prints
# it with -v, and refuses to hibernate: the next boot, with no resume_offset=,
# would not find the image (old torpor hibernated, and the image was lost).
# Boot 2 gets resume=/dev/vda resume_offset=<that page>, keeps the file and
# hibernates into it; boot 3 restores and checks the workload, then switches the
# swap file off and unmounts.  The file's header must be plain swap again and the
# host's e2fsck -fn clean.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="hibernate into a swap file on ext4: round trip, fsck clean"

test_setup() {
	ext4_setup 384M
}

# file_sig PAGE: the signature of the swap header at PAGE of /dev/vda
file_sig() {
	dd if="$T/root.img" bs=1 skip=$(($1 * 4096 + 4086)) count=10 2>/dev/null | tr -d '\000'
}

test_run() {
	fs_boots
	base="console=ttyS0 panic=-1 resume=/dev/vda torpor_mib=64"
	BOOT_CMDLINE=$base
	# boot 1: the swap file is made, but the command line has no resume_offset= yet
	boot 1 torpor_test=hibernate torpor_fs=/dev/vda torpor_swapfile=/mnt/fs/swapfile \
		torpor_swapfile_mib=256 torpor_verbose=1
	note_boot 1
	expect 1 fs-mounted workload-started hibernating hibernate-failed
	expect_not 1 resumed swapon-failed
	page=$(sed -n "s|^[^ ]* torpor: debug: swap area '/mnt/fs/swapfile' on /dev/vda, header at page \\([0-9]*\\).*|\\1|p" \
		"$T/boot1.console" | head -n 1)
	if [ -z "$page" ]; then
		fail "boot 1: torpor-suspend -v printed no header page for the swap file"
		return
	fi
	echo "ok: the swap file's header is at page $page of /dev/vda"
	note "swap file header at page $page of /dev/vda"
	expect_line 1 "^torpor: the kernel command line has no resume_offset=, but swap file '/mnt/fs/swapfile' begins at page $page of /dev/vda: the next boot would not find the image$"
	sig=$(file_sig "$page")
	if [ "$sig" = SWAPSPACE2 ]; then
		echo "ok: the refused hibernation left the swap file's signature SWAPSPACE2"
	else
		fail "the swap file's signature is '$sig' after the refusal, expected SWAPSPACE2"
	fi

	# boot 2: resume_offset= names the file, which is kept: it hibernates
	BOOT_CMDLINE="$base resume_offset=$page"
	boot 2 torpor_test=hibernate torpor_fs=/dev/vda torpor_swapfile=/mnt/fs/swapfile \
		torpor_swapfile_mib=256 torpor_verbose=1
	note_boot 2
	expect 2 fs-mounted workload-started hibernating
	expect_not 2 resumed hibernate-failed swapon-failed poweroff
	expect_line 2 "^torpor: debug: swap area '/mnt/fs/swapfile' on /dev/vda, header at page $page, "
	sig=$(file_sig "$page")
	if [ "$sig" = S2SUSPEND ]; then
		echo "ok: the swap file's signature is S2SUSPEND after hibernating"
	else
		fail "the swap file's signature is '$sig' after hibernating, expected S2SUSPEND"
	fi

	boot 3 torpor_test=boot
	# shellcheck disable=SC2034 # back to the default
	BOOT_CMDLINE=
	note_boot 3
	expect_checks 3
	expect 3 fs-unmounted poweroff
	expect_not 3 fs-umount-failed
	sig=$(file_sig "$page")
	if [ "$sig" = SWAPSPACE2 ]; then
		echo "ok: the swap file's signature is SWAPSPACE2 after the resume"
	else
		fail "the swap file's signature is '$sig' after the resume, expected SWAPSPACE2"
	fi
	expect_fsck "after the resume and a clean unmount"
	note_torpor
}

test_main
