#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 26-dracut-nodevice: dracut (shell): a resume device that never appears costs the boot
# torpor.wait at most, not the initqueue's timeout (two thirds of rd.retry=, default 180).
# Boot 1 has the swap area as resume device, boot 2 a UUID no disk carries, both with
# torpor.wait=3, torpor.debug and dracut's default rd.retry; in boot 2 the pre-mount
# hook must be done within 60 s (kernel time) of the swap disk's appearance.  Waiting
# for the initqueue's timeout takes 241 rounds of at least 0.5 s each (120 s) in that
# stretch, so only a bounded wait passes; the bound is twenty times torpor.wait so
# that a slow, loaded host does not make it fail.
# The image is built by the generator from torpor's installed hook (lib-rootfs.sh).
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="dracut (shell): a missing resume device costs torpor.wait, not rd.retry"

test_setup() {
	hook_use dracut-shell || return 1
	# dracut's default rd.retry (180), not the short one of the other scenarios
	# shellcheck disable=SC2034 # read by hboot
	HOOK_CMDLINE="rd.shell=0 rd.emergency=poweroff"
}

test_run() {
	hook_nodevice 1 3 60
}

test_main
