# SPDX-License-Identifier: GPL-2.0-only
# Assertions of the QEMU tests (sourced by lib.sh): markers (and the sets of them a
# refusal or a resume prints), console lines, the swap signature, fsck, and the
# summary lines run.sh prints.

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# stamp N MARKER: seconds after QEMU started at which boot N printed "=== MARKER"
stamp() {
	awk -v m="=== $2" '{ t = $1; sub(/^[^ ]* /, "") }
		$0 == m || index($0, m " ") == 1 { print t; exit }' "$T/boot$1.console"
}

# expect N MARKER...: boot N printed every "=== MARKER"
expect() {
	_n=$1
	shift
	for _m in "$@"; do
		if [ -n "$(stamp "$_n" "$_m")" ]; then
			echo "ok: boot $_n printed '=== $_m'"
		else
			fail "boot $_n: expected '=== $_m', did not see it"
		fi
	done
}

# expect_not N MARKER...: boot N printed none of them
expect_not() {
	_n=$1
	shift
	for _m in "$@"; do
		if [ -z "$(stamp "$_n" "$_m")" ]; then
			echo "ok: boot $_n did not print '=== $_m'"
		else
			fail "boot $_n: printed '=== $_m', which it must not"
		fi
	done
}

# expect_checks N: boot N resumed and the workload passed every check
expect_checks() {
	expect "$1" resumed token-ok counter-ok data-ok
	expect_not "$1" normal-boot token-bad counter-bad data-bad hibernate-failed
}

# expect_refused N [MARKER...]: in boot N torpor-suspend refused (exit status 1) and
# the workload went on with its token, counter and data; it printed each MARKER too
expect_refused() {
	_rfn=$1
	shift
	expect "$_rfn" "$@" workload-started hibernating "suspend-exit 1" token-ok counter-ok data-ok \
		poweroff
	expect_not "$_rfn" resumed token-bad counter-bad data-bad
}

# expect_fs_resumed N: boot N resumed (expect_checks), and the writer on the first
# disk went on: the log grew in sequence, then the disk was unmounted
expect_fs_resumed() {
	expect_checks "$1"
	expect "$1" fs-grows fs-seq-ok fs-unmounted poweroff
}

# expect_sig SIGNATURE WHEN: the swap disk carries SIGNATURE now
expect_sig() {
	_sig=$(swap_sig)
	if [ "$_sig" = "$1" ]; then
		echo "ok: swap signature is '$1' $2"
	else
		fail "swap signature is '$_sig' $2, expected '$1'"
	fi
}

# describe TEXT: the TAP line's description for this run, instead of
# TEST_DESCRIPTION (a scenario that runs only part of itself says so)
describe() { printf '%s\n' "$*" >"$T/description"; }

# note TEXT: one line of the summary run.sh prints under the TAP line
note() { echo "$*" >>"$T/summary"; }

# note_torpor: torpor's own size and speed lines, from every boot; torpor-resume's
# line also goes to /dev/kmsg, and that copy is taken when the two got interleaved
# on the console (two vCPUs) and the line of its own is broken (a copy appended to
# a whole line is cut off)
note_torpor() {
	for _c in "$T"/boot*.console; do
		for _w in saved loaded; do
			_l=$(sed -n "s/^[^ ]* \(torpor: image $_w.*\)/\1/p" "$_c" |
				sed 's/\[ *[0-9.]*\] torpor: .*//')
			[ -n "$_l" ] || _l=$(sed -n "s/.*\] \(torpor: image $_w.*\)/\1/p" "$_c")
			[ -z "$_l" ] || printf '%s\n' "$_l"
		done | while read -r _l; do note "$(basename "$_c" .console): $_l"; done
	done
}

# note_kernel: the kernel's size, speed and compression-thread lines of its own hibernation
note_kernel() {
	for _c in "$T"/boot*.console; do
		sed -n -e 's/^[^ ]* \[ *[0-9.]*\] PM: \(hibernation: \(Wrote\|Read\) .*\)/kernel: \1/p' \
			-e 's/^[^ ]* \[ *[0-9.]*\] PM: \(Image size after compression.*\)/kernel: \1/p' \
			-e 's/^[^ ]* \[ *[0-9.]*\] PM: \(Using [0-9]* thread(s) for .*compression\)/kernel: \1/p' \
			"$_c" |
			while read -r _l; do note "$(basename "$_c" .console): $_l"; done
	done
}

# expect_fsck WHEN [IMAGE]: the host's e2fsck -fn finds IMAGE (default $T/root.img) clean
expect_fsck() {
	if e2fsck -fn "${2:-$T/root.img}" >"$T/fsck.out" 2>&1; then
		echo "ok: e2fsck -fn is clean $1"
	else
		sed 's/^/# e2fsck: /' "$T/fsck.out"
		fail "e2fsck -fn found problems $1"
	fi
}

# console_has N ERE: boot N printed a line matching ERE (timestamps stripped)
console_has() { sed 's/^[^ ]* //' "$T/boot$1.console" | grep -Eq -- "$2"; }

# ere_quote TEXT: TEXT with the characters special in an ERE escaped
ere_quote() { printf '%s\n' "$1" | sed 's/[][\\.*^$+?(){}|]/\\&/g'; }

# expect_line N ERE [WHAT]: boot N printed a line matching ERE
expect_line() {
	if console_has "$1" "$2"; then
		echo "ok: boot $1 printed /$2/"
	else
		fail "boot $1: expected a line matching /$2/${3:+ ($3)}"
	fi
}

# expect_no_line N ERE [WHAT]: boot N printed no line matching ERE
expect_no_line() {
	if console_has "$1" "$2"; then
		fail "boot $1: printed a line matching /$2/${3:+ ($3)}, which it must not"
	else
		echo "ok: boot $1 printed no line matching /$2/"
	fi
}
