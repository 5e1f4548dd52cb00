#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 62-efi-location: an EFI boot (OVMF firmware, the kernel loaded by QEMU) whose
# kernel command line has no resume=: torpor-suspend names the swap area in the
# EFI variable TorporHibernateLocation, torpor-resume finds it there and removes
# it before it uses it.  OVMF's code is read only; a copy of its variable store
# ($T/efivars.fd) keeps the variables from one boot to the next.
#  1. nothing names the area (no resume=, no RESUME=): torpor-suspend takes the
#     only swap area, writes the variable, hibernates;
#  2. torpor-resume reads the variable and restores; the workload passes its
#     checks, the variable is gone; the guest hibernates again (written again);
#  3. noresume: torpor-resume reads the variable, removes it, discards the image:
#     normal boot, no variable, plain swap;
#  4. the power is cut before the commit: the variable is left, with no image;
#  5. resume= on the command line, so the boot does not read the leftover: the
#     hibernation removes it (else a later boot would take it over RESUME=);
#  6. resume=: restored, and the variable is still gone.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="EFI without resume=: TorporHibernateLocation names the area, read once"

OVMF_CODE=${TORPOR_OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
OVMF_VARS=${TORPOR_OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}
EFI_VAR=TorporHibernateLocation-fffe292d-83bc-43f2-b2ca-553590a45322

test_setup() {
	if [ ! -r "$OVMF_CODE" ] || [ ! -r "$OVMF_VARS" ]; then
		echo "no OVMF firmware at $OVMF_CODE (sh tests/deps.sh qemu installs ovmf)"
		return 1
	fi
	swap_create && cp "$OVMF_VARS" "$T/efivars.fd"
}

# efi_cmdline [resume=DEV]: the parameters of the next EFI boots
efi_cmdline() {
	# shellcheck disable=SC2034 # read by boot (lib-boot.sh)
	BOOT_CMDLINE="console=ttyS0 panic=-1 ${1:+$1 }torpor_mib=32 torpor_efi=1"
}

test_run() {
	# pflash: the firmware read only, the variable store this scenario's own
	# shellcheck disable=SC2034 # read by boot (lib-boot.sh)
	BOOT_QEMU_OPTS="-drive if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
	BOOT_QEMU_OPTS="$BOOT_QEMU_OPTS -drive if=pflash,format=raw,unit=1,file=$T/efivars.fd"
	efi_cmdline

	boot 1 torpor_test=hibernate torpor_cycles=2 torpor_verbose=1
	hibernated 1 "after hibernating" normal-boot efi-var-absent
	expect_line 1 "resume area: the only active swap area, '/dev/vdb'" \
		"nothing names the area: torpor-suspend takes the only swap area"

	boot 2 torpor_test=boot torpor.debug
	note_boot 2
	expect_line 2 "EFI variable $EFI_VAR names UUID=" "torpor-resume read the variable"
	expect_checks 2
	expect 2 efi-var-absent hibernating
	expect_not 2 poweroff normal-boot
	expect_sig S2SUSPEND "after hibernating again"

	boot 3 torpor_test=boot noresume
	note_boot 3
	expect_line 3 "noresume given: not restoring the image on" "noresume discards the image"
	expect 3 normal-boot efi-var-absent poweroff
	expect_not 3 resumed
	expect_sig SWAPSPACE2 "after the noresume boot"

	boot_cut 4 "^torpor: test: stalling" torpor_test=hibernate torpor_stall=commit
	expect 4 workload-started hibernating
	expect_not 4 resumed poweroff

	efi_cmdline resume=/dev/vdb
	boot 5 torpor_test=hibernate
	hibernated 5 "after hibernating by resume=" normal-boot efi-var-present
	expect_line 5 "removed EFI variable $EFI_VAR, left by an earlier hibernation" \
		"the hibernation removed the leftover variable"

	boot_resume 6 "after the last resume"
	expect 6 efi-var-absent
	note_torpor
}

test_main
