#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what building and testing torpor needs from Debian's archive, when it
# is missing.  Usage: tests/deps.sh build|check|fuzz|qemu|hooks|deb|bench|all
#   build: torpor itself;  check: make check (no clang: the fuzzers' packages are
#   in fuzz, for make fuzz; systemd-analyze and dracut for the initramfs unit's
#   and host-only module's tests);  qemu: make demo, make bench;  hooks: make check-qemu
#   (the generators, and what systemd needs, too);  deb: make deb (debhelper, lintian);  bench: make
#   bench-host (the lz4 tool);  systemd: the 7x scenarios (mmdebstrap builds their
#   Debian 13 and 12 roots, and the .deb they install);  all: make test.
# Each need is a "probe package" pair: the probe is a file that exists once the
# package is installed.  Does nothing when everything is there; otherwise prints
# what it installs, which needs root (apt-get): as a normal user it fails with a hint.
set -eu

need_build="
/usr/bin/gcc gcc
/usr/bin/make make
/usr/bin/klcc libklibc-dev
/usr/include/lz4.h liblz4-dev
/usr/include/xxhash.h libxxhash-dev
/usr/bin/file file
"
need_check="
/usr/bin/shellcheck shellcheck
/sbin/mkswap util-linux
/usr/bin/valgrind valgrind
/sbin/mdadm mdadm
/sbin/mke2fs e2fsprogs
/sbin/mkfs.btrfs btrfs-progs
/sbin/mkfs.xfs xfsprogs
/usr/bin/groff groff-base
/usr/bin/cpio cpio
/usr/bin/zstd zstd
/usr/bin/xz xz-utils
/usr/bin/bzip2 bzip2
/usr/bin/lz4 lz4
/usr/bin/lzop lzop
/usr/bin/systemd-analyze systemd
/usr/bin/dracut dracut-core
/usr/bin/lsinitrd dracut-core
/usr/bin/unshare util-linux
"
need_fuzz="
/usr/bin/clang clang
/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev
"
need_qemu="
/usr/bin/qemu-system-x86_64 qemu-system-x86
/bin/busybox busybox-static
/sbin/mke2fs e2fsprogs
/sbin/mkfs.btrfs btrfs-progs
/sbin/mkfs.xfs xfsprogs
/usr/bin/cpio cpio
/usr/bin/zstd zstd
/sbin/depmod kmod
/usr/bin/dpkg-deb dpkg
/usr/bin/timeout coreutils
/usr/bin/socat socat
/usr/share/OVMF/OVMF_CODE_4M.fd ovmf
"
need_bench="
/usr/bin/lz4 lz4
/sbin/mkswap util-linux
"
need_hooks="
/usr/bin/dracut dracut-core
/usr/sbin/mkinitramfs initramfs-tools-core
/usr/bin/bsdtar libarchive-tools
/usr/sbin/sfdisk fdisk
/usr/lib/systemd/systemd systemd
/usr/lib/systemd/systemd-udevd udev
"
need_systemd="
/usr/bin/mmdebstrap mmdebstrap
/usr/sbin/mke2fs e2fsprogs
/usr/sbin/debugfs e2fsprogs
/usr/bin/unshare util-linux
/usr/bin/lsinitramfs initramfs-tools-core
"
need_deb="
/usr/bin/dpkg-buildpackage dpkg-dev
/usr/bin/dh debhelper
/usr/bin/lintian lintian
/usr/bin/fakeroot fakeroot
"

list=
case "${1:-all}" in
build) list=$need_build ;;
check) list="$need_build $need_check" ;;
fuzz) list="$need_build $need_fuzz" ;;
qemu) list="$need_build $need_qemu" ;;
hooks) list="$need_build $need_qemu $need_hooks $need_systemd $need_deb" ;;
deb) list="$need_build $need_deb" ;;
bench) list="$need_build $need_bench" ;;
systemd) list="$need_build $need_qemu $need_systemd $need_deb" ;;
all) list="$need_build $need_check $need_fuzz $need_qemu $need_hooks $need_systemd $need_deb" ;;
*) echo "usage: $0 build|check|fuzz|qemu|hooks|deb|bench|systemd|all" >&2; exit 2 ;;
esac

missing=
# shellcheck disable=SC2086 # the list is split into probe/package pairs on purpose
set -- $list
while [ $# -ge 2 ]; do
	[ -e "$1" ] || missing="$missing $2"
	shift 2
done
[ -n "$missing" ] || exit 0

echo "torpor: installing from Debian's archive:$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "torpor: cannot install packages as a normal user" >&2
	echo "torpor: hint: run 'sudo apt-get install$missing' and try again" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # one word per package
if ! apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1; then
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
fi
