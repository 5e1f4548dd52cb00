# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# The whole trip (sourced by 92-trip and 93-trip-kernel, make bench's third part):
# a workload of TORPOR_TEST_MIB MiB of memory and a file set of
# TORPOR_TEST_FILESET_MIB MiB (default the same) on a disk of its own (/dev/vdc, the
# last PCI slot, read only), read into the page cache and kept mapped.  Boot 1 touches
# the working set, hibernates with TRIP_HIB (torpor or kernel); boot 2 resumes it, and
# the restored system touches it again at once, then checks token, counter and data.
# TORPOR_TRIP_OPTS: torpor-suspend's options (comma separated), e.g. --image-size=kernel.
# The summary gets both touches, hibernated in and restored in, and torpor's lines.

TRIP_MIB=${TORPOR_TEST_FILESET_MIB:-$TEST_MIB}

# the file set's disk, made once for each size, flushed and kept in $OUT (read only to
# the guests): a round then writes nothing on the host but the guest's image
TRIP_FILES=$OUT/trip-files-$TRIP_MIB.img

trip_setup() {
	swap_create || return 1
	[ -f "$TRIP_FILES" ] && return 0
	"$OUT/workload" fill "$TRIP_FILES.$$" "$TRIP_MIB" && sync "$TRIP_FILES.$$" &&
		mv "$TRIP_FILES.$$" "$TRIP_FILES"
}

# trip_touch N WHEN: boot N's touch WHEN, noted
trip_touch() {
	_tl=$(sed -n "s/^[^ ]* # \(touch $2: [0-9.]* ms\) (\([0-9]*\) MiB of memory, \([0-9]*\) MiB of the file set; resident at the start: \([0-9]*\) and \([0-9]*\) MiB).*/\1, resident \4 of \2 + \5 of \3 MiB/p" \
		"$T/boot$1.console" | tail -n 1)
	if [ -n "$_tl" ]; then
		note "$_tl"
	else
		fail "boot $1: no touch $2 line"
	fi
}

# shellcheck disable=SC2153 # TRIP_HIB: set by the scenario
trip_run() {
	# shellcheck disable=SC2034 # read by boot
	BOOT_QEMU_OPTS="-drive file=$TRIP_FILES,format=raw,if=none,id=files,readonly=on -device virtio-blk-pci,drive=files,addr=0x1f"
	# shellcheck disable=SC2086 # empty or one word
	boot 1 torpor_hib="$TRIP_HIB" torpor_test=trip torpor_fileset=/dev/vdc \
		${TORPOR_TRIP_OPTS:+torpor_opts=$TORPOR_TRIP_OPTS}
	note_boot 1
	expect 1 normal-boot workload-started touched-before hibernating
	expect_not 1 resumed hibernate-failed touch-failed poweroff
	trip_touch 1 before
	# the reference for the warm-up: the file set read once, cold, in 1 MiB reads
	_fr=$(sed -n 's/^[^ ]* workload: file set of \([0-9]* MiB read in [0-9.]* ms\).*/\1/p' "$T/boot1.console")
	[ -z "$_fr" ] || note "file set: $_fr"
	if [ "$TRIP_HIB" = kernel ]; then
		expect_sig S1SUSPEND "after hibernating"
	else
		expect_sig S2SUSPEND "after hibernating"
	fi

	boot 2 torpor_hib="$TRIP_HIB" torpor_test=boot
	note_boot 2
	expect 2 resumed touched-after token-ok counter-ok data-ok poweroff
	expect_not 2 touch-failed
	trip_touch 2 after
	expect_sig SWAPSPACE2 "after the resume"
	if [ "$TRIP_HIB" = kernel ]; then
		note_kernel
	else
		note_torpor
		for _c in "$T"/boot*.console; do
			sed -n 's/^[^ ]* \(torpor: warm-back: .*\)/\1/p' "$_c" |
				while read -r _l; do note "$(basename "$_c" .console): $_l"; done
		done
	fi
}
