#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The initramfs hooks warn at image build time when the running system cannot
# hibernate: hook/torpor-build-check with fake torpor-suspends (one that fails
# with a message, one that passes), and each generator's hook (initramfs-tools
# for real with its hook-functions, dracut's install() and mkinitcpio's build()
# with their helpers as stubs) printing the warning in its generator's style and
# still succeeding.  The chroot test needs root (unshare and chroot).
# shellcheck disable=SC2016,SC2034 # the sh -c scripts expand their own arguments; check() evals rc
top=$(cd "$(dirname "$0")/../.." && pwd)
b=${B:-$top/build}
t=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
n=0
failed=0
# shellcheck source=tests/unit/tap.sh
. "$(dirname "$0")/tap.sh"
# check WHAT COND: ok when the shell condition COND (a string, evaluated whole) holds
check() {
	if eval "$2"; then ok "$1"; else not_ok "$1"; fi
}

printf '#!/bin/sh\necho "torpor: no resume device: neither --resume nor resume= on the kernel command line"\nexit 1\n' >"$t/bad"
printf '#!/bin/sh\necho "torpor: ready to hibernate to swap partition"\nexit 0\n' >"$t/good"
chmod 755 "$t/bad" "$t/good"
bc=$b/hook/torpor-build-check
if [ ! -f "$bc" ]; then
	not_ok "build-check: $bc is built (make hooks)"
	echo "$n tests"
	exit 1
fi
root=
[ "$(id -u)" = 0 ] && root=1

# run_bc VAR=VALUE...: the script with those variables set; what it said in out,
# its status in rc
run_bc() {
	out=$(env "$@" sh "$bc" 2>&1)
	rc=$?
}

# the script itself (TORPOR_BUILD_CHECK=force: this may be a container, or not root)
run_bc TORPOR_BUILD_CHECK=force TORPOR_SUSPEND_BIN="$t/bad"
check "build-check: a failing --check: status 1 and its message" \
	'[ "$rc" = 1 ] && echo "$out" | grep -q "no resume device"'
run_bc TORPOR_BUILD_CHECK=force TORPOR_SUSPEND_BIN="$t/good"
check "build-check: a passing --check: status 0, nothing said" \
	'[ "$rc" = 0 ] && [ -z "$out" ]'
# the initramfs being built is not the one in /boot yet: --check leaves it out
printf '#!/bin/sh\necho "$*" >"%s/args"\nexit 0\n' "$t" >"$t/args.sh"
chmod 755 "$t/args.sh"
TORPOR_BUILD_CHECK=force TORPOR_SUSPEND_BIN=$t/args.sh sh "$bc" >/dev/null 2>&1
check "build-check: runs --check --no-initramfs" '[ "$(cat "$t/args" 2>/dev/null)" = "--check --no-initramfs" ]'
# initramfs-tools' hook names the tree it builds: its RESUME= names the area
rm -f "$t/args"
TORPOR_BUILD_CHECK=force TORPOR_SUSPEND_BIN=$t/args.sh sh "$bc" "$t/dest tree" >/dev/null 2>&1
check "build-check DIR: runs --check --no-initramfs --initramfs-tree=DIR" \
	'[ "$(cat "$t/args" 2>/dev/null)" = "--check --no-initramfs --initramfs-tree=$t/dest tree" ]'
run_bc TORPOR_BUILD_CHECK=0 TORPOR_SUSPEND_BIN="$t/bad"
check "build-check: TORPOR_BUILD_CHECK=0: status 0, nothing said" \
	'[ "$rc" = 0 ] && [ -z "$out" ]'
run_bc TORPOR_BUILD_CHECK=force TORPOR_SUSPEND_BIN="$t/missing"
check "build-check: no torpor-suspend: status 0, nothing said" \
	'[ "$rc" = 0 ] && [ -z "$out" ]'
if [ -e /.dockerenv ]; then
	run_bc TORPOR_SUSPEND_BIN="$t/bad"
	check "build-check: in a container: status 0, nothing said" \
		'[ "$rc" = 0 ] && [ -z "$out" ]'
fi
if [ -n "$root" ] && command -v unshare >/dev/null 2>&1 && [ -x /bin/busybox ]; then
	# a chroot in a PID namespace of its own: PID 1 (the shell that chroots) keeps the
	# real root, which the chroot's own /proc shows
	mkdir -p "$t/ch/bin" "$t/ch/proc" "$t/ch/dev"
	cp /bin/busybox "$t/ch/bin/"
	for a in sh stat id printf; do ln -s busybox "$t/ch/bin/$a"; done
	cp "$bc" "$t/ch/bin/build-check" && chmod 755 "$t/ch/bin/build-check" && cp "$t/bad" "$t/ch/bin/bad"
	: >"$t/ch/dev/null"
	out=$(unshare -m -p -f sh -c 'mount -t proc proc "$1/proc" && chroot "$1" /bin/sh -c \
		"PATH=/bin TORPOR_BUILD_CHECK=force TORPOR_SUSPEND_BIN=/bin/bad /bin/build-check; echo status \$?"' sh "$t/ch" 2>&1)
	check "build-check: in a chroot: nothing said ($out)" \
		'[ "$out" = "status 0" ]'
	# the same outside the chroot says it: the test above can fail
	out=$(unshare -m -p -f sh -c 'mount -t proc proc /proc && \
		TORPOR_BUILD_CHECK=force TORPOR_SUSPEND_BIN="$1" sh "$2"; echo status $?' sh "$t/bad" "$bc" 2>&1)
	case $out in
	*"status 1") ok "build-check: outside the chroot it speaks" ;;
	*) not_ok "build-check: outside the chroot it speaks ($out)" ;;
	esac
