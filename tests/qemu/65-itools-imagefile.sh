#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 65-itools-imagefile: zram is the only swap of a btrfs root, the way README's "no
# swap partition" section sets it up: torpor-suspend --setup-image-file makes
# /var/lib/torpor/image (NOCOW) and prints the resume= line, /etc/torpor.conf names
# the file (image_file), and plain torpor-suspend hibernates into it.  Boot 1 has
# resume=UUID=<the btrfs fsid> and no resume_offset; boot 2 gets the printed
# resume_offset= and restores through the initramfs-tools hook before btrfs mounts the
# root: the workload is intact, the file is no swap area, zram still is.  Boot 3
# hibernates again and the power goes while torpor-suspend writes (the file active
# as swap, TORPOR_TEST_STALL); boot 4 boots normally, the file is not active and
# torpor-suspend --check is content; a hibernation whose resume_offset= does not
# name the file is refused before the file is activated.
. "$(dirname "$0")/lib.sh"
. "$QDIR/rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="initramfs-tools, btrfs root, zram only: hibernate into the image file; a power cut while it is active"

test_setup() {
	hook_use itools-zram-btrfs
}

IMG=/var/lib/torpor/image

# printed_page N: the resume_offset= that --setup-image-file printed in boot N
printed_page() {
	sed -n 's|.*resume=UUID=[-0-9a-f]* resume_offset=\([0-9]*\).*|\1|p' "$T/boot$1.console" |
		head -n 1
}

# expect_root_sig PAGE SIGNATURE WHEN
expect_root_sig() {
	_sig=$(root_sig "$1")
	if [ "$_sig" = "$2" ]; then
		echo "ok: page $1 of the btrfs disk (the image file's header) holds $2 $3"
	else
		fail "page $1 of the btrfs disk holds '$_sig' $3, expected $2"
	fi
}

test_run() {
	resume="resume=UUID=$ROOT_BTRFS_UUID"
	hboot 1 "$resume" torpor_test=hibernate torpor_zram=256 torpor_imagefile=256M torpor_verbose=1
	note_boot 1
	expect 1 normal-boot imagefile-made workload-started hibernating
	expect_not 1 resumed hibernate-failed swapon-failed imagefile-failed
	grep -E "image file|swapon|swapoff|NOCOW|nocow" "$T/boot1.console" | sed 's/^/# /'
	page=$(printed_page 1)
	if [ -z "$page" ]; then
		fail "boot 1: torpor-suspend --setup-image-file printed no resume_offset="
		return
	fi
	echo "ok: --setup-image-file printed resume_offset=$page"
	expect_root_sig "$page" S2SUSPEND "after hibernating"

	hboot 2 "$resume resume_offset=$page"
	note "boot 2: $(cat "$T/boot2.took") s, back in the hibernated system at $(stamp 2 resumed) s"
	expect 2 resumed token-ok counter-ok data-ok imagefile-inactive zram-active
	expect_not 2 normal-boot token-bad counter-bad data-bad hibernate-failed imagefile-active \
		zram-inactive
	_m=$(btrfs_mounted_before 2)
	if [ -z "$_m" ]; then
		echo "ok: boot 2 did not mount the btrfs root before the restore"
	else
		fail "boot 2 mounted the btrfs root before the restore: $_m"
	fi
	expect_root_sig "$page" SWAPSPACE2 "after the restore"
	grep -E "swapon|swapoff" "$T/boot2.console" | sed 's/^/# /'
	note_torpor

	# the power goes while the image is written: the file is active swap then
	hboot_cut 3 "^torpor: test: stalling" "$resume resume_offset=$page" torpor_test=hibernate \
		torpor_zram=256 torpor_imagefile=256M torpor_stall=30
	expect 3 workload-started hibernating
	expect_not 3 resumed hibernate-failed poweroff
	expect_line 3 "Adding [0-9]*k swap on $IMG\\." "the image file was active swap at the cut"
	expect_root_sig "$page" SWAPSPACE2 "after the power cut (no image was committed)"

	hboot 4 "$resume resume_offset=$page" torpor_imagefile=256M
	note_boot 4
	expect 4 normal-boot imagefile-inactive poweroff
	expect_not 4 resumed imagefile-active
	expect_line 4 "torpor: ready to hibernate to image file '$IMG' \\([0-9]* MiB, activated only while hibernating\\): resume_offset=$page\$"
	expect_line 4 "# torpor-suspend --check: status 0"
	# a resume_offset= that is not the file's: refused before anything is activated
	expect_line 4 "torpor: resume_offset=1 does not match image file '$IMG': it begins at page $page"
	expect_line 4 "# torpor-suspend --resume-offset=1: status 1"
	expect_no_line 4 "Adding [0-9]*k swap on $IMG"
	expect_root_sig "$page" SWAPSPACE2 "after the boot that followed the power cut"
}

test_main
