#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 18-itools-imagefile: zram is the only swap of a btrfs root, the way docs/image-file.md
# sets it up: torpor-suspend --setup-image-file makes
# /var/lib/torpor/image (NOCOW) and prints the resume= line, /etc/torpor.conf names
# the file (image_file), and plain torpor-suspend hibernates into it.  Boot 1 has
# resume=UUID=<the btrfs fsid> and no resume_offset, and only makes the file (torpor
# refuses to hibernate into it until /proc/cmdline names it); boot 2 gets the printed
# resume_offset= and hibernates; boot 3 restores through the initramfs-tools hook
# before btrfs mounts the root: the workload is intact, the file is no swap area, zram
# still is.  Boot 4 hibernates again and the power goes while torpor-suspend writes
# (the file active as swap, TORPOR_TEST_STALL); boot 5 boots normally, the file is not
# active and torpor-suspend --check is content; a hibernation whose resume_offset=
# does not name the file is refused before the file is activated.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="initramfs-tools, btrfs root, zram only: hibernate into the image file; a power cut while it is active"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	hook_use itools-zram-btrfs
}

test_run() {
	hook_imagefile
}

test_main
