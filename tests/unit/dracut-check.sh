#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dracut-module/90torpor/module-setup.sh's check(): the module goes into every
# image (status 0) whenever torpor is configured, host-only or not: resume= on
# /proc/cmdline, in /etc/kernel/cmdline or in dracut's kernel_cmdline, or an
# image_file in torpor.conf; else into host-only images with a swap partition in
# fstab, else only when asked (255); never without torpor-resume (1).  The paths
# it reads are moved into a sandbox; dracut's variables are set by hand.  Needs bash.
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
n=0
failed=0

if ! command -v bash >/dev/null 2>&1; then
	echo "ok 1 - dracut-check # SKIP bash is not installed"
	exit 0
fi
sed -e "s|/proc/cmdline|$t/proc-cmdline|g" -e "s|/etc/kernel/cmdline|$t/kernel-cmdline|g" \
	-e "s|@SYSCONFDIR@|$t|g" -e "s|@LIBEXECDIR@|$t/libexec|g" \
	"$top/dracut-module/90torpor/module-setup.sh" >"$t/module-setup.sh"
mkdir -p "$t/libexec"
printf '#!/bin/sh\n' >"$t/libexec/torpor-resume"
chmod 755 "$t/libexec/torpor-resume"

# status PROC_CMDLINE KERNEL_CMDLINE_FILE CONF KERNEL_CMDLINE_VAR HOSTONLY FSTYPES:
# check()'s status with these inputs ("-" for a file that does not exist)
status() {
	rm -f "$t/proc-cmdline" "$t/kernel-cmdline" "$t/torpor.conf"
	[ "$1" = - ] || printf '%s\n' "$1" >"$t/proc-cmdline"
	[ "$2" = - ] || printf '%s\n' "$2" >"$t/kernel-cmdline"
	[ "$3" = - ] || printf '%s\n' "$3" >"$t/torpor.conf"
	# shellcheck disable=SC2016 # expanded by bash
	KC=$4 HO=$5 FS=$6 bash -c '
		kernel_cmdline=$KC hostonly=$HO
		# shellcheck disable=SC2206
		host_fs_types=($FS)
		. "$1"
		check' sh "$t/module-setup.sh"
	echo $?
}

# expect WANT DESCRIPTION ARGS...
expect() {
	_want=$1 _what=$2
	shift 2
	n=$((n + 1))
	_got=$(status "$@")
	if [ "$_got" = "$_want" ]; then
		echo "ok $n - dracut-check: $_what"
	else
		echo "not ok $n - dracut-check: $_what (status $_got, wanted $_want)"
		failed=$((failed + 1))
	fi
}

expect 255 "nothing configured: only when asked" "ro quiet" - - "" "" ""
expect 0 "resume= on /proc/cmdline" "ro resume=UUID=5a0c quiet" - - "" "" ""
expect 0 "resume= in /etc/kernel/cmdline" "ro" "root=/dev/sda1 resume=/dev/sda2" - "" "" ""
expect 0 "resume= in dracut's kernel_cmdline" "ro" - - "resume=/dev/sda2" "" ""
expect 0 "image_file in torpor.conf (zram only)" "ro" - "image_file = /var/lib/torpor/image" \
	"" "" ""
expect 0 "image-file spelt with a dash" "ro" - "image-file=/swap/img" "" "" ""
expect 255 "a commented image_file does not count" "ro" - "#image_file = /var/lib/torpor/image" \
	"" "" ""
expect 255 "noresume is no resume=" "ro noresume" - - "" "" ""
expect 0 "host-only with a swap partition, as before" "ro" - - "" 1 "ext4 swap"
expect 255 "host-only without swap and unconfigured" "ro" - - "" 1 "ext4"
rm -f "$t/libexec/torpor-resume"
expect 1 "no torpor-resume: never" "ro resume=/dev/sda2" - - "" "" ""
echo "1..$n"
[ "$failed" -eq 0 ]
