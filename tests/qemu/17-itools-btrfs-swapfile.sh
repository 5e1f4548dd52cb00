#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 17-itools-btrfs-swapfile: initramfs-tools, a btrfs root and a swap file on it.
# Boot 1 (resume=UUID=<the btrfs fsid>, no resume_offset) makes /swapfile with
# btrfs filesystem mkswapfile, prints btrfs-progs' map-swapfile -r answer and swaps
# on: torpor-suspend must find the file's device from the mount source and its
# header page from the chunk tree, agree with map-swapfile, refuse a wrong
# resume_offset (--check) naming the right page, and refuse to hibernate while the
# command line has no resume_offset= (the next boot would not find the image).
# Boot 2 gets resume_offset=<that page>, keeps the file, passes --check and
# hibernates; the host then reads S2SUSPEND at that page of the raw disk.  Boot 3
# must restore through the generator's initramfs before btrfs mounts the root.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="initramfs-tools: hibernate into a swap file on a btrfs root, restored before the root is mounted"

test_setup() {
	hook_use itools-btrfs
}

test_run() {
	resume="resume=UUID=$ROOT_BTRFS_UUID"
	hboot 1 "$resume" torpor_test=hibernate torpor_swapfile=/swapfile torpor_verbose=1
	note_boot 1
	expect 1 normal-boot workload-started hibernating hibernate-failed
	expect_not 1 resumed swapon-failed swapfile-failed
	if [ -z "$(btrfs_mounted_before 1)" ]; then
		fail "boot 1: no 'BTRFS ... (device vda)' mount message: the check of boot 2 would prove nothing"
	fi
	page=$(sed -n "s|^[^ ]* torpor: debug: swap area '/swapfile' on /dev/vda, header at page \\([0-9]*\\).*|\\1|p" \
		"$T/boot1.console" | head -n 1)
	map=$(sed -n 's|^[^ ]* # map-swapfile -r /swapfile: \([0-9]*\)$|\1|p' "$T/boot1.console" | head -n 1)
	if [ -z "$page" ]; then
		fail "boot 1: torpor-suspend -v printed no header page for /swapfile on /dev/vda"
		return
	fi
	if [ -z "$map" ]; then
		fail "boot 1: btrfs inspect-internal map-swapfile -r printed no page"
	elif [ "$map" = "$page" ]; then
		echo "ok: torpor-suspend and map-swapfile -r agree: the swap file begins at page $page"
	else
		fail "torpor-suspend says page $page, btrfs inspect-internal map-swapfile -r says $map"
	fi
	note "btrfs swap file header at page $page of /dev/vda (map-swapfile -r: $map)"
	expect_line 1 "^torpor: the kernel command line has no resume_offset=, but swap file '/swapfile' begins at page $page of /dev/vda: the next boot would not find the image$"
	if grep -q "^[^ ]* torpor: resume_offset=1 does not match swap file '/swapfile' on '[^']*': it begins at page $page\$" \
		"$T/boot1.console" &&
		grep -q "^[^ ]* # torpor-suspend --check --resume-offset=1: status [1-9]" "$T/boot1.console"; then
		echo "ok: torpor-suspend refuses resume_offset=1 and names page $page"
	else
		fail "torpor-suspend did not refuse resume_offset=1 with the swap file's page $page"
	fi
	# the test means something only when the swap file's chunk maps logical addresses
	# to other device offsets: read the chunk tree of the image offline
	logical=$(btrfs inspect-internal dump-tree -t chunk "$T/root.img" 2>/dev/null | awk -v p=$((page * 4096)) '
		/CHUNK_ITEM/ { start = $6; sub(/\).*/, "", start) }
		/^[ \t]*length / { len = $2; data = /type DATA/ }
		/stripe 0 devid/ { if (data && p >= $6 && p < $6 + len) { printf "%.0f\n", start + p - $6; exit } }')
	if [ -z "$logical" ]; then
		fail "no data chunk of the btrfs disk holds page $page"
	elif [ "$logical" = $((page * 4096)) ]; then
		fail "the swap file's chunk maps logical $logical to the same device offset: the test proves nothing"
	else
		echo "ok: the swap file's first byte is at logical $logical, device offset $((page * 4096))"
		note "btrfs: logical $logical is device offset $((page * 4096))"
	fi
	sig=$(root_sig "$page")
	if [ "$sig" = SWAPSPACE2 ]; then
		echo "ok: the refused hibernation left page $page of the btrfs disk SWAPSPACE2"
	else
		fail "page $page of the btrfs disk holds '$sig' after the refusal, expected SWAPSPACE2"
	fi

	hboot 2 "$resume resume_offset=$page" torpor_test=hibernate torpor_swapfile=/swapfile \
		torpor_verbose=1
	note_boot 2
	expect 2 normal-boot workload-started hibernating
	expect_not 2 resumed hibernate-failed swapon-failed swapfile-failed
	if grep -q "^[^ ]* torpor: ready to hibernate to swap file '/swapfile' on /dev/vda (.*): resume_offset=$page\$" \
		"$T/boot2.console"; then
		echo "ok: torpor-suspend --check says resume_offset=$page"
	else
		fail "torpor-suspend --check did not say resume_offset=$page for /swapfile on /dev/vda"
	fi
	sig=$(root_sig "$page")
	if [ "$sig" = S2SUSPEND ]; then
		echo "ok: page $page of the btrfs disk holds S2SUSPEND after hibernating"
	else
		fail "page $page of the btrfs disk holds '$sig' after hibernating, expected S2SUSPEND"
	fi

	hboot 3 "$resume resume_offset=$page"
	note "boot 3: $(cat "$T/boot3.took") s, back in the hibernated system at $(stamp 3 resumed) s"
	expect 3 resumed token-ok counter-ok data-ok
	expect_not 3 normal-boot token-bad counter-bad data-bad hibernate-failed
	_m=$(btrfs_mounted_before 3)
	if [ -z "$_m" ]; then
		echo "ok: boot 3 did not mount the btrfs root before the restore"
	else
		fail "boot 3 mounted the btrfs root before the restore: $_m"
	fi
	sig=$(root_sig "$page")
	if [ "$sig" = SWAPSPACE2 ]; then
		echo "ok: page $page of the btrfs disk holds SWAPSPACE2 after the restore"
	else
		fail "page $page of the btrfs disk holds '$sig' after the restore, expected SWAPSPACE2"
	fi
	note_torpor
}

test_main
