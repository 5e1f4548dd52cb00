#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The package's postinst and postrm rebuild the initramfs of every kernel on
# configure and on remove: with update-initramfs where initramfs-tools is, and
# where it is not (Debian's dracut ships no update-initramfs, but rebuilds all
# kernels' images when the update-initramfs trigger is activated) through that
# trigger.  Each script runs with a PATH of stubs only, which log their words:
# nothing of this machine is rebuilt, and no systemctl is found.
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
# shellcheck disable=SC2034 # n is tap.sh's count
n=0
failed=0
# shellcheck source=tests/unit/tap.sh
. "$top/tests/unit/tap.sh"

tap_diag() {
	sed 's/^/# /' "$t/log" "$t/err" 2>/dev/null
}

# stub NAME: a command that logs its name and words
stub() {
	printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$1" "$t/log" >"$t/bin/$1"
	chmod +x "$t/bin/$1"
}

# run SCRIPT ARG [STUB...]: the script with only the named stubs on PATH
run() {
	_s=$1 _a=$2
	shift 2
	rm -rf "${t:?}/bin" "$t/log"
	mkdir -p "$t/bin"
	: >"$t/log"
	for c in "$@"; do
		stub "$c"
	done
	env -i PATH="$t/bin" DPKG_MAINTSCRIPT_PACKAGE=torpor /bin/sh "$top/debian/$_s" "$_a" \
		>/dev/null 2>"$t/err"
}

# check TEXT EXPECTED-LOG
check() {
	if [ "$(cat "$t/log")" = "$2" ]; then ok "$1"; else not_ok "$1"; fi
}

for s in postinst:configure postrm:remove; do
	f=${s%%:*} a=${s#*:}
	run "torpor.$f" "$a" update-initramfs dpkg-trigger
	check "$f $a with initramfs-tools: every kernel's initramfs rebuilt, once" \
		"update-initramfs -u -k all"
	run "torpor.$f" "$a" dpkg-trigger
	check "$f $a without update-initramfs (dracut): the update-initramfs trigger" \
		"dpkg-trigger --no-await update-initramfs"
	run "torpor.$f" "$a"
	check "$f $a with neither: nothing, and no failure" ""
done
for s in postinst:abort-upgrade postrm:upgrade postrm:purge postrm:failed-upgrade; do
	f=${s%%:*} a=${s#*:}
	run "torpor.$f" "$a" update-initramfs dpkg-trigger
	check "$f $a: no rebuild" ""
done
[ "$failed" -eq 0 ]
