#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 45-otherkernel: boot 1 hibernates under this kernel; boot 2 starts the other test
# kernel (the first of kernels.sh's defaults that is not this one: 6.12 <-> 6.1,
# 7.2 -> 6.12) on the same swap disk.  The x86 kernel would not compare
# releases itself, so torpor-resume must: refuse with a message naming both releases,
# discard the image, boot normally; swap works afterwards.  (torpor.force would skip
# this check on purpose; it is not exercised here.)
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="image of another kernel: refused naming both releases, discarded, normal boot"

test_setup() {
	swap_create || return 1
	other=$(kernel_other)
	if [ -z "$other" ]; then
		echo "45-otherkernel: no second test kernel (kernels.sh lists only $KVER)" >&2
		return 1
	fi
	# the other kernel's initramfs, built the usual way in a subshell of its own
	(
		kernel_use "$other"
		build_initramfs "$T/other.cpio"
		echo "$VMLINUZ" >"$T/other.vmlinuz"
		echo "$KVER" >"$T/other.kver"
	)
}

test_run() {
	okver=$(cat "$T/other.kver")
	qthis=$(ere_quote "$KVER")
	qother=$(ere_quote "$okver")
	echo "## hibernate under $KVER, resume under $okver"
	hibernate_first 1

	# shellcheck disable=SC2034 # read by boot
	BOOT_KERNEL=$(cat "$T/other.vmlinuz")
	# shellcheck disable=SC2034
	BOOT_INITRD=$T/other.cpio
	boot_normal 2 torpor_swapon=1
	# shellcheck disable=SC2034 # back to this kernel's
	BOOT_KERNEL=''
	# shellcheck disable=SC2034
	BOOT_INITRD=''
	expect_line 2 "^# kernel $qother," "the other kernel booted"
	expect_line 2 "^torpor: image was written by kernel $qthis \\(.*\\), this is kernel $qother \\(.*\\): not restoring it$"
	expect_line 2 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line 2 "^torpor: restoring" "no page of the image reaches the kernel"
	expect_sig SWAPSPACE2 "after the boot of the other kernel"
	note "$(sed -n 's/^[^ ]* \(torpor: image was written .*\)/\1/p' "$T/boot2.console" | head -n 1)"
}

test_main
