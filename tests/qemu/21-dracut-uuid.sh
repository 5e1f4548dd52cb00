#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 21-dracut-uuid: dracut (shell): resume=UUID= restores before root is mounted.
# The image is built by the generator from torpor's installed hook (lib-rootfs.sh).
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="dracut (shell): resume=UUID= restores before root is mounted"

hook_scenario dracut-shell hook_roundtrip "UUID=$SWAP_UUID"
