#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench: torpor against the kernel's own hibernation, in the same VM, same run.
#
# Runs tests/qemu 01-roundtrip (torpor) and 90-kernel-reference (the kernel's
# writer and loader) REPEAT times each, alternating, on each test kernel; both
# hibernate the same 256 MiB workload twice and restore it twice.  Reports the
# median hibernate time (the "hibernating" marker to the VM's power-off), the
# median restore time (resume start to the workload running again) and the image
# size, with torpor/kernel ratios (below 1.00 = torpor is faster or smaller), and
# torpor's peak memory (resident KiB) in torpor-suspend and torpor-resume.
# Knobs: REPEAT (default 3), TORPOR_TEST_KERNEL (see tests/qemu/kernels.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/tests/qemu/out
repeat=${REPEAT:-3}
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# collect SCENARIO KEY: append the numbers of each summary to $data/KEY-{hib,res,size}
collect() {
	for s in "$out"/*-"$1"/summary; do
		[ -f "$s" ] || continue
		k=$(basename "$(dirname "$s")")
		k=${k%-"$1"}
		sed -n 's/.*hibernated in \([0-9.]*\) s.*/\1/p' "$s" >>"$data/$k-$2-hib"
		sed -n 's/.*restored in \([0-9.]*\) s.*/\1/p' "$s" >>"$data/$k-$2-res"
		# image size in MiB: torpor's "written" line, the kernel's compressed size (6.12)
		sed -n -e 's/.*MiB in memory, \([0-9]*\) MiB written.*/\1/p' \
			-e 's/.*Image size after compression: \([0-9]*\) kbytes.*/\1/p' "$s" |
			awk '{ print ($1 > 100000 ? int($1 / 1024) : $1) }' >>"$data/$k-$2-size"
		# torpor's peak memory (KiB) while writing and while loading
		sed -n 's/.*image saved: .*peak memory \([0-9]*\) KiB.*/\1/p' "$s" >>"$data/$k-$2-spk"
		sed -n 's/.*image loaded .*peak memory \([0-9]*\) KiB.*/\1/p' "$s" >>"$data/$k-$2-rpk"
	done
}

i=1
while [ "$i" -le "$repeat" ]; do
	echo "# round $i of $repeat"
	sh "$top/tests/qemu/run.sh" 01-roundtrip >/dev/null 2>&1 || echo "# round $i: 01-roundtrip failed"
	collect 01-roundtrip torpor
	sh "$top/tests/qemu/run.sh" 90-kernel-reference >/dev/null 2>&1 ||
		echo "# round $i: 90-kernel-reference failed"
	collect 90-kernel-reference kernel
	i=$((i + 1))
done

printf '%-10s %-10s %10s %10s %7s\n' kernel metric torpor kernel ratio
for f in "$data"/*-torpor-hib; do
	[ -f "$f" ] || continue
	k=$(basename "$f")
	k=${k%-torpor-hib}
	for m in hib res size spk rpk; do
		t=$(median <"$data/$k-torpor-$m")
		r=$(median <"$data/$k-kernel-$m" 2>/dev/null || echo -)
		case $m in
		hib) name="hibernate s" ;;
		res) name="restore s" ;;
		size) name="image MiB" ;;
		spk) name="suspend peak KiB" ;;
		rpk) name="resume peak KiB" ;;
		esac
		ratio=$(awk -v a="$t" -v b="$r" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }')
		printf '%-10s %-12s %8s %10s %7s\n' "$k" "$name" "$t" "$r" "$ratio"
	done
done
echo "# medians of $repeat rounds x 2 hibernations and 2 restores each"
