#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 19-itools-imagefile-ext4: 18-itools-imagefile on an ext4 root (384 MiB): zram is
# the only swap, docs/image-file.md's setup (--setup-image-file, image_file in torpor.conf),
# hibernate into the file, restore through the initramfs-tools hook before ext4
# mounts the root; then a power cut while the file is active swap, and a normal boot
# after it with the file inactive and a wrong resume_offset= refused.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="initramfs-tools, ext4 root, zram only: hibernate into the image file; a power cut while it is active"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	hook_use itools-zram
}

test_run() {
	hook_imagefile
}

test_main
