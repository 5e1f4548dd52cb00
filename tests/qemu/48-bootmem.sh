#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 48-bootmem: a small guest ($BOOTMEM_MIB MiB) whose resume boots hold a large
# initramfs: the test initramfs and more, a gzip-compressed cpio of one file of
# zeros, unpacked into the rootfs, where it stays in memory.  Each hibernating
# boot starts a workload of half of memory, and its /boot copy, which
# torpor-suspend reads, is the initramfs the resume boot gets:
#  1-2  $PAD_MIB MiB more: image_size = auto asks for what that boot can restore,
#       above the kernel's value and below half of memory; boot 2 restores it;
#  3-4  $PAD_TIGHT_MIB MiB more: that boot restores less than the kernel's value,
#       auto keeps the kernel's; boot 4 restores it (where the image of half of
#       memory that auto chose before got torpor-resume OOM-killed at 1% of the
#       load) and hibernates again;
#  5    $PAD_MORE_MIB MiB more: the image does not fit this boot's free memory:
#       torpor-resume says so before a page goes to the kernel, discards the
#       image and boots normally (not the kernel's ENOMEM part way through the
#       load, the image invalidated, the session lost all the same).
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="auto's image fits the next boot's free memory, and one that does not is refused clearly"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

BOOTMEM_MIB=640
PAD_MIB=220
PAD_TIGHT_MIB=250
PAD_MORE_MIB=380
WORK_MIB=340
# root= makes the rootfs a ramfs, as on a machine whose boot loader names its root:
# a tmpfs rootfs would stop taking files at half of memory
RESUME_ARGS="root=/dev/vda torpor.debug"

# padded NAME MIB: $T/NAME.cpio, the test initramfs and a gzip-compressed cpio
# holding /pad/fill, MIB MiB of zeros; $T/NAME-hib.cpio, the test initramfs with
# $T/NAME.cpio as its /boot copy
padded() {
	rm -rf "$T/pad"
	mkdir -p "$T/pad/pad" && truncate -s "${2}M" "$T/pad/pad/fill" || return 1
	{ cat "$INITRD" && (cd "$T/pad" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) |
		gzip -1 -n -c; } >"$T/$1.cpio" &&
		{ cat "$INITRD" && boot_copy "" "$T/$1.cpio"; } >"$T/$1-hib.cpio"
	_rc=$?
	rm -rf "$T/pad"
	return "$_rc"
}

test_setup() {
	swap_create && padded resume "$PAD_MIB" && padded tight "$PAD_TIGHT_MIB" &&
		padded more "$PAD_MORE_MIB"
}

# free_at N: MemTotal and MemFree when boot N's resume step started, in MiB
free_at() {
	sed -n 's/.*# memory at resume-start: MemTotal: \([0-9]*\) kB MemFree: \([0-9]*\) kB.*/\1 \2/p' \
		"$T/boot$1.console" | awk '{ printf "%d MiB of %d MiB free", $2 / 1024, $1 / 1024 }'
}

# debug_line N WHAT: torpor's debug line of boot N that starts with WHAT, for the summary
debug_line() { sed -n "s/^[^ ]* torpor: debug: \($2.*\)/\1/p" "$T/boot$1.console" | head -n 1; }

# hibernate_with N NAME CYCLES: boot N hibernates, the next boot's initramfs NAME
hibernate_with() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/$2-hib.cpio
	boot "$1" torpor_test=hibernate torpor_cycles="$3" torpor_verbose=1 torpor_mib=$WORK_MIB
	hibernated "$1" "after hibernating" normal-boot
	note "boot $1: $(debug_line "$1" "the next boot restores")"
}

# resume_with N NAME PAD: boot N resumes with initramfs NAME (PAD MiB more)
resume_with() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/$2.cpio
	# shellcheck disable=SC2086 # a list of parameters
	boot "$1" torpor_test=boot $RESUME_ARGS
	note_boot "$1"
	note "boot $1: $(free_at "$1") at the resume step, $3 MiB of padding"
	note "boot $1: $(debug_line "$1" "this boot uses")"
	expect_checks "$1"
	expect_no_line "$1" "invoked oom-killer" "the restore leaves this boot memory enough"
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_MEM=$BOOTMEM_MIB
	hibernate_with 1 resume 1
	# image_size = auto: not half of memory but what boot 2 can restore, above the kernel's
	_cap=$(debug_line 1 "the next boot restores an image of" |
		sed -n 's/.* of \([0-9]*\) MiB at most.*/\1/p')
	expect_line 1 "^torpor: debug: image_size ${_cap:-none} MiB \(auto, not the kernel's [0-9]+ MiB\): the largest image the next boot can restore beside its initramfs$" \
		"image_size = auto caps the image at what the next boot can restore"
	expect_line 1 "^torpor: debug: image estimate: .*\(image_size ${_cap:-none} MiB\)" \
		"the estimate takes the capped size"
	_kernel=$(sed -n "s/.* (auto, not the kernel's \([0-9]*\) MiB).*/\1/p" "$T/boot1.console" |
		head -n 1)
	if [ -n "$_cap" ] && [ -n "$_kernel" ] && [ "$_cap" -gt "$_kernel" ] &&
		[ "$_cap" -lt $((BOOTMEM_MIB / 2)) ]; then
		echo "ok: auto chose $_cap MiB, above the kernel's $_kernel MiB, below half of memory"
	else
		fail "boot 1: auto chose '$_cap' MiB, the kernel's '$_kernel': not above it and below half of memory"
	fi
	resume_with 2 resume "$PAD_MIB"
	expect 2 poweroff
	expect_sig SWAPSPACE2 "after the resume"

	hibernate_with 3 tight 2
	expect_line 3 "^torpor: debug: image_size left as it is, [0-9]+ MiB \(auto\): the next boot cannot restore a larger image beside its initramfs$" \
		"auto keeps the kernel's value when the next boot restores less"
	resume_with 4 tight "$PAD_TIGHT_MIB"
	expect 4 hibernating
	expect_sig S2SUSPEND "after hibernating again"

	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/more.cpio
	# shellcheck disable=SC2086 # a list of parameters
	boot 5 torpor_test=boot torpor_swapon=1 $RESUME_ARGS
	note_boot 5
	note "boot 5: $(free_at 5) at the resume step, $PAD_MORE_MIB MiB of padding"
	note "boot 5: $(debug_line 5 "this boot uses")"
	expect 5 normal-boot swapon-ok poweroff
	expect_not 5 resumed
	expect_line 5 "^torpor: the image needs [0-9]+ MiB of free memory, this boot has [0-9]+ MiB: not restoring it$"
	expect_line 5 "^torpor: hint: an initramfs with fewer modules"
	expect_line 5 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line 5 "^torpor: restoring" "no page of the image reaches the kernel"
	expect_no_line 5 "invoked oom-killer" "no OOM kill"
	expect_sig SWAPSPACE2 "after the refusal"
	# shellcheck disable=SC2034 # back to $INITRD and $QEMU_MEM
	BOOT_INITRD="" BOOT_MEM=""
	note_torpor
}

test_main
