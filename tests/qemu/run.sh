#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run the QEMU end-to-end tests: each scenario on each test kernel, one TAP line per
# pair, then "N passed, N failed".  Exits non-zero if anything failed.
#
# Usage: tests/qemu/run.sh [SCENARIO...]
#   SCENARIO: a script name with or without .sh, e.g. 01-roundtrip or
#   tests/qemu/90-kernel-reference.sh.  Default: every tests/qemu/[0-8]?-*.sh;
#   the 9x scripts (the kernel's own hibernation, for reference) run only when named.
# A scenario that sets TEST_KERNELS=first (a line of its own) runs on the first
# kernel only: it is not a test on the others (a comment says so, nothing is
# counted); TORPOR_TEST_ALL_KERNELS=1 runs it on every kernel anyway.
# Knobs: V=1 streams the guest console; TORPOR_TEST_KERNEL picks the kernels
# (see kernels.sh); more in lib.sh.  Logs: tests/qemu/out/<kernel>-<scenario>.log.

. "$(dirname "$0")/lib.sh"
# fd 3 is where V=1 streams the console, and where the TAP lines go
exec 3>&1

scripts=
if [ $# -eq 0 ]; then
	for s in "$QDIR"/[0-8][0-9]-*.sh; do
		[ -f "$s" ] && scripts="$scripts $s"
	done
else
	for a in "$@"; do
		a=${a##*/}
		a=${a%.sh}
		if [ ! -f "$QDIR/$a.sh" ]; then
			echo "run.sh: no scenario '$a' in $QDIR" >&2
			exit 2
		fi
		scripts="$scripts $QDIR/$a.sh"
	done
fi

n=0
passed=0
failed=0

# report ok|fail TEXT [LOG]: one TAP line
report() {
	n=$((n + 1))
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || echo "# see ${3#"$TOP"/}"
	fi
}

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

mkdir -p "$OUT"
if ! command -v "$QEMU" >/dev/null 2>&1; then
	report fail "$QEMU not found (install it with: sh tests/deps.sh qemu)"
	finish
fi
if ! trees=$(sh "$QDIR/kernels.sh"); then
	report fail "cannot fetch the test kernels (see the messages above)"
	finish
fi
if ! build_workload >"$OUT/workload.log" 2>&1; then
	report fail "cannot build the guest workload" "$OUT/workload.log"
	finish
fi

first_tree=
for tree in $trees; do
	[ -n "$first_tree" ] || first_tree=$tree
	kernel_use "$tree"
	INITRD=$OUT/$KLABEL/initrd.cpio
	mkdir -p "$OUT/$KLABEL"
	ilog=$OUT/$KLABEL/initramfs.log
	if ! build_initramfs "$INITRD" >"$ilog" 2>&1; then
		report fail "$KLABEL: cannot build the test initramfs" "$ilog"
		continue
	fi
	for s in $scripts; do
		name=$(basename "$s" .sh)
		desc=$(sed -n 's/^TEST_DESCRIPTION="\(.*\)"$/\1/p' "$s")
		if [ "$tree" != "$first_tree" ] && [ "${TORPOR_TEST_ALL_KERNELS:-}" != 1 ] &&
			grep -q '^TEST_KERNELS=first$' "$s"; then
			echo "# $KLABEL: $name runs on the first kernel only"
			continue
		fi
		T=$OUT/$KLABEL-$name
		log=$T.log
		rm -rf "$T"
		mkdir -p "$T"
		t0=$(now)
		# shellcheck disable=SC2034 # these are read by lib.sh and the script
		(
			TORPOR_QEMU_RUNNER=1
			TEST_NAME=$name
			TEST_NEEDS_TORPOR=1
			fails=0
			# shellcheck source=/dev/null
			. "$s"
		) >"$log" 2>&1
		rc=$?
		took=$(since "$t0")
		echo "## $name took $took s" >>"$log"
		if [ "$rc" -eq 0 ]; then
			report ok "$KLABEL: $name: $desc"
			# the disks are kept only for failures: they are 100+ MiB each
			rm -f "$T/swap.img" "$T/root.img"
		else
			report fail "$KLABEL: $name: $desc" "$log"
			grep '^FAIL: ' "$log" | head -n 5 | sed 's/^/#   /'
			[ "$(grep -c '^FAIL: ' "$log")" -le 5 ] || echo "#   (more in the log)"
		fi
		echo "#   $took s in all"
		[ ! -f "$T/summary" ] || sed 's/^/#   /' "$T/summary"
	done
done
finish
