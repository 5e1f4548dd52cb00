#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 31-mkinitcpio-systemd: mkinitcpio's systemd hook with sd-torpor.  Always: the
# installed sd-torpor parses, its help() documents every parameter and where it
# goes in HOOKS, no placeholder is left, and its build() (mkinitcpio's helpers
# stubbed) adds torpor-resume, torpor-restore.service and the initrd.target.wants
# link.  When MKINITCPIO_SRC points at a checkout of archlinux/mkinitcpio: an image
# that checkout builds with HOOKS=(base systemd autodetect modconf kms keyboard
# sd-vconsole block sd-torpor filesystems fsck) from this host's systemd
# (lib-rootfs.sh's mkinitcpio_debian says what differs from Arch): a round trip
# through torpor-restore.service, restored before any sysroot.mount, then a normal
# boot with no image in which the unit finishes before sysroot.mount starts.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="mkinitcpio systemd hook: sd-torpor's checks; its round trip and normal boot when MKINITCPIO_SRC is set"

test_setup() {
	hook_stage "$T/stage" || return 1
	[ -z "${MKINITCPIO_SRC:-}" ] || hook_use mkinitcpio-systemd
}

# static_checks: what can be checked without mkinitcpio itself
static_checks() {
	_i=$T/stage/usr/lib/initcpio/install/sd-torpor
	if bash -n "$_i"; then
		echo "ok: install/sd-torpor parses"
	else
		fail "install/sd-torpor: bash -n failed"
	fi
	if grep -n '@[A-Z_]*@' "$_i"; then
		fail "a template placeholder is left in install/sd-torpor"
	fi
	_help=$(bash -c '. "$1"; help' sh "$_i")
	for _w in resume= resume_offset= noresume torpor.wait= torpor.force torpor.debug \
		HOOKS systemd sd-encrypt lvm2 filesystems torpor-restore.service; do
		case $_help in
		*"$_w"*) echo "ok: help() mentions '$_w'" ;;
		*) fail "help() does not mention '$_w'" ;;
		esac
	done
	# build() with mkinitcpio's helpers as stubs that print what they are given
	# shellcheck disable=SC2016 # expanded by bash
	_got=$(TORPOR_RESUME_BIN=/bin/true TORPOR_UNIT_DIR=/units bash -c '
		add_binary() { echo "binary $*"; }; add_file() { echo "file $*"; }
		add_symlink() { echo "symlink $*"; }; map() { local f=$1; shift; for a; do "$f" "$a"; done; }
		warning() { echo "warning $*"; }
		. "$1" && build' sh "$_i" 2>&1)
	_lib=$HOOK_LIBEXECDIR
	_u=/usr/lib/systemd/system
	for _want in "binary /bin/true $_lib/torpor-resume" \
		"file /units/torpor-restore.service $_u/torpor-restore.service 0644" \
		"symlink $_u/initrd.target.wants/torpor-restore.service $_u/torpor-restore.service"; do
		if printf '%s\n' "$_got" | grep -qxF "$_want"; then
			echo "ok: build() calls '$_want'"
		else
			fail "build() does not call '$_want'; it calls: $(printf '%s' "$_got" | tr '\n' ';')"
		fi
	done
	_d=systemd-hibernate-resume@.service.d/torpor-restore.conf
	if [ -e "$_u/systemd-hibernate-resume@.service" ]; then
		_want="file /units/$_d $_u/$_d 0644"
		if printf '%s\n' "$_got" | grep -qxF "$_want"; then
			echo "ok: build() orders this systemd's systemd-hibernate-resume@.service after the unit"
		else
			fail "build() does not call '$_want' (this host has systemd-hibernate-resume@.service)"
		fi
	fi
}

test_run() {
	static_checks
	if [ -z "${MKINITCPIO_SRC:-}" ]; then
		describe "mkinitcpio systemd hook: sd-torpor's static checks only; round trip NOT run (MKINITCPIO_SRC unset)"
		note "round trip and normal boot NOT run: set MKINITCPIO_SRC=/path/to/mkinitcpio checkout"
		return
	fi
	hook_roundtrip 1 /dev/vdb1
	expect_unit_order 2 restore
	hook_noimage 3 /dev/vdb1
	expect_unit_order 3 boot
}

test_main
