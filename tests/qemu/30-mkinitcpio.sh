#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 30-mkinitcpio: mkinitcpio's hook pair.  Always: the installed files parse (bash -n,
# sh -n), help() documents every parameter, and no placeholder is left.  When
# MKINITCPIO_SRC points at a checkout of archlinux/mkinitcpio: a round trip and a
# no-image boot through an image that checkout builds from the installed hook
# (lib-rootfs.sh copies it and fills in its build-time paths; nothing is vendored).
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-rootfs.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="mkinitcpio: hook syntax and help; round trip when MKINITCPIO_SRC is set"

test_setup() {
	hook_stage "$T/stage" || return 1
	[ -z "${MKINITCPIO_SRC:-}" ] || hook_use mkinitcpio
}

# static_checks: what can be checked without mkinitcpio itself
static_checks() {
	_i=$T/stage/usr/lib/initcpio
	if bash -n "$_i/install/torpor"; then
		echo "ok: install/torpor parses"
	else
		fail "install/torpor: bash -n failed"
	fi
	if sh -n "$_i/hooks/torpor"; then
		echo "ok: hooks/torpor parses"
	else
		fail "hooks/torpor: sh -n failed"
	fi
	if grep -n '@[A-Z_]*@' "$_i/install/torpor" "$_i/hooks/torpor"; then
		fail "a template placeholder is left in the installed files"
	fi
	_help=$(bash -c '. "$1"; help' sh "$_i/install/torpor")
	for _w in resume= resume_offset= noresume torpor.wait= torpor.force torpor.debug \
		HOOKS block encrypt lvm2 filesystems; do
		case $_help in
		*"$_w"*) echo "ok: help() mentions '$_w'" ;;
		*) fail "help() does not mention '$_w'" ;;
		esac
	done
}

test_run() {
	static_checks
	if [ -z "${MKINITCPIO_SRC:-}" ]; then
		describe "mkinitcpio: hook syntax and help only; round trip NOT run (MKINITCPIO_SRC unset)"
		note "round trip skipped: set MKINITCPIO_SRC=/path/to/mkinitcpio checkout"
		return
	fi
	hook_roundtrip 1 /dev/vdb1
	hook_noimage 3 /dev/vdb1
}

test_main
