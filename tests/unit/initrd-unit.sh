#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-restore.service, the unit that runs torpor-resume in a systemd initramfs,
# as make install-dracut and install-mkinitcpio install it (into a temporary
# DESTDIR; no root needed):
#  - systemd-analyze verify finds nothing to say about it, alone and with the
#    drop-ins dracut's module writes (a host-only resume device) and installs
#    (systemd 252-254's systemd-hibernate-resume@.service after it);
#  - it runs under noresume (no condition on the command line: torpor-resume
#    invalidates the image then), only in the initramfs, before sysroot.mount,
#    systemd-fsck-root, local-fs-pre.target and systemd's own resume service,
#    and pulls in no emergency target when it fails;
#  - dracut's install() in systemd mode (dracut's helpers as stubs) installs the
#    unit and no shell hook; in shell mode the shell hooks and no unit.
# A missing systemd-analyze is a failure, not a skip (tests/deps.sh check installs it).
# shellcheck disable=SC2016 # the checks given to eval are quoted to expand there
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/unit/tap.sh"
t=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
n=0
failed=0
lib=/usr/local/lib/torpor
units=/usr/lib/systemd/system

# check WHAT COMMAND...: one TAP line, ok when COMMAND succeeds
check() {
	_what=$1
	shift
	if "$@"; then ok "$_what"; else not_ok "$_what"; fi
}

if ! make -C "$top" --no-print-directory -s B="$t/build" PREFIX=/usr/local DESTDIR="$t/root" \
	DRACUT_MODULES_DIR=/dracut install-dracut install-mkinitcpio >"$t/log" 2>&1; then
	not_ok "make install-dracut install-mkinitcpio failed"
	sed 's/^/# /' "$t/log"
	exit 1
fi
mkdir -p "$t/root$lib" && printf '#!/bin/sh\nexit 0\n' >"$t/root$lib/torpor-resume" &&
	chmod 755 "$t/root$lib/torpor-resume" || exit 1
u=$t/root$units/torpor-restore.service

# verify ROOT: systemd-analyze verify of the unit under ROOT says nothing, status 0
verify() {
	systemd-analyze verify --man=no --root="$1" torpor-restore.service >"$t/verify" 2>&1
	_rc=$?
	[ "$_rc" -eq 0 ] && [ ! -s "$t/verify" ] && return 0
	sed "s/^/# (status $_rc) /" "$t/verify"
	return 1
}

if command -v systemd-analyze >/dev/null 2>&1; then
	check "systemd-analyze verify: the installed unit, as mkinitcpio's sd-torpor adds it" verify "$t/root"
	# and the check can fail: a unit whose program is missing
	mkdir -p "$t/bad$units" && sed "s|^ExecStart=.*|ExecStart=$lib/nothing-here|" "$u" \
		>"$t/bad$units/torpor-restore.service"
	check "systemd-analyze verify: fails on a unit whose program is missing" \
		eval '! verify "$t/bad" >/dev/null'
else
	not_ok "systemd-analyze not found (sh tests/deps.sh check installs systemd)"
fi

# has LINE: the unit has this line
has() { grep -qx "$1" "$u"; }
# before UNIT: a Before= line of the unit names UNIT
before() { grep '^Before=' "$u" | sed 's/^Before=//' | tr ' ' '\n' | grep -qx "$1"; }
check "unit: no condition on the command line (runs under noresume)" eval '! grep -q "^Condition.*CommandLine" "$u"'
check "unit: only in the initramfs" has "ConditionPathExists=/etc/initrd-release"
check "unit: no default dependencies" has "DefaultDependencies=no"
check "unit: runs the installed torpor-resume, failing visibly" has "ExecStart=$lib/torpor-resume"
check "unit: no OnFailure=, no Requires= on it from anything here" eval \
	'! grep -q "^OnFailure" "$u" && ! grep -rq "Requires=.*torpor-restore" "$t/root$units"'
for _b in sysroot.mount systemd-fsck-root.service local-fs-pre.target systemd-hibernate-resume.service; do
	check "unit: before $_b" before "$_b"
done
check "drop-in: systemd-hibernate-resume@.service after the unit" \
	grep -qx "After=torpor-restore.service" \
	"$t/root$units/systemd-hibernate-resume@.service.d/torpor-restore.conf"

