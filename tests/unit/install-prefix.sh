#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The installed hooks name the torpor-resume of the install at hand: two installs
# into temporary DESTDIRs, PREFIX=/usr/local then PREFIX=/usr, with the same build
# directory; the second must remake the hook templates.  The systemd drop-ins
# and generator go to /usr/lib with PREFIX=/usr (the vendor's), else to /etc (the
# local administrator's), and uninstall-systemd removes them from there; the
# initramfs's unit stays in /usr/lib/systemd/system.  No root needed.
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
failed=0

# install PREFIX DESTDIR: the three hosts' hooks, with $t/build as build directory
install_hooks() {
	make -C "$top" --no-print-directory -s B="$t/build" PREFIX="$1" DESTDIR="$2" \
		INITRAMFS_TOOLS_DIR=/itools DRACUT_MODULES_DIR=/dracut INITCPIO_DIR=/initcpio \
		INITRD_UNIT_DIR=/units \
		install-initramfs-tools install-dracut install-mkinitcpio >"$t/log" 2>&1
}

# check DESTDIR LIBEXECDIR OTHER: every installed hook names LIBEXECDIR, none OTHER
check() {
	for f in itools/hooks/torpor itools/scripts/local-top/torpor \
		dracut/90torpor/module-setup.sh dracut/90torpor/torpor-pre-mount.sh \
		initcpio/install/torpor initcpio/hooks/torpor initcpio/install/sd-torpor \
		dracut/90torpor/torpor-restore.service units/torpor-restore.service; do
		n=$((n + 1))
		if grep -q "$2/torpor-resume" "$1/$f" 2>/dev/null &&
			! grep -q "$3/torpor-resume" "$1/$f"; then
			echo "ok $n - $f names $2/torpor-resume"
		else
			echo "not ok $n - $f does not name $2/torpor-resume"
			grep -n 'torpor-resume' "$1/$f" 2>&1 | sed 's/^/# /'
			failed=$((failed + 1))
		fi
	done
}

for run in "/usr/local /usr/local/lib/torpor /usr/lib/torpor" "/usr /usr/lib/torpor /usr/local/lib/torpor"; do
	# shellcheck disable=SC2086 # three words
	set -- $run
	if ! install_hooks "$1" "$t/dest${1}"; then
		echo "not ok - make install-* PREFIX=$1 failed"
		sed 's/^/# /' "$t/log"
		exit 1
	fi
	check "$t/dest${1}" "$2" "$3"
done
# result WHAT CONDITION...: one TAP line
result() {
	_what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $_what"
	else
		echo "not ok $n - $_what"
		find "$t/sd" -type f 2>/dev/null | sed "s|^$t/sd|# |"
		failed=$((failed + 1))
	fi
}

# files DIR: the files under DIR, relative, sorted
files() {
	(cd "$1" 2>/dev/null && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
}

verbs="hibernate hybrid-sleep suspend-then-hibernate"
for run in "/usr/local etc/systemd/system etc/systemd/system-generators" \
	"/usr usr/lib/systemd/system usr/lib/systemd/system-generators"; do
	# shellcheck disable=SC2086 # three words
	set -- $run
	rm -rf "$t/sd"
	make -C "$top" --no-print-directory -s B="$t/build" PREFIX="$1" DESTDIR="$t/sd" \
		INITCPIO_DIR=/initcpio install-systemd install-mkinitcpio "$t/build/man/torpor-sleep.8" \
		>"$t/log" 2>&1 || sed 's/^/# /' "$t/log"
	want="$3/torpor-logind-generator"
	for v in $verbs; do
		want="$want
$2/systemd-$v.service.d/torpor.conf"
	done
	result "install-systemd PREFIX=$1: drop-ins in /$2, generator in /$3" \
		[ "$(files "$t/sd" | grep -v '^initcpio/\|/torpor-sleep$\|torpor-restore')" = \
		"$(echo "$want" | LC_ALL=C sort)" ]
	result "install-mkinitcpio PREFIX=$1: the initramfs's unit in /usr/lib/systemd/system" \
		[ -f "$t/sd/usr/lib/systemd/system/torpor-restore.service" ]
	result "torpor-sleep(8) PREFIX=$1 names /$2" \
		grep -q "^\.I /$2/systemd-hibernate.service.d/torpor.conf$" "$t/build/man/torpor-sleep.8"
	make -C "$top" --no-print-directory -s B="$t/build" PREFIX="$1" DESTDIR="$t/sd" \
		INITCPIO_DIR=/initcpio uninstall-systemd uninstall-mkinitcpio >"$t/log" 2>&1 ||
		sed 's/^/# /' "$t/log"
	result "uninstall-systemd uninstall-mkinitcpio PREFIX=$1 remove all of it" [ -z "$(files "$t/sd")" ]
done

# an older source install (PREFIX=/usr/local) left its drop-ins in /usr/lib: its
# uninstall removes those that run its torpor-sleep, not a package's beside them
rm -rf "$t/sd"
for v in hibernate hybrid-sleep; do
	mkdir -p "$t/sd/usr/lib/systemd/system/systemd-$v.service.d"
done
printf '[Service]\nExecStart=\nExecStart=/usr/local/lib/torpor/torpor-sleep hibernate\n' \
	>"$t/sd/usr/lib/systemd/system/systemd-hibernate.service.d/torpor.conf"
printf '[Service]\nExecStart=\nExecStart=/usr/lib/torpor/torpor-sleep hybrid-sleep\n' \
	>"$t/sd/usr/lib/systemd/system/systemd-hybrid-sleep.service.d/torpor.conf"
make -C "$top" --no-print-directory -s B="$t/build" PREFIX=/usr/local DESTDIR="$t/sd" \
	uninstall-systemd >"$t/log" 2>&1 || sed 's/^/# /' "$t/log"
result "uninstall-systemd PREFIX=/usr/local removes an older install's drop-in from /usr/lib" \
	[ ! -e "$t/sd/usr/lib/systemd/system/systemd-hibernate.service.d/torpor.conf" ]
result "and keeps the package's beside it" \
	[ -f "$t/sd/usr/lib/systemd/system/systemd-hybrid-sleep.service.d/torpor.conf" ]
[ "$failed" -eq 0 ]
