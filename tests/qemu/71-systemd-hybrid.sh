#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 71-systemd-hybrid: systemctl hybrid-sleep on the Debian 13 guest of 70 (torpor
# from the .deb), QEMU with S3 and a monitor.  (a) Boot 1: logind says
# CanHybridSleep=yes; systemctl hybrid-sleep writes torpor's image and suspends to
# RAM; the host sees S2SUSPEND on the swap disk while the guest is suspended and
# wakes it: torpor woke up and discarded the image, the unit succeeded, the workload
# runs on with its PID, the swap area is active with its SWAPSPACE2 signature again,
# the pre and post hooks ran once each.  (b) Boot 2: the same, but the host cuts the
# power while the guest is suspended; boot 3 resumes the image through the
# initramfs-tools hook and the same system goes on.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-debian.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="systemctl hybrid-sleep on Debian runs torpor: a wake-up discards the image, a power loss resumes it"
# only the .deb is installed: build/'s binaries are not used
# shellcheck disable=SC2034 # read by lib.sh
TEST_NEEDS_TORPOR=0

test_setup() {
	sd_setup
}

# expect_slept_sig N: the swap signature was torpor's while boot N was suspended
expect_slept_sig() {
	if [ "$(cat "$T/boot$1.sig" 2>/dev/null)" = S2SUSPEND ]; then
		echo "ok: boot $1: the swap signature was S2SUSPEND while suspended"
	else
		fail "boot $1: the swap signature was '$(cat "$T/boot$1.sig" 2>/dev/null)' while suspended, expected S2SUSPEND"
	fi
}

# guest_lines N: what the guest driver printed in boot N, for the log
guest_lines() { sed -n 's/^[^ ]* \(guest: .*\)/\1/p' "$T/boot$1.console" | sed 's/^/## /'; }

test_run() {
	sd_boot_sleep 1 wake torpor_sd_test=hybrid
	note_boot 1
	guest_lines 1
	expect_slept_sig 1
	_id=$(marker_arg 1 sd-test-start)
	_wl=$(marker_arg 1 workload)
	{ [ -n "$_id" ] && [ -n "$_wl" ]; } || fail "boot 1 printed no boot id or workload"
	expect 1 "can-hybrid-sleep yes" "check-exit 0" sleep-requested "hybrid-requested 0" \
		"after-sleep $_id" "hybrid-unit success" woke-up "token-ok ${_wl#* }" \
		"workload-pid ${_wl%% *}" "hooks pre=1 post=1" "swap-active /dev/vdb" \
		"swap-sig SWAPSPACE2" poweroff
	expect_not 1 resumed no-post-hook token-bad fresh-boot-after-hibernate
	expect_sig SWAPSPACE2 "after the wake-up"
	note "boot 1: suspended $(cat "$T/boot1.slept" 2>/dev/null), woken by system_wakeup"

	sd_boot_sleep 2 cut torpor_sd_test=hybrid
	guest_lines 2
	expect_slept_sig 2
	expect 2 "can-hybrid-sleep yes" sleep-requested
	expect_not 2 after-sleep poweroff
	expect_sig S2SUSPEND "after the power loss while suspended"
	_id=$(marker_arg 2 sd-test-start)
	_wl=$(marker_arg 2 workload)
	{ [ -n "$_id" ] && [ -n "$_wl" ]; } || fail "boot 2 printed no boot id or workload"

	sd_boot 3
	note_boot 3
	guest_lines 3
	expect_line 3 'torpor: image loaded in .*, restoring' "torpor-resume restored in the initramfs"
	expect 3 "after-sleep $_id" "hybrid-unit success" resumed "token-ok ${_wl#* }" \
		"workload-pid ${_wl%% *}" "hooks pre=1 post=1" "swap-active /dev/vdb" \
		"swap-sig SWAPSPACE2" poweroff
	expect_not 3 woke-up no-post-hook token-bad fresh-boot-after-hibernate sd-test-start
	expect_sig SWAPSPACE2 "after the resume"
}

test_main
