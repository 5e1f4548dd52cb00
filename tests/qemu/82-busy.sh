#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 82-busy: torpor-suspend cannot get at /dev/snapshot: (1) another process holds it
# open (EBUSY), (2) lockdown=integrity on the command line (EPERM, the lockdown
# hint), (3) the device node is gone (the CONFIG_HIBERNATION_SNAPSHOT_DEV message).
# Each time: one clear message, exit status 1, nothing frozen (the workload keeps
# counting and its data checks out), and the swap disk untouched.  Not being root
# is covered by tests/unit/nonroot-suspend.sh.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="/dev/snapshot busy, locked down or missing: one message, exit 1, workload intact"
# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first

test_setup() {
	swap_create
}

# refused_boot N ERE [PARAMS...]: boot N runs torpor-suspend, which must fail with a
# line matching ERE and exit status 1, the workload intact
refused_boot() {
	_b=$1
	_re=$2
	shift 2
	boot "$_b" torpor_test=refused torpor_mib=32 "$@"
	note_boot "$_b"
	expect_refused "$_b" imagesize-kept
	expect_line "$_b" "$_re"
	expect_no_line "$_b" "Freezing user space processes" "nothing was frozen"
	expect_sig SWAPSPACE2 "after boot $_b"
	note "boot $_b: $(sed -n 's/^[^ ]* \(torpor: .*\)/\1/p' "$T/boot$_b.console" | grep -v '^torpor: hint' | head -n 1)"
}

test_run() {
	refused_boot 1 "^torpor: .*'/dev/snapshot' is busy" torpor_fault=busy
	expect 1 snapshot-held

	refused_boot 2 "^torpor: .*the kernel does not allow hibernation" lockdown=integrity
	expect_line 2 "^torpor: hint: .*[Ll]ockdown"
	expect_line 2 "Kernel is locked down from command line; see man kernel_lockdown.7" \
		"the kernel applied lockdown=integrity"

	refused_boot 3 "^torpor: no '/dev/snapshot': this kernel lacks CONFIG_HIBERNATION_SNAPSHOT_DEV" \
		torpor_fault=nodev
	expect 3 snapshot-removed
}

test_main
