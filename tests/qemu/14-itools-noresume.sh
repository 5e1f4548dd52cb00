#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 14-itools-noresume: initramfs-tools: noresume boots normally and invalidates the image.
# The image is built by the generator from torpor's installed hook (lib-rootfs.sh).
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="initramfs-tools: noresume boots normally and invalidates the image"

hook_scenario itools hook_noresume /dev/vdb1
