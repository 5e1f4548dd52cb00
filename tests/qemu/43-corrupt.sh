#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 43-corrupt: boot 1 hibernates; the host keeps a copy of the swap disk and, for each
# case, boots a copy with one byte inverted: the magic of the root record, a field of
# the root record, the image map (meta blob) and the middle of a data block, with the
# offsets from torpor-resume --dump.  Each boot must name the check that failed, must
# not restore, must leave SWAPSPACE2 on the disk and must activate the swap area.
# A last boot gets the image with its root record rewritten as format 1 wrote it
# (imgpatch v1): an older torpor's image, refused for its version in one message.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="a flipped byte in root record, map or data block, or format 1: named, discarded, normal boot"

test_setup() {
	swap_create
}

# corrupt_boot N NAME OFFSET ERE: boot N on a copy of the image with the byte at
# OFFSET inverted; torpor must print a line matching ERE
corrupt_boot() {
	echo "## case $2: byte $3"
	cp --sparse=always "$T/image.img" "$T/swap.img"
	flip_byte "$T/swap.img" "$3" || fail "cannot flip byte $3"
	boot_normal "$1" torpor_swapon=1
	expect_line "$1" "$4" "$2"
	expect_no_line "$1" "^torpor: image loaded in" "no restore of a damaged image"
	expect_line "$1" "^# torpor-resume exited with status 0$"
	expect_sig SWAPSPACE2 "after the boot with a damaged $2"
	note "$2 (byte $3): $(sed -n 's/^[^ ]* \(torpor: \(rejected\|bad\) .*\)/\1/p' "$T/boot$1.console" | head -n 1)"
}

# v1_boot N: boot N on a copy of the image whose root record is format 1's
v1_boot() {
	echo "## case format 1"
	cp --sparse=always "$T/image.img" "$T/swap.img"
	imgpatch "$T/swap.img" v1 || fail "imgpatch v1 failed"
	boot_normal "$1" torpor_swapon=1
	expect_line "$1" "^torpor: rejected the hibernation image on /dev/vdb: written by an older torpor in format 1, this torpor reads format 2\$" \
		"format 1 refused for its version"
	expect_no_line "$1" "^torpor: rejected .*(header record|checksum)" "no talk of damage"
	expect_line "$1" "^torpor: discarded the hibernation image on /dev/vdb, continuing boot\$"
	expect_no_line "$1" "^torpor: image loaded in" "no restore of a format 1 image"
	expect_line "$1" "^# torpor-resume exited with status 0\$"
	expect_sig SWAPSPACE2 "after the boot with a format 1 image"
	note "format 1: $(sed -n 's/^[^ ]* \(torpor: rejected .*\)/\1/p' "$T/boot$1.console" | head -n 1)"
}

test_run() {
	hibernate_first 1
	image_dump >"$T/dump.txt" || fail "torpor-resume --dump failed on the image"
	sed 's/^/# dump: /' "$T/dump.txt" | grep -v "^# dump: block="
	cp --sparse=always "$T/swap.img" "$T/image.img"

	root=$(sed -n 's/^root_offset=//p' "$T/dump.txt")
	meta=$(sed -n 's/^meta_extent=\([0-9]*\) .*/\1/p' "$T/dump.txt" | head -n 1)
	nblk=$(sed -n 's/^nr_blocks=//p' "$T/dump.txt")
	blk=$(awk -v n="$nblk" '$1 ~ /^block=/ { sub(/^block=/, "") } $1 == int(n / 2) { print $2 + int($3 / 2); exit }' "$T/dump.txt")
	if [ -z "$root" ] || [ -z "$meta" ] || [ -z "$blk" ]; then
		fail "no root, meta or block offset in the dump"
		return
	fi
	rej="^torpor: rejected the hibernation image on /dev/vdb"
	corrupt_boot 2 "root record magic" "$root" "$rej: header record"
	corrupt_boot 3 "root record field" $((root + 24)) "$rej: header record"
	corrupt_boot 4 "image map" $((meta + 100)) "$rej: image map checksum"
	corrupt_boot 5 "data block" "$blk" \
		"^torpor: bad hibernation image on /dev/vdb: data block checksum \\(block $((nblk / 2))\\)"
	v1_boot 6
	rm -f "$T/image.img"
}

test_main
