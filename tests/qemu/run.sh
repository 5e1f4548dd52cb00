#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run the QEMU end-to-end tests: each scenario on each test kernel, one TAP line per
# pair, then "N passed, N failed".  Exits non-zero if anything failed.
#
# Usage: tests/qemu/run.sh [SCENARIO...]
#   SCENARIO: a script name with or without .sh, e.g. 01-roundtrip or
#   tests/qemu/90-kernel-reference.sh.  Default: every tests/qemu/[0-8]?-*.sh;
#   the 9x scripts (the kernel's own hibernation, for reference; long proofs) run
#   only when named.  tests/qemu/README says what each range of numbers covers.
# A scenario that sets TEST_KERNELS=first (a line of its own) runs on the first
# kernel only: it is not a test on the others (a comment says so, nothing is
# counted); TORPOR_TEST_ALL_KERNELS=1 runs it on every kernel anyway.
# Scenarios run TORPOR_TEST_JOBS at a time (default: the online CPUs, at most 4;
# each guest is one TCG thread), each in a folder of its own; the TAP lines come in
# the order of the list.  A scenario that sets TEST_ALONE=1 (a line of its own,
# for one whose guest has several vCPUs) runs first, with nothing beside it.
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

# the list: one "TREE SCRIPT" line a scenario, alone ones first
jobs=$OUT/.jobs
claims=$OUT/.claims
rm -rf "$jobs" "$jobs.alone" "$claims"
: >"$jobs"
: >"$jobs.alone"
first_tree=
for tree in $trees; do
	[ -n "$first_tree" ] || first_tree=$tree
	kernel_use "$tree"
	mkdir -p "$OUT/$KLABEL"
	ilog=$OUT/$KLABEL/initramfs.log
	if ! build_initramfs "$OUT/$KLABEL/initrd.cpio" >"$ilog" 2>&1; then
		report fail "$KLABEL: cannot build the test initramfs" "$ilog"
		continue
	fi
	for s in $scripts; do
		if [ "$tree" != "$first_tree" ] && [ "${TORPOR_TEST_ALL_KERNELS:-}" != 1 ] &&
			grep -q '^TEST_KERNELS=first$' "$s"; then
			echo "# $KLABEL: $(basename "$s" .sh) runs on the first kernel only"
			continue
		fi
		if grep -q '^TEST_ALONE=1$' "$s"; then
			echo "$tree $s" >>"$jobs.alone"
		else
			echo "$tree $s" >>"$jobs"
		fi
	done
done
cat "$jobs" >>"$jobs.alone"
mv "$jobs.alone" "$jobs"
njobs=$(wc -l <"$jobs")

# what several scenarios share is made before any starts: the staged install's
# generated files; the systemd scenarios' Debian roots and the .deb are made
# beside the first scenarios (a 7x scenario that starts earlier waits for them:
# debian_tree and debian_deb hold a lock while they build)
prep_pid=
if [ "$njobs" -gt 0 ]; then
	T=$OUT/.prep
	rm -rf "$T"
	mkdir -p "$T"
	make -C "$TOP" --no-print-directory -s -o "$BUILD/torpor-suspend" -o "$BUILD/torpor-resume" \
		B="$BUILD" DESTDIR="$T/stage" install install-initramfs-tools install-dracut \
		install-mkinitcpio install-systemd >"$T/stage.log" 2>&1 || true
	if grep -q '/7[0-9]-[^/]*\.sh$' "$jobs"; then
		(
			# below the guests: their waits are bounded, mmdebstrap's are not timed
			renice -n 10 -p "$(sh -c 'echo $PPID')" >/dev/null 2>&1 || true
			. "$QDIR/lib-debian.sh"
			# shellcheck disable=SC2046 # one script a word
			for suite in $(debian_suites $(cut -d' ' -f2 "$jobs")); do
				debian_use "$suite"
				debian_tree >>"$T/debian.log" 2>&1 || true
			done
			debian_deb >>"$T/debian.log" 2>&1 || true
		) &
		prep_pid=$!
	fi
fi

# run_job I: the Ith scenario of the list, in a subshell; its status and time go
# to $OUT/.claims/I.done
run_job() {
	read -r _tree _s <<-EOF
	$(sed -n "${1}p" "$jobs")
	EOF
	set -- "$_tree" "$_s" "$1"
	kernel_use "$1"
	# shellcheck disable=SC2034 # read by lib.sh
	INITRD=$OUT/$KLABEL/initrd.cpio
	name=$(basename "$2" .sh)
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
		. "$2"
	) >"$log" 2>&1
	rc=$?
	took=$(since "$t0")
	echo "## $name took $took s" >>"$log"
	echo "$rc $took" >"$claims/$3.tmp"
	mv "$claims/$3.tmp" "$claims/$3.done"
}

