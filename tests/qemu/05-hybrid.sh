#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 05-hybrid: torpor-suspend --poweroff=hybrid, QEMU with S3 (-global
# PIIX4_PM.disable_s3=0) and a monitor.  (a) boot 1 writes the image, suspends to
# RAM; the host sees the guest suspended and torpor's S2SUSPEND on the swap disk,
# wakes it with system_wakeup: torpor says it woke and discarded the image, exits 0,
# the workload is intact, and the swap signature is SWAPSPACE2 again.  (b) boot 2
# does the same, but the host kills QEMU while it is suspended (a power loss): boot 3
# resumes the image through torpor-resume, the workload is intact.  (c) boot 4 has
# no S3: suspend to RAM fails, torpor powers off with the image committed, and boot
# 5 resumes it.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="hybrid: image, then suspend to RAM; a wake-up discards the image, a power loss resumes it, no S3 powers off"

test_setup() {
	swap_create
}

test_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_TIMEOUT=120
	boot_sleep 1 wake torpor_test=hibernate torpor_mib=64 torpor_opts=--poweroff=hybrid
	note_boot 1
	expect 1 normal-boot workload-started hibernating resumed token-ok counter-ok data-ok \
		poweroff
	expect_not 1 hibernate-failed token-bad counter-bad data-bad
	expect_line 1 "mem_sleep: .*deep" "S3 offered to the guest"
	expect_line 1 "^torpor: image saved: "
	expect_line 1 "^torpor: suspending to RAM"
	expect_line 1 "PM: suspend entry|ACPI: PM: Preparing to enter system sleep state S3" \
		"the kernel entered S3"
	expect_line 1 "^torpor: woke up from suspend to RAM, image discarded$"
	expect_no_line 1 "^torpor: resumed from hibernation" "a wake-up is not a resume"
	if [ "$(cat "$T/boot1.sig" 2>/dev/null)" = S2SUSPEND ]; then
		echo "ok: swap signature was S2SUSPEND while suspended"
	else
		fail "swap signature was '$(cat "$T/boot1.sig" 2>/dev/null)' while suspended, expected S2SUSPEND"
	fi
	expect_sig SWAPSPACE2 "after the wake-up"
	note "boot 1: suspended $(cat "$T/boot1.slept" 2>/dev/null), woken by system_wakeup"

	boot_sleep 2 cut torpor_test=hibernate torpor_mib=64 torpor_opts=--poweroff=hybrid
	expect 2 workload-started hibernating
	expect_not 2 resumed hibernate-failed poweroff
	if [ "$(cat "$T/boot2.sig" 2>/dev/null)" = S2SUSPEND ]; then
		echo "ok: swap signature was S2SUSPEND while suspended"
	else
		fail "swap signature was '$(cat "$T/boot2.sig" 2>/dev/null)' while suspended, expected S2SUSPEND"
	fi
	expect_sig S2SUSPEND "after the power loss while suspended"

	boot_resume 3 "after the resume"
	expect_line 3 "^torpor: resumed from hibernation"

	# shellcheck disable=SC2034 # read by boot
	BOOT_QEMU_OPTS="-global PIIX4_PM.disable_s3=1"
	boot 4 torpor_test=hibernate torpor_mib=64 torpor_opts=--poweroff=hybrid
	hibernated 4 "after suspend to RAM failed and the guest powered off"
	expect_line 4 "^torpor: warning: --poweroff=hybrid: this machine has no suspend to RAM"
	expect_line 4 "^torpor: warning: suspend to RAM failed: .*; powering off instead, the next boot resumes the image$"
	expect_line 4 "^torpor: powering off$"

	boot_resume 5 "after the resume"
	# shellcheck disable=SC2034
	BOOT_QEMU_OPTS=
	note_torpor
}

test_main
