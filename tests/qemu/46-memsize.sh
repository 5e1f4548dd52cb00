#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 46-memsize: boot 1 hibernates with $QEMU_MEM MiB; the resume boots get a quarter
# more memory, then a quarter less.  torpor-resume's own pre-check must refuse each
# before a single page goes to the kernel (no "restoring" line), discard the image
# and boot normally; swap works afterwards.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="resume with more or less memory: torpor refuses before loading, normal boot"

test_setup() {
	swap_create
}

# memsize_boot N MIB: boot N with MIB MiB of memory on a copy of the image
memsize_boot() {
	cp --sparse=always "$T/image.img" "$T/swap.img"
	# shellcheck disable=SC2034 # read by boot
	BOOT_MEM=$2
	boot_normal "$1" torpor_swapon=1
	# shellcheck disable=SC2034 # back to $QEMU_MEM
	BOOT_MEM=
	expect_line "$1" "^torpor: image was written with [0-9]+ MiB of memory present, this boot has [0-9]+ MiB: not restoring it$"
	expect_line "$1" "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line "$1" "^torpor: restoring" "no page of the image reaches the kernel"
	expect_no_line "$1" "PM: (hibernation: )?Image mismatch" "the kernel's own check never runs"
	expect_sig SWAPSPACE2 "after the boot with $2 MiB"
	note "-m $QEMU_MEM, then -m $2: $(sed -n 's/^[^ ]* torpor: \(image was written with .*\)/\1/p' "$T/boot$1.console" | head -n 1)"
}

test_run() {
	hibernate_first 1
	cp --sparse=always "$T/swap.img" "$T/image.img"
	memsize_boot 2 $((QEMU_MEM * 5 / 4))
	memsize_boot 3 $((QEMU_MEM * 3 / 4))
	rm -f "$T/image.img"
}

test_main
