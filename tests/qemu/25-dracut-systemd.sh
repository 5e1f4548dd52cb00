#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 25-dracut-systemd: dracut with systemd: torpor-restore.service restores before sysroot.mount.
# The image is built by the generator from torpor's installed module (lib-rootfs.sh);
# in systemd mode it holds the unit, wanted by initrd.target, and none of the shell
# hooks.  Boot 1 (no image yet) must finish the unit before sysroot.mount starts;
# boot 2 must restore from it, with no sysroot.mount before the restore; then the
# token, counter and data survive and the root's superblock is untouched.  Boot 3
# names a resume device that never appears, torpor.wait=3: the unit says so and
# ends within a bound, and the boot goes on.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="dracut with systemd: torpor-restore.service restores before sysroot.mount"

test_setup() {
	hook_use dracut-systemd
}

# image_has PATTERN: a path in the image matches the ERE
image_has() {
	lsinitrd "$HOOK_INITRD" 2>/dev/null | grep -Eq "$1"
}

test_run() {
	if image_has ' (usr/)?lib/systemd/system/torpor-restore\.service$' &&
		image_has 'initrd\.target\.wants/torpor-restore\.service -> '; then
		echo "ok: the image holds torpor-restore.service, wanted by initrd.target"
	else
		fail "the image lacks torpor-restore.service or its initrd.target.wants link"
	fi
	if image_has 'torpor-pre-mount\.sh|torpor-cmdline\.sh'; then
		fail "the systemd image holds the shell hooks too"
	else
		echo "ok: the image holds no shell hook of torpor"
	fi
	hook_roundtrip 1 /dev/vdb1
	expect_unit_order 1 boot
	expect_unit_order 2 restore
	unit_nodevice 3 3 60
}

test_main
