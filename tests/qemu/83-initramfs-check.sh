#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 83-initramfs-check: torpor-suspend reads the next boot's initramfs (the guest's
# /boot/initrd.img-KVER, found by the kernel's name) before it freezes anything, and
# refuses when it has no torpor-resume, one that reads another image format (a
# gzip early-cpio image and an xz one, decompressed by the guest's busybox), or no
# hook that runs it: exit 1 with the file and what it lacks, the workload intact,
# the swap area untouched (torpor without the check hibernated, and the next boot's
# initramfs would have lost the session).  --check says the same; with the test
# initramfs' own copy (torpor-resume and initramfs-tools' hook) --check passes and
# a hibernation restores.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="an initramfs without torpor-resume of this format, or without its hook, is refused before freezing"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

# variant NAME COMPRESS [marker FORMATS | resume] [hook]: $T/NAME.cpio, the test
# initramfs with $T/NAME.img (a small image: torpor-resume with a marker of
# FORMATS, or build/'s, and initramfs-tools' boot script) as its /boot copy
variant() {
	_n=$1 _z=$2
	shift 2
	_v=$T/$_n.tree
	rm -rf "$_v"
	mkdir -p "$_v$LIBEXECDIR" "$_v/conf" "$_v/scripts/local-top" || return 1
	echo "MODULES=list" >"$_v/conf/initramfs.conf"
	while [ $# -gt 0 ]; do
		case $1 in
		marker)
			{ head -c 5000 /dev/urandom && printf 'torpor-resume image-format=%s\0' "$2" &&
				head -c 5000 /dev/urandom; } >"$_v$LIBEXECDIR/torpor-resume" || return 1
			chmod 755 "$_v$LIBEXECDIR/torpor-resume"
			shift
			;;
		resume) install -m 0755 "$BUILD/torpor-resume" "$_v$LIBEXECDIR/torpor-resume" || return 1 ;;
		hook)
			sed "s|@LIBEXECDIR@|$LIBEXECDIR|g" "$TOP/hook/scripts/local-top/torpor" \
				>"$_v/scripts/local-top/torpor" && chmod 755 "$_v/scripts/local-top/torpor" ||
				return 1
			;;
		esac
		shift
	done
	(cd "$_v" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | $_z >"$T/$_n.img" &&
		{ cat "$INITRD" && boot_copy "" "$T/$_n.img"; } >"$T/$_n.cpio"
}

test_setup() {
	LIBEXECDIR=$(build_libexecdir)
	swap_create &&
		variant nobin "gzip -n -c" hook &&
		variant format1 "xz -c --check=crc32" marker 1 hook &&
		variant nohook cat resume
}

# refused N VARIANT PATTERN [OPTS]: boot N with VARIANT's initramfs, torpor-suspend
# (with OPTS) exits 1 naming the file and what it lacks, nothing was written
refused() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_INITRD=$T/$2.cpio
	boot "$1" torpor_test=refused torpor_mib=32 ${4:+torpor_opts=$4}
	note_boot "$1"
	expect_refused "$1"
	expect_line "$1" "^torpor: initramfs '/boot/initrd.img-$(ere_quote "$KVER")' cannot resume this hibernation: $3"
	expect_line "$1" "^torpor: hint: rebuild it with 'update-initramfs -u -k $(ere_quote "$KVER")'"
	expect_no_line "$1" "freezing processes"
	expect_sig SWAPSPACE2 "after the refusal"
}

test_run() {
	LIBEXECDIR=$(build_libexecdir)
	q=$(ere_quote "$LIBEXECDIR")
	refused 1 nobin "it has no $q/torpor-resume"
	refused 2 format1 "its torpor-resume reads image format 1, not 2 \\(this torpor-suspend's\\)"
	refused 3 nohook "it has torpor-resume but no hook that runs it"
	refused 4 nobin "it has no $q/torpor-resume" --check

	# shellcheck disable=SC2034 # the test initramfs and its own copy
	BOOT_INITRD=''
	boot 5 torpor_test=refused torpor_mib=32 torpor_opts=--check
	expect 5 "suspend-exit 0"
	expect_line 5 "^torpor: initramfs '/boot/initrd.img-$(ere_quote "$KVER")' has torpor-resume for image format 2 and the initramfs-tools hook"
	hibernate_first 6
	boot 7 torpor_test=boot
	note_boot 7
	expect_checks 7
	expect_sig SWAPSPACE2 "after the restore"
}

test_main