# dracut_install MODE [DEV]: install() of the installed module with dracut's helpers as
# stubs; MODE systemd or shell; a host-only image whose swap is DEV (default UUID=ab%cd)
dracut_install() {
	rm -rf "$t/initrd"
	DEV=${2:-UUID=ab%cd}
	export DEV
	# what dracut's systemd-initrd module installed before
	mkdir -p "$t/initrd$units" && printf '[Unit]\nDescription=initrd\n' >"$t/initrd$units/initrd.target"
	# shellcheck disable=SC2016 # expanded by bash
	MODE=$1 TORPOR_RESUME_BIN=$t/root$lib/torpor-resume TORPOR_BUILD_CHECK_BIN=$t/none bash -c '
		inst_simple() { mkdir -p "$initdir${2%/*}" && cp "$1" "$initdir$2"; }
		inst_hook() { echo "hook $*"; }
		instmods() { echo "instmods $*"; }
		dracut_module_included() { [ "$1" = systemd ] && [ "$MODE" = systemd ]; }
		get_persistent_dev() { echo "/dev/disk/by-x/$DEV"; }
		shorten_persistent_dev() { printf "%s\n" "$DEV"; }
		dwarn() { echo "dracut-warn: $*"; }; derror() { echo "dracut-error: $*"; }
		SYSTEMCTL=systemctl
		hostonly_cmdline=yes initdir=$1 moddir=$2 systemdsystemunitdir=/usr/lib/systemd/system
		declare -A host_fs_types=([/dev/vdb1]=swap [/dev/vda]=ext4)
		. "$2/module-setup.sh" && install' sh "$t/initrd" "$t/root/dracut/90torpor" 2>&1
}

if out=$(dracut_install systemd); then
	d=$t/initrd$units/torpor-restore.service.d/hostonly.conf
	check "dracut, systemd mode: no shell hook" eval '! printf "%s\n" "$out" | grep -q "^hook"'
	check "dracut: efivarfs in the image (torpor-resume mounts it without resume=)" eval \
		'printf "%s\n" "$out" | grep -qx "instmods efivarfs"'
	check "dracut, systemd mode: the unit, wanted by initrd.target" eval \
		'[ -f "$t/initrd$units/torpor-restore.service" ] &&
		[ -L "$t/initrd/etc/systemd/system/initrd.target.wants/torpor-restore.service" ]'
	check "dracut, systemd mode: the drop-in ordering systemd-hibernate-resume@.service" \
		test -f "$t/initrd$units/systemd-hibernate-resume@.service.d/torpor-restore.conf"
	check "dracut, systemd mode: host-only resume device as --device, % escaped" \
		grep -qx "ExecStart=$lib/torpor-resume --device=UUID=ab%%cd" "$d"
	if command -v systemd-analyze >/dev/null 2>&1; then
		mkdir -p "$t/initrd$lib" && cp "$t/root$lib/torpor-resume" "$t/initrd$lib/"
		check "systemd-analyze verify: the unit with dracut's drop-ins" verify "$t/initrd"
	fi
else
	not_ok "dracut, systemd mode: install() failed"
	printf '%s\n' "$out" | sed 's/^/# /'
fi
# a "$" is a variable to systemd in ExecStart=: "$$" passes one
if out=$(dracut_install systemd 'LABEL=a$b${X}'); then
	check "dracut, systemd mode: host-only resume device as --device, \$ escaped" \
		grep -qx "ExecStart=$lib/torpor-resume --device=LABEL=a\\\$\\\$b\\\$\\\${X}" "$d"
	if command -v systemd-analyze >/dev/null 2>&1; then
		check "systemd-analyze verify: the drop-in with \$\$" verify "$t/initrd"
	fi
else
	not_ok "dracut, systemd mode: install() failed"
	printf '%s\n' "$out" | sed 's/^/# /'
fi
# blanks (udev's \x20), quotes: no drop-in, and a warning that resume= must be given
for _dev in 'LABEL=my\x20swap' "LABEL=a'b" 'LABEL=a"b' 'LABEL=a b'; do
	out=$(dracut_install systemd "$_dev")
	check "dracut, systemd mode: host-only resume device $_dev: no drop-in, a warning" eval \
		'[ ! -e "$d" ] && printf "%s\n" "$out" | grep -q "^dracut-warn: torpor: host-only resume device .*put resume= on the kernel command line"'
done
if out=$(dracut_install shell); then
	check "dracut, shell mode: the cmdline and pre-mount hooks, no unit" eval \
		'printf "%s\n" "$out" | grep -q "^hook pre-mount 05 " &&
		printf "%s\n" "$out" | grep -q "^hook cmdline 20 " &&
		[ ! -e "$t/initrd$units/torpor-restore.service" ]'
else
	not_ok "dracut, shell mode: install() failed"
	printf '%s\n' "$out" | sed 's/^/# /'
fi
echo "1..$n"
[ "$failed" -eq 0 ]
