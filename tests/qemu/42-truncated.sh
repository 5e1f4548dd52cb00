#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 42-truncated: boot 1 hibernates; the host cuts the swap disk short, so that the
# image's data extents (first case) or the image map itself (second case) lie beyond
# the end of the device.  Each resume boot must reject the image before loading any
# of it, leave SWAPSPACE2, boot normally and activate the swap area.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="swap disk cut short under the image: rejected, discarded, normal boot"

test_setup() {
	swap_create
}

# truncated_boot N NAME SIZE ERE: boot N on a copy of the image cut to SIZE bytes
truncated_boot() {
	echo "## case $2: device cut to $3 bytes"
	cp --sparse=always "$T/image.img" "$T/swap.img"
	truncate -s "$3" "$T/swap.img"
	boot "$1" torpor_test=boot torpor_swapon=1
	note_boot "$1"
	expect "$1" normal-boot swapon-ok poweroff
	expect_not "$1" resumed
	expect_line "$1" "$4" "$2"
	expect_line "$1" "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line "$1" "^torpor: restoring" "nothing loaded from a truncated image"
	expect_sig SWAPSPACE2 "after the boot with $2"
	note "$2 (cut to $3 bytes): $(sed -n 's/^[^ ]* \(torpor: rejected .*\)/\1/p' "$T/boot$1.console" | head -n 1)"
}

test_run() {
	boot 1 torpor_test=hibernate torpor_mib=64
	note_boot 1
	expect 1 workload-started hibernating
	expect_not 1 resumed hibernate-failed poweroff
	expect_sig S2SUSPEND "after hibernating"
	image_dump >"$T/dump.txt" || fail "torpor-resume --dump failed on the image"
	grep -v "^block=" "$T/dump.txt" | sed 's/^/# dump: /'
	cp --sparse=always "$T/swap.img" "$T/image.img"

	# the end of the last data extent, and where the image map starts
	end=$(awk '/^extent=/ { sub(/^extent=/, ""); e = $1 + $2 * 4096; if (e > m) m = e } END { print m }' "$T/dump.txt")
	meta=$(sed -n 's/^meta_extent=\([0-9]*\) .*/\1/p' "$T/dump.txt" | head -n 1)
	if [ -z "$end" ] || [ "$end" -eq 0 ] || [ -z "$meta" ]; then
		fail "no extents in the dump"
		return
	fi
	rej="^torpor: rejected the hibernation image on /dev/vdb"
	# a whole number of MiB below the end of the data, past the map
	cut=$(((end / 1048576 - 1) * 1048576))
	if [ "$cut" -le $((meta + 4096)) ]; then
		fail "the image is too small to cut its data short ($end bytes)"
		return
	fi
	truncated_boot 2 "data beyond the end" "$cut" "$rej: image map \\(inconsistent|$rej: .*extent"
	# cut where the map starts: the map itself is beyond the end
	truncated_boot 3 "map beyond the end" "$(((meta / 4096) * 4096))" "$rej: meta extents"
	rm -f "$T/image.img"
}

test_main