else
	ok "build-check: in a chroot # SKIP needs root, unshare and busybox"
fi

# the hooks, with the fake check that fails
printf '#!/bin/sh\necho "torpor: no resume device"\nexit 1\n' >"$t/check-bad"
printf '#!/bin/sh\nexit 0\n' >"$t/check-good"
chmod 755 "$t/check-bad" "$t/check-good"

if [ -f /usr/share/initramfs-tools/hook-functions ]; then
	for c in bad good; do
		rm -rf "$t/dest"
		mkdir -p "$t/dest"
		out=$(DESTDIR=$t/dest verbose=n TORPOR_RESUME_BIN=$t/good \
			TORPOR_BUILD_CHECK_BIN=$t/check-$c sh "$b/hook/hooks/torpor" 2>&1)
		rc=$?
		if [ "$c" = bad ]; then
			check "initramfs-tools: W: lines with --check's message, status 0" \
				'[ "$rc" = 0 ] && echo "$out" | grep -q "^W: torpor:   torpor: no resume device\$" &&
				echo "$out" | grep -q "^W: torpor: the image is built, and resumes once that is fixed\$"'
		else
			check "initramfs-tools: a passing check adds nothing, status 0" \
				'[ "$rc" = 0 ] && [ -z "$out" ]'
		fi
	done
	# the check is given the tree being built ($DESTDIR), whose RESUME= it reads
	printf '#!/bin/sh\necho "$*" >"%s/hook-args"\nexit 0\n' "$t" >"$t/check-args"
	chmod 755 "$t/check-args"
	DESTDIR=$t/dest verbose=n TORPOR_RESUME_BIN=$t/good TORPOR_BUILD_CHECK_BIN=$t/check-args \
		sh "$b/hook/hooks/torpor" >/dev/null 2>&1
	check "initramfs-tools: the check is given \$DESTDIR, the image being built" \
		'[ "$(cat "$t/hook-args" 2>/dev/null)" = "$t/dest" ]'
	check "initramfs-tools: the hook runs after hooks/resume (PREREQ), whose RESUME= it reads" \
		'[ "$(sh "$b/hook/hooks/torpor" prereqs)" = resume ]'
else
	not_ok "initramfs-tools: no /usr/share/initramfs-tools/hook-functions (sh tests/deps.sh hooks)"
fi

# dracut: install() with dracut's helpers as stubs
for c in bad good; do
	out=$(TORPOR_RESUME_BIN=$t/good TORPOR_BUILD_CHECK_BIN=$t/check-$c bash -c '
		inst_simple() { :; }; inst_hook() { :; }; instmods() { :; }
		dracut_module_included() { return 1; }
		dwarn() { echo "dracut-warn: $*"; }
		hostonly_cmdline=no initdir=/nonexistent moddir=/nonexistent
		. "$1" && install' sh "$b/dracut-module/90torpor/module-setup.sh" 2>&1)
	rc=$?
	if [ "$c" = bad ]; then
		check "dracut: dwarn lines with --check's message, install() succeeds" \
			'[ "$rc" = 0 ] && echo "$out" | grep -q "^dracut-warn: torpor:   torpor: no resume device\$"'
	else
		check "dracut: a passing check adds nothing" \
			'[ "$rc" = 0 ] && [ -z "$out" ]'
	fi
done

# mkinitcpio: build() with its helpers as stubs
for c in bad good; do
	out=$(MODFILE=$t/mkinitcpio-module TORPOR_RESUME_BIN=$t/good TORPOR_BUILD_CHECK_BIN=$t/check-$c bash -c '
		add_binary() { :; }; add_runscript() { :; }; add_module() { echo "$*" >"$MODFILE"; }
		warning() { echo "mkinitcpio-warning: $*"; }
		. "$1" && build' sh "$b/mkinitcpio/install/torpor" 2>&1)
	rc=$?
	if [ "$c" = bad ]; then
		check "mkinitcpio: warning lines with --check's message, build() succeeds" \
			'[ "$rc" = 0 ] && echo "$out" | grep -q "^mkinitcpio-warning: torpor:   torpor: no resume device\$"'
	else
		check "mkinitcpio: a passing check adds nothing" \
			'[ "$rc" = 0 ] && [ -z "$out" ]'
	fi
done
check "mkinitcpio: build() adds efivarfs, optional (torpor-resume mounts it without resume=)" \
	'[ "$(cat "$t/mkinitcpio-module" 2>/dev/null)" = "efivarfs?" ]'
echo "1..$n"
