#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 73-systemd-zram-imagefile: a Debian 13 system whose only swap is zram
# (systemd-zram-generator's default zram0), torpor from its .deb, set up by the
# recipe in docs/image-file.md, and hibernated by systemctl hibernate.  Boot 1: logind's
# CanHibernate is recorded (nothing is set up yet), torpor-suspend
# --setup-image-file makes /var/lib/torpor/image and prints the resume= line,
# /etc/torpor.conf names the file, update-initramfs -u -k all; the host puts the
# printed line on the next boots' command line and boots the rebuilt initramfs (a
# boot loader's job).  Boot 2: CanHibernate says yes (torpor-logind-generator's
# drop-in for logind), torpor-suspend --check passes, a workload starts,
# systemctl hibernate runs torpor and powers off with torpor's signature at the
# file's first page.  Boot 3: the initramfs restores it: the same boot id, the
# workload's token, memory and PID, the unit succeeded, the hooks ran once each,
# zram is active and nothing else is swap (the file is not), CanHibernate still yes.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-debian.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="zram only, the image-file recipe: logind's CanHibernate says yes, systemctl hibernate runs torpor, the file is no swap after"
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
