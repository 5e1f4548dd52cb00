#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 70-systemd-hibernate: a real Debian 13 system (systemd 257, its own kernel 6.12
# and initramfs-tools; Debian 12 with systemd 252 and 6.1 when
# TORPOR_DEBIAN_SUITE=bookworm), set up as Debian's installer leaves it:
# RESUME=UUID= of the swap area in /etc/initramfs-tools/conf.d/resume and no resume=
# on the kernel command line; torpor installed from its .deb with dpkg -i (its
# initramfs trigger builds RESUME= in).  Boot 1: logind's CanHibernate says yes,
# torpor-suspend --check passes (it read the guest's own zstd initramfs: torpor-resume
# and its hook are there; the area is the initramfs's RESUME=), a workload starts,
# `systemctl hibernate` runs torpor through the drop-in and powers off with
# torpor's signature (S2SUSPEND, not the kernel's S1SUSPEND) on the swap disk.
# Boot 2: the initramfs restores it, the same process goes on (same boot id), the
# workload has its token, memory and PID, the unit succeeded and the system-sleep
# hooks ran pre and post once each, and the warm-back, moved to a scope of its own
# by systemd-run, said its line in the journal.  Then a torpor.conf torpor-suspend refuses, with
# TORPOR_FALLBACK=none in a drop-in: `systemctl hibernate` fails the unit, with
# torpor's message in the journal, before any hook, and the system keeps running.
# Then the same torpor.conf with the fallback on (the package's default): the check
# fails, so `systemctl hibernate` is the kernel's own hibernation through
# systemd-sleep, which powers off with the kernel's S1SUSPEND on the swap disk.
# Boot 3 (torpor.debug): torpor-resume finds no torpor image and leaves the
# kernel's alone, initramfs-tools' own resume script (RESUME=) restores it, the same
# process goes on (same boot id, workload), the unit succeeded, and its journal says
# why torpor was not used (the check's message and torpor-sleep's hint).
# The guest side: guest/systemd/torpor-systemd-test.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-debian.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="systemctl hibernate on Debian runs torpor from the .deb: CanHibernate yes, hooks once, state survives; a failing check: the kernel's hibernation, or with TORPOR_FALLBACK=none a failed unit"

# only the .deb is installed: build/'s binaries are not used
# shellcheck disable=SC2034 # read by lib.sh
TEST_NEEDS_TORPOR=0
# Debian's installer: the area in initramfs-tools' RESUME=, none on the command line
# shellcheck disable=SC2034 # read by lib-debian.sh
SD_RESUME=
test_setup() {
	sd_setup resume-conf
}

test_run() {
	sd_boot 1
	note_boot 1
	expect 1 "can-hibernate yes" "check-exit 0" "hibernate-requested 0"
	# torpor-suspend read the guest's own initramfs (initramfs-tools, zstd)
	expect_line 1 "^guest: check: torpor: initramfs '/boot/initrd.img-[^']*' has torpor-resume for image format 2 and the initramfs-tools hook"
	# no resume= on the command line: the area is the one the initramfs's RESUME= names
	expect_line 1 "^guest: check: torpor: resume area from the initramfs's RESUME=UUID=$SD_SWAP_UUID " \
		"torpor-suspend took the area from initramfs-tools' RESUME="
	expect_not 1 after-sleep fresh-boot-after-hibernate no-swap workload-failed
	sed -n 's/^[^ ]* \(guest: .*\)/\1/p' "$T/boot1.console" | sed 's/^/## /'
	expect_sig S2SUSPEND "after systemctl hibernate (torpor's, not the kernel's S1SUSPEND)"
	_boot_id=$(marker_arg 1 sd-test-start)
	_wl=$(marker_arg 1 workload)
	_pid=${_wl%% *}
	_token=${_wl#* }
	if [ -z "$_boot_id" ] || [ -z "$_pid" ] || [ "$_pid" = 0 ]; then
		fail "boot 1 printed no boot id or workload"
	fi

	sd_boot 2
	note_boot 2
	sed -n 's/^[^ ]* \(guest: .*\)/\1/p' "$T/boot2.console" | sed 's/^/## /'
	expect 2 "after-sleep $_boot_id" "hibernate-unit success" "token-ok $_token" \
		"workload-pid $_pid" "hooks pre=1 post=1"
	expect_not 2 fresh-boot-after-hibernate no-post-hook token-bad
	expect_line 2 'torpor: image loaded in .*, restoring' "torpor-resume restored in the initramfs"
	# the warm-back ran after the resume, in a scope of its own, and said what it did
	expect 2 warm-back-scope
	expect_not 2 no-warm-back
	expect_line 2 "^=== warm-back torpor: warm-back: [0-9]+ MiB of files and [0-9]+ MiB of memory brought back in [0-9]+\.[0-9] s" \
		"the warm-back's line is in the journal"
	# TORPOR_FALLBACK=none: the check fails the unit, torpor says why, nothing stops
	expect 2 "hibernate2-requested 0" "failed-unit exit-code" failed-message fallback-off-said \
		"still-running $_boot_id" "hooks2 pre=1 post=1"
	expect_not 2 no-failed-unit
	# the fallback: the kernel's own hibernation through systemd-sleep
	expect 2 "hibernate3-requested 0"
	expect_not 2 after-sleep3 poweroff
	expect_sig S1SUSPEND "after the fallback (the kernel's, not torpor's S2SUSPEND)"

	# the area comes from RESUME= alone; torpor.debug: what torpor-resume found
	sd_boot 3 torpor_sd_test=hibernate torpor.debug
	note_boot 3
	sd_guest_lines 3
	expect_line 3 "torpor: local-top: start, device UUID=$SD_SWAP_UUID" \
		"torpor's boot script ran with initramfs-tools' RESUME="
	expect_line 3 "torpor: .*no torpor image on .*, normal boot" \
		"torpor-resume left the kernel's image alone"
	expect_line 3 "PM: .*[Ll]oading .*image" "the kernel loaded its own image"
	expect 3 "after-sleep3 $_boot_id" "hibernate3-job done" "token-ok $_token" \
		"workload-pid $_pid" "hooks3 pre=2 post=2" poweroff
	# the unit's journal says why torpor was not used: the check's message, then the hint
	expect_line 3 "^=== fallback-why torpor: /etc/torpor\.conf:[0-9]+: unknown key 'no_such_key'\$" \
		"the check's own message in the unit's journal"
	expect_line 3 "^=== fallback-hint $(ere_quote "torpor: hint: torpor not used: 'torpor-suspend --check' failed (above); using the kernel's own hibernation instead (/usr/lib/systemd/systemd-sleep hibernate)");" \
		"torpor-sleep's hint in the unit's journal"
	expect_not 3 sd-test-start fresh-boot-after-hibernate no-post-hook-3 unit-not-done-3 \
		token-bad torpor-sleep-state-3
	expect_sig SWAPSPACE2 "after the kernel's resume"
}

test_main
