#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The installed hooks name the torpor-resume of the install at hand: two installs
# into temporary DESTDIRs, PREFIX=/usr/local then PREFIX=/usr, with the same build
# directory; the second must remake the hook templates.  No root needed.
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
failed=0

# install PREFIX DESTDIR: the three hosts' hooks, with $t/build as build directory
install_hooks() {
	make -C "$top" --no-print-directory -s B="$t/build" PREFIX="$1" DESTDIR="$2" \
		INITRAMFS_TOOLS_DIR=/itools DRACUT_MODULES_DIR=/dracut INITCPIO_DIR=/initcpio \
		SYSTEMD_UNIT_DIR=/units \
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
[ "$failed" -eq 0 ]