# worker FIRST LAST: claim and run, one by one, the scenarios FIRST..LAST nobody
# claimed yet (mkdir is the lock)
worker() {
	_i=$1
	while [ "$_i" -le "$2" ]; do
		! mkdir "$claims/$_i" 2>/dev/null || run_job "$_i"
		_i=$((_i + 1))
	done
}

# kill_tree PID: PID and every process below it (QEMU runs two levels down)
# shellcheck disable=SC2013,SC2317 # one PID a word; called from the trap
kill_tree() {
	for _c in $(grep -l "^PPid:[[:space:]]*$1\$" /proc/[0-9]*/status 2>/dev/null | cut -d/ -f3); do
		kill_tree "$_c"
	done
	kill "$1" 2>/dev/null
}

# the workers' PIDs; Ctrl-C or a TERM ends them and their guests too
wpids=
# shellcheck disable=SC2317 # called from the trap
stop_workers() {
	# stopped first, so that none starts another scenario while its guest is killed
	for _p in $wpids; do
		kill -STOP "$_p" 2>/dev/null
	done
	for _p in $wpids; do
		kill_tree "$_p"
		kill -CONT "$_p" 2>/dev/null
	done
}
trap '[ -z "$prep_pid" ] || kill_tree "$prep_pid"; stop_workers; echo "run.sh: interrupted" >&2; exit 130' INT TERM

# workers_alive: does any worker still run?
workers_alive() {
	for _p in $wpids; do
		! kill -0 "$_p" 2>/dev/null || return 0
	done
	return 1
}

# report_job I: wait for the Ith scenario, then its TAP line and summary; a
# scenario no worker is left to run (a worker killed) is a failure, not a hang
report_job() {
	while [ ! -f "$claims/$1.done" ]; do
		if ! workers_alive && [ ! -f "$claims/$1.done" ]; then
			echo "99 0" >"$claims/$1.done"
			echo "# run.sh: no worker was left to run scenario $1 (one was killed)" >&2
			break
		fi
		sleep 1
	done
	read -r _tree _s <<-EOF
	$(sed -n "${1}p" "$jobs")
	EOF
	read -r _rc _took <"$claims/$1.done"
	set -- "$_tree" "$_s" "$_rc" "$_took"
	kernel_use "$1"
	name=$(basename "$2" .sh)
	desc=$(sed -n 's/^TEST_DESCRIPTION="\(.*\)"$/\1/p' "$2")
	T=$OUT/$KLABEL-$name
	log=$T.log
	# a scenario that ran only part of itself says so (describe in lib-expect.sh)
	[ ! -s "$T/description" ] || desc=$(cat "$T/description")
	if [ "$3" -eq 0 ]; then
		report ok "$KLABEL: $name: $desc"
		# the disks are kept only for failures: they are 100+ MiB each
		rm -f "$T/swap.img" "$T/root.img"
	else
		report fail "$KLABEL: $name: $desc" "$log"
		grep '^FAIL: ' "$log" | head -n 5 | sed 's/^/#   /'
		[ "$(grep -c '^FAIL: ' "$log")" -le 5 ] || echo "#   (more in the log)"
	fi
	echo "#   $4 s in all"
	[ ! -f "$T/summary" ] || sed 's/^/#   /' "$T/summary"
}

par=${TORPOR_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $par in
'' | *[!0-9]*) par=1 ;;
esac
[ -n "${TORPOR_TEST_JOBS:-}" ] || [ "$par" -le 4 ] || par=4
[ "$par" -ge 1 ] || par=1
mkdir -p "$claims"
i=1
# the alone ones, each with the machine to itself
while [ "$i" -le "$njobs" ] && grep -q '^TEST_ALONE=1$' "$(sed -n "${i}p" "$jobs" | cut -d' ' -f2)"; do
	mkdir "$claims/$i" && run_job "$i"
	report_job "$i"
	i=$((i + 1))
done
echo "# $((i - 1)) scenarios alone, then $((njobs - i + 1)), $par at a time"
w=0
while [ "$w" -lt "$par" ] && [ "$i" -le "$njobs" ]; do
	worker "$i" "$njobs" &
	wpids="$wpids $!"
	w=$((w + 1))
done
while [ "$i" -le "$njobs" ]; do
	report_job "$i"
	i=$((i + 1))
done
wait
finish
