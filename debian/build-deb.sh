#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make deb: build the torpor .deb with dpkg-buildpackage in a copy of the tree
# under build/deb/ (so the checkout gets no debian/torpor/, stamps or ../*.deb),
# then run lintian over it.  Fails when the build fails or lintian reports an
# error; lintian's warnings are printed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/deb
src=$out/torpor
rm -rf "$out"
mkdir -p "$src"
cd "$top"
tar --exclude=./build --exclude=./.git --exclude=./.cache --exclude=./tests/qemu/out \
	-cf - . | tar -C "$src" -xf -
cd "$src"
dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	echo "torpor: dpkg-buildpackage failed, see $out/build.log" >&2
	exit 1
}
deb=$(ls "$out"/torpor_*.deb)
echo "built $deb"
dpkg-deb --contents "$deb" | awk '{ print "  " $6 }'
echo "lintian:"
# --fail-on error: warnings are shown, errors fail the target
lintian --fail-on error --info "$out"/torpor_*.changes
echo "lintian: no errors"
