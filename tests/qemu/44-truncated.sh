#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 44-truncated: boot 1 hibernates; the host then boots copies of the swap disk that
# (1) is cut short in the middle of the image's data (the image map, written after
# the data, is cut off with it), (2) has a well-formed header (checksum fixed up)
# whose map extent lies past the end of the device, (3) has a well-formed map whose
# data extent runs past the end.  The extents are moved with imgpatch.c.  Each boot
# must reject the image before loading any of it, leave SWAPSPACE2 and boot
# normally; (2) and (3) activate the swap area afterwards (the kernel refuses the
# cut one in (1) whatever its signature: "Swap area shorter than signature indicates").
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="truncated disk, header or map pointing past the end: rejected, discarded, normal boot"

test_setup() {
	swap_create
}

# truncated_boot N NAME SIZE ERE: boot N on a copy of the image cut to SIZE bytes
truncated_boot() {
	echo "## case $2: device cut to $3 bytes"
	cp --sparse=always "$T/image.img" "$T/swap.img"
	truncate -s "$3" "$T/swap.img"
	echo "# cut $(basename "$T/swap.img") to $3 bytes"
	# no swapon: the kernel refuses a swap area shorter than its own header says
	boot_normal "$1"
	expect_line "$1" "$4" "$2"
	expect_line "$1" "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line "$1" "^torpor: restoring" "nothing loaded from a truncated image"
	expect_sig SWAPSPACE2 "after the boot with $2"
	note "$2 (cut to $3 bytes): $(sed -n 's/^[^ ]* \(torpor: rejected .*\)/\1/p' "$T/boot$1.console" | head -n 1)"
}

# patched_boot N NAME ERE root|map INDEX OFFSET PAGES: boot N on a copy of the image
# whose extent was moved with imgpatch (checksums intact, pointing elsewhere)
patched_boot() {
	_b=$1
	_name=$2
	_re=$3
	shift 3
	echo "## case $_name"
	cp --sparse=always "$T/image.img" "$T/swap.img"
	imgpatch "$T/swap.img" "$@" || fail "imgpatch $* failed"
	boot_normal "$_b" torpor_swapon=1
	expect_line "$_b" "$_re" "$_name"
	expect_line "$_b" "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_no_line "$_b" "^torpor: restoring" "nothing loaded from outside the device"
	expect_sig SWAPSPACE2 "after the boot with $_name"
	note "$_name: $(sed -n 's/^[^ ]* \(torpor: rejected .*\)/\1/p' "$T/boot$_b.console" | head -n 1)"
}

test_run() {
	hibernate_first 1
	image_dump >"$T/dump.txt" || fail "torpor-resume --dump failed on the image"
	grep -v "^block=" "$T/dump.txt" | sed 's/^/# dump: /'
	cp --sparse=always "$T/swap.img" "$T/image.img"

	# the image map follows the data: cutting into the data cuts the map off too
	end=$(awk '/^extent=/ { sub(/^extent=/, ""); e = $1 + $2 * 4096; if (e > m) m = e } END { print m + 0 }' "$T/dump.txt")
	size=$(stat -c %s "$T/image.img")
	if [ "$end" -lt 4194304 ]; then
		fail "no data extents in the dump"
		return
	fi
	rej="^torpor: rejected the hibernation image on /dev/vdb"
	truncated_boot 2 "a device cut in the middle of the data" $((end / 2 / 4096 * 4096)) \
		"$rej: meta extents \\(outside the device"
	# well-formed records that point past the end of the device
	patched_boot 3 "a header whose map lies past the end" "$rej: meta extents \\(outside the device" \
		root 0 "$size" 3
	patched_boot 4 "a map whose data extent runs past the end" "$rej: image map \\(inconsistent" \
		map 0 4096 $((size / 4096))
	rm -f "$T/image.img"
}

test_main
