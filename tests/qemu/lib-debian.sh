# SPDX-License-Identifier: GPL-2.0-only
# A real Debian 12 (bookworm) system for the systemd scenarios (7x): a root tree
# built once with mmdebstrap from Debian's archive and cached, then per run a copy
# into which torpor is installed FROM ITS .deb with dpkg -i (so the package's
# initramfs-tools trigger rebuilds the guest's own initramfs), made into an ext4
# disk; the guest boots its own kernel and initramfs.  Sourced after lib.sh.
#
# Knobs: TORPOR_CACHE (default .cache/), TORPOR_DEB (the .deb to install, default
# the newest build/deb/torpor_*.deb; built with `make deb` when there is none).

DEBIAN_SUITE=bookworm
# what the guest needs beyond the essential packages: an init, udev, logind's
# D-Bus, the kernel and its initramfs generator; liblz4-1 is torpor's one library
DEBIAN_PACKAGES="systemd systemd-sysv udev dbus linux-image-amd64 initramfs-tools liblz4-1 zstd"
DEBIAN_MIRRORS="deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main"
# initramfs-tools builds a MODULES=list image with the guest's three disk and
# filesystem drivers: seconds instead of a minute for MODULES=most, each time
# (a local choice a user can make too; the generator and torpor's hook are the real ones)
DEBIAN_ITOOLS_CONF="MODULES=list"
DEBIAN_ITOOLS_MODULES="virtio_pci virtio_blk ext4"

# debian_cache_key: names the cached tree after what went into it, so a changed
# package list or mirror list builds a new one
debian_cache_key() {
	printf '%s\n' "$DEBIAN_SUITE" "$DEBIAN_PACKAGES" "$DEBIAN_MIRRORS" \
		"$DEBIAN_ITOOLS_CONF" "$DEBIAN_ITOOLS_MODULES" | sha256sum | cut -c1-12
}

# debian_tree: print the cached root tree's path, building it first when missing
# (mmdebstrap --variant=apt, no recommends; about 700 MiB).  Progress to stderr.
debian_tree() {
	_dc=${TORPOR_CACHE:-$TOP/.cache}/debian12-$(debian_cache_key)
	if [ -f "$_dc/done" ]; then
		echo "$_dc/root"
		return 0
	fi
	if ! command -v mmdebstrap >/dev/null 2>&1; then
		echo "lib-debian: mmdebstrap not found (install it with: sh tests/deps.sh systemd)" >&2
		return 1
	fi
	rm -rf "$_dc"
	mkdir -p "$_dc" || return 1
	_t0=$(now)
	echo "lib-debian: building the Debian 12 root in $_dc (once)" >&2
	# shellcheck disable=SC2086 # the package list is split on purpose
	_inc=$(echo $DEBIAN_PACKAGES | tr ' ' ',')
	# the mirror list is one argument a line
	_old_ifs=$IFS
	IFS='
'
	# shellcheck disable=SC2086 # split on newlines only
	set -- $DEBIAN_MIRRORS
	IFS=$_old_ifs
	# before any package: initramfs-tools' settings (conf.d and a hook, no conffile)
	cat >"$_dc/setup-hook.sh" <<-EOF
	set -e
	mkdir -p "\$1/etc/initramfs-tools/conf.d" "\$1/etc/initramfs-tools/hooks"
	echo '$DEBIAN_ITOOLS_CONF' >"\$1/etc/initramfs-tools/conf.d/torpor-test.conf"
	printf '%s\\n' '#!/bin/sh' '[ "\$1" = prereqs ] && exit 0' \\
		'. /usr/share/initramfs-tools/hook-functions' 'manual_add_modules $DEBIAN_ITOOLS_MODULES' \\
		>"\$1/etc/initramfs-tools/hooks/torpor-test-modules"
	chmod 0755 "\$1/etc/initramfs-tools/hooks/torpor-test-modules"
	EOF
	if ! mmdebstrap --variant=apt --include="$_inc" --aptopt='Acquire::Retries "3"' \
		--setup-hook="sh $_dc/setup-hook.sh \"\$1\"" "$DEBIAN_SUITE" "$_dc/root" "$@" >"$_dc/mmdebstrap.log" 2>&1; then
		tail -n 30 "$_dc/mmdebstrap.log" >&2
		echo "lib-debian: mmdebstrap failed, see $_dc/mmdebstrap.log" >&2
		return 1
	fi
	# apt's downloaded packages are of no use in the guest
	rm -rf "$_dc/root/var/cache/apt/archives/"*.deb "$_dc/root/var/lib/apt/lists/"*_Packages
	echo "lib-debian: built in $(since "$_t0") s" >&2
	: >"$_dc/done"
	echo "$_dc/root"
}

# debian_deb: print the torpor .deb to install: TORPOR_DEB, else build/deb's, built
# again with make deb when a source of the package is newer (or there is none)
debian_deb() {
	if [ -n "${TORPOR_DEB:-}" ]; then
		echo "$TORPOR_DEB"
		return 0
	fi
	set -- "$TOP"/build/deb/torpor_*.deb
	if [ ! -f "$1" ] || [ -n "$(cd "$TOP" && find Makefile core suspend resume hook dracut-module \
		systemd man debian -newer "$1" -type f | head -n 1)" ]; then
		make -C "$TOP" --no-print-directory deb >"$T/deb.log" 2>&1 || {
			tail -n 20 "$T/deb.log" >&2
			return 1
		}
		set -- "$TOP"/build/deb/torpor_*.deb
	fi
	[ -f "$1" ] || return 1
	echo "$1"
}

# in_chroot ROOT COMMAND...: run COMMAND in ROOT with /proc, /sys and /dev mounted,
# in a mount namespace of its own (nothing stays mounted on the host)
in_chroot() {
	_cr=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare -m sh -c 'r=$1; shift
		mount -t proc proc "$r/proc" && mount -t sysfs sys "$r/sys" &&
		mount --rbind /dev "$r/dev" && exec chroot "$r" "$@"' sh "$_cr" "$@"
}
