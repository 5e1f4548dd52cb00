#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 25-dracut-systemd: dracut with systemd: token, counter and data survive, restored before sysroot.mount.
# The image is built by the generator from torpor's installed hook (lib-rootfs.sh).
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="dracut with systemd: token, counter and data survive, restored before sysroot.mount"

hook_scenario dracut-systemd hook_roundtrip /dev/vdb1
