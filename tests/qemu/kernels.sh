#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Fetch the Debian kernels the QEMU tests boot, and print one extracted tree per line.
#
# Usage: tests/qemu/kernels.sh [--default | KERNEL...]
#   --default: only the first kernel (of TORPOR_TEST_KERNEL, else of the defaults
#   below): the one demo.sh boots
#
# A KERNEL (arguments, or TORPOR_TEST_KERNEL, space separated) is one of
#   SUITE            the linux-image-* that SUITE's linux-image-amd64 depends on
#                    (bookworm, trixie, forky, ...);
#   SUITE/PACKAGE    that package, from SUITE;
#   PACKAGE          that package, from this machine's own apt sources.
# Default: trixie bookworm forky, in that order: Debian 13's kernel (6.12, the
# primary one: run.sh runs every scenario on it), Debian 12's (6.1) and the newest
# kernel Debian ships, testing's (7.2 in December 2026; its packages are split).
# tests/qemu/README says which scenarios run on all three and why.
# Packages of another suite than this machine's come through apt lists of their own,
# under $TORPOR_CACHE/apt/SUITE/, from SUITE, SUITE-updates and SUITE-security (the
# machine's apt configuration is not touched).
# Each package is downloaded with apt-get download (a .deb already in the cache's debs/
# or in /var/cache/apt/archives is reused), unpacked with dpkg-deb -x (never installed)
# into $TORPOR_CACHE/kernels/<package>/, and depmod -b runs on that copy so modules.dep
# exists.  Split kernel packages (forky: linux-image-* depends on linux-binary-*,
# linux-modules-* and linux-base-*, all under usr/lib/modules/<version>/) are
# unpacked together and laid out as the others: lib/modules/<version>/,
# boot/vmlinuz-<version>, boot/config-<version>.  TORPOR_CACHE defaults to .cache/
# at the top of the work tree.
# Progress goes to stderr; stdout gets the extracted tree of each kernel, one a line.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${TORPOR_CACHE:-$top/.cache}
debs=$cache/debs
trees=$cache/kernels

say() { echo "kernels: $*" >&2; }
die() { echo "kernels: $*" >&2; exit 1; }

# apt-get or apt-cache ($1) for suite $suite ("" is this machine's own sources)
suite=
apt_for() {
	_tool=$1
	shift
	if [ -z "$suite" ]; then
		"$_tool" "$@"
		return
	fi
	_a=$cache/apt/$suite
	"$_tool" -o Dir::Etc::SourceList="$_a/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$_a/lists" -o Dir::Cache="$_a/cache" \
		-o Dir::State::status=/dev/null -o APT::Sandbox::User=root "$@"
}

updated=
apt_update() {
	case " $updated " in *" $suite "*) return 0 ;; esac
	updated="$updated $suite"
	if [ -n "$suite" ]; then
		_a=$cache/apt/$suite
		mkdir -p "$_a/lists/partial" "$_a/cache/archives/partial"
		sources_list >"$_a/sources.list"
	fi
	say "updating apt's package lists${suite:+ for $suite}"
	apt_for apt-get update -q >/dev/null || die "apt-get update${suite:+ for $suite} failed"
}

# the sources of $suite: the suite, its updates and its security updates (a
# stable release's newest kernel is often in the last)
sources_list() {
	_k="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
	echo "deb $_k http://deb.debian.org/debian $suite main"
	echo "deb $_k http://deb.debian.org/debian $suite-updates main"
	echo "deb $_k http://deb.debian.org/debian-security $suite-security main"
}

# the lists of $suite are there (a suite of our own is read before its first use,
# and again when its sources changed)
apt_ready() {
	[ -z "$suite" ] || [ "$(cat "$cache/apt/$suite/sources.list" 2>/dev/null)" = "$(sources_list)" ] ||
		apt_update
}

# the package linux-image-amd64 depends on, e.g. linux-image-6.1.0-57-amd64
default_kernel() {
	apt_for apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }'
}

