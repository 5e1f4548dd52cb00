#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 74-systemd-zram-bookworm: 73-systemd-zram-imagefile on Debian 12 (systemd 252,
# kernel 6.1, bookworm's dpkg and initramfs-tools): the one Debian 12 run of make
# test.  torpor's .deb installs there too (its systemd files under /usr/lib), the
# docs/image-file.md's recipe works, logind 252 says yes to CanHibernate once torpor
# is set up (and what it said before is noted), systemctl hibernate runs torpor,
# the restore brings the same system back, and the file is no swap afterwards.
# shellcheck disable=SC2034 # read by lib-debian.sh (and by run.sh: a line of its own)
DEBIAN_SUITE=bookworm
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-debian.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="Debian 12, zram only, the image-file recipe: logind 252's CanHibernate says yes, systemctl hibernate runs torpor"
# only the .deb is installed: build/'s binaries are not used
# shellcheck disable=SC2034 # read by lib.sh
TEST_NEEDS_TORPOR=0

test_setup() {
	sd_setup zram
}

test_run() {
	sd_zram_imagefile
}

test_main
