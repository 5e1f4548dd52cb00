#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 81-zram-ahead: Fedora's layout, zram (768 MiB) at priority 100 ahead of the swap
# disk, which the image goes to.  Boot 1 runs 384 MiB of workload and hibernates
# with image_size 64 MiB, so the kernel's shrinking swaps out most of the workload:
# to zram (~395 MiB), whose compressed copies stay in the image, and nothing to the
# swap disk.  The 384 MiB swap disk holds that image (~230 MiB written) with room to
# spare, but not the ~395 MiB swapped out besides it: torpor charged them all to the
# swap disk and refused before the freeze (450 MiB and a margin of 33 on 383 free,
# hinting a lower image_size, which swaps out more); now the estimate charges them
# to zram first (233 MiB to write) and hibernates.  Boot 2 restores; token, counter
# and data are intact, zram holds the pages swapped out and the swap disk none.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="zram ahead of the swap disk takes what the kernel swaps out: no false refusal, round trip"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	# shellcheck disable=SC2034 # read by swap_create
	SWAP_SIZE=384M
	swap_create &&
		initrd_extend "$T/initrd.cpio" "ZRAM:zram" /sbin/swapon:/usr/lib/torpor-test/swapon
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/initrd.cpio
	boot 1 torpor_test=hibernate torpor_mib=384 torpor_zram=768 torpor_zram_prio=100 \
		torpor_verbose=1 torpor_opts=--image-size=64M
	note_boot 1
	expect 1 workload-started hibernating
	expect_not 1 resumed hibernate-failed swapon-failed poweroff
	expect_no_line 1 "^torpor: the image needs about" "not refused"
	grep -E "torpor: (swap area|image estimate|estimated before)" "$T/boot1.console" |
		sed 's/^/# /'

	boot 2 torpor_test=boot
	note_boot 2
	expect_checks 2
	expect 2 zram-used poweroff
	expect_not 2 zram-unused
	expect_line 2 "# swaps: /dev/vdb +partition[[:space:]]+[0-9]+[[:space:]]+0[[:space:]]"
	grep -E "# swaps:" "$T/boot2.console" | sed 's/^/# /'
	note "$(sed -n 's/^[^ ]* torpor: debug: \(image estimate: .*\)/\1/p' "$T/boot1.console" | head -n 1)"
	note_torpor
}

test_main
