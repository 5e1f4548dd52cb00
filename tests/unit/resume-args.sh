#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-resume's arguments as the boot hooks pass them: --wait= takes what
# torpor.wait= takes (the dracut hook passes what is left of it, up to 999999 s),
# so a long torpor.wait= is no "malformed argument" that discards the image.
# Runs --dump on a plain file: nothing is written.  No root needed.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${TORPOR_RESUME:-$top/build/torpor-resume}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
failed=0

# a swap area without an image: --dump says so and exits 1, a usage error is 2
truncate -s 1M "$t/swap" && mkswap "$t/swap" >/dev/null 2>&1 || exit 1
for w in 0 5 3600 3601 7195 999999 2147483647; do
	n=$((n + 1))
	"$bin" --dump --device="$t/swap" --wait="$w" >"$t/out" 2>&1
	rc=$?
	if [ "$rc" -ne 2 ] && ! grep -q malformed "$t/out"; then
		echo "ok $n - --wait=$w is well formed"
	else
		failed=$((failed + 1))
		echo "not ok $n - --wait=$w is refused (status $rc): $(head -n 1 "$t/out")"
	fi
done
for w in 2147483648 x -1 ''; do
	n=$((n + 1))
	"$bin" --dump --device="$t/swap" --wait="$w" >"$t/out" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ]; then
		echo "ok $n - --wait=$w is malformed"
	else
		failed=$((failed + 1))
		echo "not ok $n - --wait=$w is accepted (status $rc)"
	fi
done
# the note of a hibernation that was not resumed (image.h, struct torpor_lost):
# said from a swap area that holds one (the fuzz seed's page), not from plain
# swap nor from a note with a byte changed
lost='was not resumed: ext4 1234 on /dev/vdc was mounted since hibernation'
tail -c +2 "$top/tests/fuzz/corpus/image/lost-note" >"$t/lost" && truncate -s 1M "$t/lost" || exit 1
cp "$t/lost" "$t/bad" && printf x | dd of="$t/bad" bs=1 seek=2200 conv=notrunc 2>/dev/null || exit 1
for f in lost swap bad; do
	n=$((n + 1))
	"$bin" --dump --device="$t/$f" >"$t/out" 2>&1
	if grep -q "^torpor: the last hibernation (written 2023-11-14 22:13 UTC by kernel 6.12.117-amd64) $lost\$" "$t/out"; then
		said=yes
	else
		said=no
	fi
	want=no
	[ "$f" != lost ] || want=yes
	if [ $said = $want ]; then
		echo "ok $n - the note of a lost hibernation in '$f': said $said"
	else
		failed=$((failed + 1))
		echo "not ok $n - the note of a lost hibernation in '$f': said $said"
		sed 's/^/# /' "$t/out"
	fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