resolve() {
	_what=$1
	apt_ready
	_pkg=$($_what)
	if [ -z "$_pkg" ]; then
		apt_update
		_pkg=$($_what)
	fi
	[ -n "$_pkg" ] || die "cannot find a package for '$_what' in apt's lists${suite:+ for $suite}"
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
	apt_ready
	apt_for apt-cache show "$_pkg" >/dev/null 2>&1 || apt_update
	mkdir -p "$debs"
	say "downloading $_pkg${suite:+ from $suite}"
	(cd "$debs" && apt_for apt-get download -q "$_pkg" >&2) || die "cannot download '$_pkg'"
	_f=$(find_deb "$_pkg") || die "apt-get download left no .deb for '$_pkg'"
	say "downloaded $(basename "$_f") ($(du -h "$_f" | cut -f1))"
	echo "$_f"
}

# the parts a split linux-image-* depends on (linux-binary-*, linux-modules-*,
# linux-base-*), each by the name of a package the archive has; none for a whole one
split_parts() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' |
		grep -E '^linux-(binary|modules|base)-[0-9]' | while read -r _p; do
		if apt_for apt-cache show "$_p" >/dev/null 2>&1; then
			echo "$_p"
		else
			# the signed binary package is not in every archive: the unsigned one
			echo "$_p" | sed 's/^linux-binary-/linux-binary-unsigned-/'
		fi
	done
}

# lay_out TREE DEB: lib/modules/<version>, boot/vmlinuz-<version> and
# boot/config-<version>, wherever the packages put them
lay_out() {
	if [ ! -d "$1/lib/modules" ] && [ -d "$1/usr/lib/modules" ]; then
		mv "$1/usr/lib/modules" "$1/lib-modules.tmp"
		mkdir -p "$1/lib"
		mv "$1/lib-modules.tmp" "$1/lib/modules"
	fi
	set -- "$1" "$2" "$1"/lib/modules/*
	if [ $# -ne 3 ] || [ ! -d "$3" ]; then
		die "'$2' holds no single lib/modules/<version>"
	fi
	_v=$(basename "$3")
	mkdir -p "$1/boot"
	for _f in vmlinuz vmlinuz.unsigned; do
		[ -f "$1/boot/vmlinuz-$_v" ] || [ ! -f "$3/$_f" ] || mv "$3/$_f" "$1/boot/vmlinuz-$_v"
	done
	[ -f "$1/boot/config-$_v" ] || [ ! -f "$3/config" ] || mv "$3/config" "$1/boot/config-$_v"
	[ -f "$1/boot/vmlinuz-$_v" ] || die "'$2' and its parts hold no vmlinuz for $_v"
	[ -f "$1/boot/config-$_v" ] || die "'$2' and its parts hold no config for $_v"
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
	for _part in $(split_parts "$_deb"); do
		dpkg-deb -x "$(fetch_deb "$_part")" "$_dst.tmp"
	done
	lay_out "$_dst.tmp" "$_deb"
	set -- "$_dst.tmp"/lib/modules/*
	_kver=$(basename "$1")
	depmod -b "$_dst.tmp" "$_kver"
	touch "$_dst.tmp/.torpor-ready"
	mv "$_dst.tmp" "$_dst"
	echo "$_dst"
}

# fetch KERNEL: set $suite and print the extracted tree of one KERNEL (see above)
fetch() {
	case $1 in
	*/*) suite=${1%%/*} _pkg=${1#*/} ;;
	linux-*) suite='' _pkg=$1 ;;
	*) suite=$1 _pkg=$(resolve default_kernel) ;;
	esac
	extract "$_pkg"
}

default_kernels="trixie bookworm forky"
if [ "${1:-}" = --default ]; then
	# shellcheck disable=SC2086 # a space-separated list by design
	set -- ${TORPOR_TEST_KERNEL:-}
	# shellcheck disable=SC2086 # a space-separated list by design
	[ $# -gt 0 ] || set -- $default_kernels
	set -- "$1"
fi
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2086 # a space-separated list by design
	set -- ${TORPOR_TEST_KERNEL:-}
fi
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2086 # a space-separated list by design
	set -- $default_kernels
fi
for k in "$@"; do
	fetch "$k"
done
