#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Fetch the Debian kernels the QEMU tests boot, and print one extracted tree per line.
#
# Usage: tests/qemu/kernels.sh [--default | PACKAGE...]
#   --default: only the first package (of TORPOR_TEST_KERNEL, else of the defaults
#   below): the one demo.sh boots
#
# Default packages, unless given as arguments or in TORPOR_TEST_KERNEL (space separated):
#   1. the linux-image-6.1.0-NN-amd64 that Debian's linux-image-amd64 depends on;
#   2. the newest linux-image-6.12.*+deb12-amd64-unsigned in the archive (sort -V).
# Each package is downloaded with apt-get download (a .deb already in the cache's debs/
# or in /var/cache/apt/archives is reused), unpacked with dpkg-deb -x (never installed)
# into $TORPOR_CACHE/kernels/<package>/, and depmod -b runs on that copy so modules.dep
# exists.  TORPOR_CACHE defaults to .cache/ at the top of the work tree.
# Progress goes to stderr; stdout gets the extracted tree of each kernel, one a line.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${TORPOR_CACHE:-$top/.cache}
debs=$cache/debs
trees=$cache/kernels

say() { echo "kernels: $*" >&2; }
die() { echo "kernels: $*" >&2; exit 1; }

updated=
apt_update() {
	[ -z "$updated" ] || return 0
	updated=1
	say "updating apt's package lists"
	apt-get update -q >/dev/null || die "apt-get update failed"
}

# the package linux-image-amd64 depends on, e.g. linux-image-6.1.0-57-amd64
default_kernel() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }'
}

# the newest linux-image-6.12.N+deb12-amd64-unsigned
newest_612() {
	apt-cache pkgnames linux-image-6.12. 2>/dev/null |
		grep -E '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' | sort -V | tail -n 1
}

resolve() {
	_what=$1
	_pkg=$($_what)
	if [ -z "$_pkg" ]; then
		apt_update
		_pkg=$($_what)
	fi
	[ -n "$_pkg" ] || die "cannot find a package for '$_what' in apt's lists"
	echo "$_pkg"
}

find_deb() {
	for _d in "$debs" /var/cache/apt/archives; do
		for _f in "$_d/$1"_*.deb; do
			[ -f "$_f" ] && { echo "$_f"; return 0; }
		done
	done
	return 1
}

fetch_deb() {
	_pkg=$1
	find_deb "$_pkg" && return 0
	apt-cache show "$_pkg" >/dev/null 2>&1 || apt_update
	mkdir -p "$debs"
	say "downloading $_pkg"
	(cd "$debs" && apt-get download -q "$_pkg" >&2) || die "cannot download '$_pkg'"
	_f=$(find_deb "$_pkg") || die "apt-get download left no .deb for '$_pkg'"
	say "downloaded $(basename "$_f") ($(du -h "$_f" | cut -f1))"
	echo "$_f"
}

extract() {
	_pkg=$1
	_dst=$trees/$_pkg
	if [ -f "$_dst/.torpor-ready" ]; then
		echo "$_dst"
		return 0
	fi
	_deb=$(fetch_deb "$_pkg")
	say "extracting $(basename "$_deb") into $_dst"
	rm -rf "$_dst" "$_dst.tmp"
	mkdir -p "$_dst.tmp"
	dpkg-deb -x "$_deb" "$_dst.tmp"
	set -- "$_dst.tmp"/lib/modules/*
	if [ $# -ne 1 ] || [ ! -d "$1" ]; then
		die "'$_deb' holds no single lib/modules/<version>"
	fi
	_kver=$(basename "$1")
	[ -f "$_dst.tmp/boot/vmlinuz-$_kver" ] || die "'$_deb' holds no boot/vmlinuz-$_kver"
	depmod -b "$_dst.tmp" "$_kver"
	touch "$_dst.tmp/.torpor-ready"
	mv "$_dst.tmp" "$_dst"
	echo "$_dst"
}

if [ "${1:-}" = --default ]; then
	# shellcheck disable=SC2086 # a space-separated list by design
	set -- ${TORPOR_TEST_KERNEL:-}
	[ $# -gt 0 ] || set -- "$(resolve default_kernel)"
	set -- "$1"
fi
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2086 # a space-separated list by design
	set -- ${TORPOR_TEST_KERNEL:-}
fi
if [ $# -eq 0 ]; then
	set -- "$(resolve default_kernel)" "$(resolve newest_612)"
fi
for pkg in "$@"; do
	extract "$pkg"
done
