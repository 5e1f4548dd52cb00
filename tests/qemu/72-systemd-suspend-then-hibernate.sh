#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 72-systemd-suspend-then-hibernate: systemctl suspend-then-hibernate on the Debian
# 13 guest of 70 (torpor from the .deb), QEMU with S3 and a monitor, sleep.conf's
# HibernateDelaySec=20s.  Boot 1: logind says CanSuspendThenHibernate=yes; the guest
# suspends to RAM with no image yet (the host reads plain swap while QEMU says
# suspended), the RTC alarm wakes it by itself, torpor-suspend hibernates it and
# the VM powers off with torpor's image on the swap disk.  Boot 2 resumes it through
# the initramfs-tools hook: the same system goes on, the unit succeeded, and the
# hooks ran pre and post once for each half (suspend, then hibernate).
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-debian.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="systemctl suspend-then-hibernate on Debian: suspend, the RTC alarm wakes it, torpor hibernates, the next boot resumes"
# only the .deb is installed: build/'s binaries are not used
# shellcheck disable=SC2034 # read by lib.sh
TEST_NEEDS_TORPOR=0

test_setup() {
	sd_setup
}

test_run() {
	sd_boot_sleep 1 watch torpor_sd_test=suspend-then-hibernate
	note_boot 1
	sed -n 's/^[^ ]* \(guest: .*\)/\1/p' "$T/boot1.console" | sed 's/^/## /'
	if [ "$(cat "$T/boot1.sig" 2>/dev/null)" = SWAPSPACE2 ]; then
		echo "ok: boot 1: plain swap (no image yet) while suspended to RAM"
	else
		fail "boot 1: the swap signature was '$(cat "$T/boot1.sig" 2>/dev/null)' while suspended, expected SWAPSPACE2"
	fi
	_id=$(marker_arg 1 sd-test-start)
	_wl=$(marker_arg 1 workload)
	{ [ -n "$_id" ] && [ -n "$_wl" ]; } || fail "boot 1 printed no boot id or workload"
	expect 1 "can-suspend-then-hibernate yes" "check-exit 0" sleep-requested "sth-requested 0"
	expect_not 1 after-sleep poweroff fresh-boot-after-hibernate
	expect_line 1 "PM: suspend entry|ACPI: PM: Preparing to enter system sleep state S3" \
		"the kernel entered S3"
	expect_sig S2SUSPEND "after the RTC alarm woke the guest and torpor hibernated it"

	sd_boot 2
	note_boot 2
	sed -n 's/^[^ ]* \(guest: .*\)/\1/p' "$T/boot2.console" | sed 's/^/## /'
	expect_line 2 'torpor: image loaded in .*, restoring' "torpor-resume restored in the initramfs"
	expect 2 "after-sleep $_id" "sth-unit success" alarm-set resumed "token-ok ${_wl#* }" \
		"workload-pid ${_wl%% *}" "hooks suspend=1/1 hibernate=1/1" poweroff
	expect_not 2 no-post-hook token-bad fresh-boot-after-hibernate sd-test-start
	expect_sig SWAPSPACE2 "after the resume"
}

test_main
