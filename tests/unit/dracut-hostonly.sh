#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dracut --hostonly on a system whose only swap is zram includes torpor's module
# when torpor.conf sets image_file (module-setup.sh's check()), and leaves it out
# when it does not (the same run's control: the host has no other reason to add
# it).  A real dracut run, then lsinitrd; in a mount namespace of its own, this
# host is made zram-only: /proc/swaps lists /dev/zram0 alone, /proc/cmdline and
# /etc/kernel/cmdline name no resume=, /etc/fstab no swap.  dracut reads the
# module from a staged install (SYSCONFDIR in a temporary directory) through a
# shadow dracutbasedir; --no-kernel keeps it to about 6 s a run.  As an ordinary
# user the namespace comes with a user namespace (unshare -U -r).  A missing
# dracut or unshare is a failure, not a skip (tests/deps.sh check installs them).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/unit/tap.sh"
n=0
failed=0
for tool in dracut lsinitrd unshare; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		not_ok "dracut-hostonly: $tool not found (sh tests/deps.sh check installs dracut-core, util-linux)"
		exit 1
	fi
done
bin=${TORPOR_RESUME:-$top/build/torpor-resume}
if [ ! -x "$bin" ]; then
	not_ok "dracut-hostonly: '$bin' is missing (run make)"
	exit 1
fi
user=
[ "$(id -u)" -eq 0 ] || user="-U -r"
t=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
lib=/usr/local/lib/torpor

if ! make -C "$top" --no-print-directory -s B="$t/build" PREFIX=/usr/local SYSCONFDIR="$t" \
	DESTDIR="$t/stage" install-dracut >"$t/log" 2>&1; then
	not_ok "dracut-hostonly: make install-dracut failed"
	sed 's/^/# /' "$t/log"
	exit 1
fi
mkdir -p "$t/base/modules.d" "$t/conf"
: >"$t/conf/dracut.conf"
for f in /usr/lib/dracut/*; do
	[ "${f##*/}" = modules.d ] || ln -s "$f" "$t/base/"
done
for f in /usr/lib/dracut/modules.d/*; do
	ln -s "$f" "$t/base/modules.d/"
done
ln -s "$t/stage/usr/lib/dracut/modules.d/90torpor" "$t/base/modules.d/90torpor"
printf 'ro quiet\n' >"$t/cmdline"
: >"$t/empty"
printf 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/zram0                              partition\t4194300\t\t0\t\t100\n' \
	>"$t/swaps"

# hostonly OUT: dracut --hostonly in the zram-only namespace, into OUT
hostonly() {
	# shellcheck disable=SC2086,SC2016 # user is two words or none; the inner sh expands
	unshare -m $user sh -c '
		mount --bind "$1/cmdline" /proc/cmdline && mount --bind "$1/swaps" /proc/swaps &&
			mount --bind "$1/empty" /etc/fstab || exit 1
		[ ! -e /etc/kernel/cmdline ] || mount --bind "$1/empty" /etc/kernel/cmdline || exit 1
		dracutbasedir=$1/base dracut --force --hostonly --no-kernel --no-compress \
			--no-early-microcode --conf "$1/conf/dracut.conf" --confdir "$1/conf" "$2"' \
		sh "$t" "$2" >"$t/$1.log" 2>&1
}

# run NAME CONF WANT: a host-only image with torpor.conf CONF; WANT in or out
run() {
	printf '%s\n' "$2" >"$t/torpor.conf"
	if ! TORPOR_RESUME_BIN=$bin TORPOR_BUILD_CHECK_BIN=$t/none hostonly "$1" "$t/$1.img"; then
		not_ok "dracut-hostonly: dracut --hostonly ($1) failed"
		tail -n 20 "$t/$1.log" | sed 's/^/# /'
		return
	fi
	lsinitrd "$t/$1.img" >"$t/$1.list" 2>/dev/null
	if grep -qx torpor "$t/$1.list" && grep -q " ${lib#/}/torpor-resume\$" "$t/$1.list"; then
		got=in
	else
		got=out
	fi
	if [ "$got" = "$3" ]; then
		ok "dracut-hostonly: zram-only host, $1: torpor's module $3 (lsinitrd)"
	else
		not_ok "dracut-hostonly: zram-only host, $1: torpor's module $got, expected $3"
		sed -n '/^dracut modules:/,/^====/p' "$t/$1.list" | sed 's/^/# /'
	fi
}

run image-file "image_file = /var/lib/torpor/image" in
run no-image-file "# image_file = /var/lib/torpor/image" out
echo "1..$n"
[ "$failed" -eq 0 ]
