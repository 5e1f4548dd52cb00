#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 06-platform: torpor-suspend --poweroff=platform, ACPI S4 as the kernel's own
# hibernation does by default: PLATFORM_SUPPORT before CREATE_IMAGE, POWER_OFF
# after the commit.  Boot 1 hibernates; the kernel enters S4 (QEMU ends the VM),
# with no fallback; boot 2 resumes the image, the workload is intact.  Boot 3 has
# no S4 (-global PIIX4_PM.disable_s4=1): the platform power-off fails, torpor says
# so and powers off as with shutdown; boot 4 resumes that image.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="platform: ACPI S4 power-off and resume; without S4 the shutdown fallback"

test_setup() {
	swap_create
}

test_run() {
	boot_qmp 1 torpor_test=hibernate torpor_mib=64 torpor_opts=--poweroff=platform
	hibernated 1 "after hibernating through S4"
	expect_line 1 "disk: .*platform" "the firmware offers S4"
	expect_line 1 "^torpor: powering off through the platform \(ACPI S4\)$"
	# PLATFORM_SUPPORT: the kernel prepares S4 with the snapshot, before torpor saves
	if sed 's/^[^ ]* //' "$T/boot1.console" | awk '
		/ACPI: PM: Preparing to enter system sleep state S4/ && !saved { early = 1 }
		/^torpor: image saved/ { saved = 1 }
		END { exit !early }'; then
		echo "ok: boot 1: the kernel prepared S4 with the snapshot"
	else
		fail "boot 1: expected 'Preparing to enter system sleep state S4' before the image was saved"
	fi
	# POWER_OFF: the guest entered S4 (QEMU's SUSPEND_DISK), not a plain power-off
	if qmp_event 1 SUSPEND_DISK; then
		echo "ok: boot 1: QEMU saw the guest enter ACPI S4 (SUSPEND_DISK)"
	else
		fail "boot 1: QEMU sent no SUSPEND_DISK event: the guest did not enter S4 ($(tr '\n' ' ' <"$T/boot1.qmp" 2>/dev/null | cut -c1-300))"
	fi
	expect_no_line 1 "platform power-off \(ACPI S4\) failed" "S4 worked: no fallback"
	expect_no_line 1 "^torpor: powering off$" "S4 worked: no fallback"

	boot_resume 2 "after the resume"
	expect_line 2 "^torpor: resumed from hibernation"

	# shellcheck disable=SC2034 # read by boot
	BOOT_QEMU_OPTS="-global PIIX4_PM.disable_s4=1"
	boot_qmp 3 torpor_test=hibernate torpor_mib=64 torpor_opts=--poweroff=platform
	hibernated 3 "after the fallback power-off"
	expect_line 3 "^torpor: warning: --poweroff=platform: the firmware offers no ACPI S4"
	expect_line 3 "^torpor: warning: the platform power-off \(ACPI S4\) failed: "
	expect_line 3 "^torpor: powering off$"
	expect_no_line 3 "Preparing to enter system sleep state S4" "no S4 without the firmware's"
	if qmp_event 3 SHUTDOWN && ! qmp_event 3 SUSPEND_DISK; then
		echo "ok: boot 3: a plain power-off (SHUTDOWN, no SUSPEND_DISK)"
	else
		fail "boot 3: expected QEMU's SHUTDOWN and no SUSPEND_DISK ($(tr '\n' ' ' <"$T/boot3.qmp" 2>/dev/null | cut -c1-300))"
	fi

	boot_resume 4 "after the resume"
	# shellcheck disable=SC2034
	BOOT_QEMU_OPTS=
	note_torpor
}

test_main
