#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench: torpor against the kernel's own hibernation, phase by phase, in the same
# VM and the same run.
#
# For each workload fill (BENCH_MIB) and vCPU count (BENCH_SMP), on each test kernel,
# runs tests/qemu 01-roundtrip (torpor) and 90-kernel-reference (the kernel's writer
# and loader) REPEAT times, alternating, torpor first.  Each round hibernates the
# workload twice and restores it twice.  Per kernel, fill and vCPU count it prints the
# medians of each metric, torpor's, the kernel's and torpor/kernel (below 1.00 =
# torpor is faster or smaller).  The phases are the times the guest prints:
#   write s       snapshot taken -> image committed: torpor-suspend's "image saved:
#                 ... in S s" (CREATE_IMAGE returned 1 -> root record on the disk),
#                 the kernel's "PM: hibernation: Wrote N kbytes in S seconds" (its
#                 save loop: first data page -> last write done)
#   load s        first read -> last page fed: torpor-resume's "image loaded in N ms",
#                 the kernel's "PM: hibernation: Read N kbytes in S seconds"
# and end to end, from the console's timestamps (see note_boot in tests/qemu/lib-boot.sh):
#   hibernate s   the "=== hibernating" marker -> the VM's power-off
#   restore s     "=== resume-start" (before the resume step) -> "=== resumed"
# and sizes:
#   snapshot MiB  what the snapshot holds: torpor's "X MiB in memory", the kernel's
#                 Wrote kbytes (both uncompressed)
#   image MiB     the swap disk's allocated MiB after the first hibernation: the disk
#                 is a fresh sparse file, so this is the image on the disk, either writer
#   compress threads  torpor's "N compression threads", the kernel's "Using N
#                 thread(s) for compression"
#   suspend peak KiB, resume peak KiB: torpor's peak resident memory (kernel: -);
#                 resume worker buffer KiB: what each worker process allocates (it shares the ring and tables)
# and where torpor's time went in each phase (its rounds run with torpor.debug and -v):
# the write phase's reading, slots, waits, staging, compressing and writing, the load
# phase's worker processes, waiting for them, feeding, and their reading, hashing and decoding (summed), in ms
# of wall clock (on one vCPU time-sharing counts twice), then each phase's CPU time (getrusage): all threads and
# the writer's thread; the main process and the worker processes.  Last, a table of
# the swap-slot allocation time on each kernel, per MiB of image.
# The guest gets 1024 MiB, or 4 x the fill if that is more: the kernel needs free
# memory about the size of the snapshot, and its default image_size (2/5 of RAM) must
# hold the whole snapshot, or the kernel first reclaims memory down to image_size,
# swapping the workload out (with 3 x a 1 GiB fill, the second hibernation's snapshot
# came out at 850 MiB).  The swap disk is 1G, or 2 x the fill.
# A round whose scenario fails (any of its checks) is reported and not counted, and
# the exit status is then 1.  Raw values go to tests/qemu/out/bench/results, one a
# line: kernel MiB smp round tool metric value; beside it each round's summary, and the
# log of each failed one.
#
# The whole trip (BENCH_PARTS, default "phases trip"; "trip" alone runs only this
# part): tests/qemu 92-trip (torpor) and 93-trip-kernel (the kernel's), alternating,
# torpor first, for each working set in BENCH_TRIP_GIB (GiB, default "1 2 4"), at
# BENCH_TRIP_SMP vCPUs (default 2), on the first test kernel (BENCH_TRIP_KERNEL, default
# trixie, Debian 13's).  A working set of G GiB is G/2 GiB of the workload's memory
# and G/2 GiB of a file set on a disk of its own, read into the page cache and kept
# mapped; the guest gets P % of G for each P in BENCH_TRIP_MEM_PCT (default "150 250").
# At 150 the working set is above the kernel's default image_size (2/5 of memory) and
# above the largest snapshot the kernel can take at all (about half of memory: it needs
# a free page for each page it keeps), as on a desktop that uses its memory: any writer
# must evict, and what counts is how fast it comes back.  At 250 the working set is 2/5
# of memory: the kernel's default evicts some of it, the largest snapshot need not.  The
# swap disk is G GiB.  BENCH_TRIP_VARIANTS (default "torpor kernel ksize", run in that order each
# round): torpor as configured by default, the kernel's hibernation, and torpor with
# --image-size=kernel (the kernel's 2/5 of memory, as before image_size = auto), whose
# column (ksize) tells what auto costs and gains.  Each round hibernates once and
# resumes once:
#   touch before s  the workload touches its whole working set (reading every word, 16 MiB
#                   of memory and 16 MiB of the file set in turn) before hibernating
#   touch after s   the same touch, started as soon as the resumed system runs
#   warm-up s       touch after - touch before: what the resume left to fault back
#   trip s          hibernate s + restore s + warm-up s
#   write/load s per GiB  each phase per GiB of snapshot (torpor's auto keeps more)
#   not resident MiB  the working set that was not in memory when the touch after
#                   began (mincore: swapped out or dropped, and not yet brought back)
#   reading it back s  not resident MiB at the speed of the file set's cold read: what
#                   the warm-up would cost if it were all read back at that speed
#   file set read s the reference: the file set read once, cold (1 MiB reads), when the
#                   workload starts: what bringing it all back from the disk costs
# and write s, load s, hibernate s, restore s, snapshot MiB, image MiB as above;
# torpor's warm-back line (what it brought back, and in how long).  Done when, per
# issue 26: torpor's warm-up at most 0.3 of the kernel's and its touch after at most
# 1.25 x its touch before, its trip below the kernel's at every size.
#
# Knobs: REPEAT (rounds, default 3); BENCH_MIB (fills in MiB, default "256 1024");
# BENCH_SMP (vCPU counts, default "1 2"); BENCH_MEM (guest MiB for every fill, default
# as above); TORPOR_TEST_KERNEL (the kernels, see tests/qemu/kernels.sh);
# TORPOR_QEMU_TIMEOUT (seconds per boot, default 180, 600 above 256 MiB);
# BENCH_REPORT=FILE prints the tables of an earlier run's results file, running nothing.
#
# Duration, measured under TCG on 2 host cores shared with other QEMU guests (load
# average 4-5), one round on two kernels (6.1 and 6.12, torpor and kernel each; the
# default is now three, so add half again):
# 256 MiB about 5 min at -smp 1 and 4-6 min at -smp 2; 1 GiB 6-12 min at -smp 1 and
# about as long at -smp 2.  So the default matrix (3 rounds x 256 and 1024 MiB x
# -smp 1 and 2) takes about 1.5 hours, up to 2 on a loaded host;
# REPEAT=1 BENCH_MIB=256 BENCH_SMP=1 about 5 min.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
qdir=$top/tests/qemu
out=$qdir/out
res=$out/bench
raw=$res/results
repeat=${REPEAT:-3}
mibs=${BENCH_MIB:-256 1024}
smps=${BENCH_SMP:-1 2}
parts=${BENCH_PARTS:-phases trip}
trip_gibs=${BENCH_TRIP_GIB:-1 2 4}
trip_smp=${BENCH_TRIP_SMP:-2}
trip_kernel=${BENCH_TRIP_KERNEL:-trixie}
trip_variants=${BENCH_TRIP_VARIANTS:-torpor kernel ksize}
trip_pcts=${BENCH_TRIP_MEM_PCT:-150 250}
failed=0

say() { echo "# $*"; }

median() {
	sort -n | awk '{ v[NR] = $1 }
	END {
		if (NR == 0)
			print "-"
		else if (NR % 2)
			print v[(NR + 1) / 2]
		else if ((m = (v[NR / 2] + v[NR / 2 + 1]) / 2) == int(m))
			print m
		else
			printf "%.2f\n", m
	}'
}

# collect TOOL SUMMARY PREFIX: the numbers of one scenario's summary, as lines
# "PREFIX metric value" of $raw
collect() {
	{
		sed -n 's/.*hibernated in \([0-9.]*\) s.*/hib \1/p' "$2"
		sed -n 's/.*restored in \([0-9.]*\) s.*/res \1/p' "$2"
		sed -n 's/^boot 1: .*swap disk \([0-9]*\) MiB allocated.*/disk \1/p' "$2"
		# the whole trip (92-trip, 93-trip-kernel): both touches, and the warm-up and
		# the trip of this round
		awk '/^touch before: / { b = $3 } /^touch after: / { a = $3 }
			/hibernated in [0-9.]* s/ { h = $0; sub(/.*hibernated in /, "", h); sub(/ s.*/, "", h) }
			/restored in [0-9.]* s/ { r = $0; sub(/.*restored in /, "", r); sub(/ s.*/, "", r) }
			END {
				if (b == "" || a == "")
					exit
				printf "tb %.3f\nta %.3f\nwarm %.3f\n", b / 1000, a / 1000, (a - b) / 1000
				if (h != "" && r != "")
					printf "trip %.3f\n", h + r + (a - b) / 1000
			}' "$2"
		# what the resume left out: the working set not resident when the touch began
		sed -n 's/^touch after: [0-9.]* ms, resident \([0-9]*\) of \([0-9]*\) + \([0-9]*\) of \([0-9]*\) MiB/\1 \2 \3 \4/p' "$2" |
			awk '{ printf "evicted %d\n", $2 - $1 + $4 - $3 }'
		sed -n 's/^file set: [0-9]* MiB read in \([0-9.]*\) ms/fsread \1/p' "$2" |
			awk '{ printf "fsread %.3f\n", $2 / 1000 }'
		sed -n 's/.*torpor: warm-back: \([0-9]*\) MiB of files and \([0-9]*\) MiB of memory brought back in \([0-9.]*\) s.*/wb_file \1\nwb_mem \2\nwb_s \3/p' "$2"
		# one sed a metric: an s///p that matched has replaced the line for the next -e
		if [ "$1" != kernel ]; then
			sed -n 's/.*torpor: image saved: .* in \([0-9.]*\) s, .*/write \1/p' "$2"
			sed -n 's/.*torpor: image saved: \([0-9]*\) MiB in memory.*/snap \1/p' "$2"
			sed -n 's/.*torpor: image loaded in \([0-9]*\) ms.*/loadms \1/p' "$2"
			sed -n 's/.*torpor: image saved: .*peak memory \([0-9]*\) KiB.*/spk \1/p' "$2"
			sed -n 's/.*torpor: image loaded .*peak memory \([0-9]*\) KiB.*/rpk \1/p' "$2"
			sed -n 's/.*torpor: image loaded .*KiB and a \([0-9]*\) KiB buffer in each of.*/rwk \1/p' "$2"
			sed -n 's/.*torpor: image saved: .* \([0-9]*\) compression threads*$/thr \1/p' "$2"
		else
			sed -n 's/.*kernel: .*Wrote [0-9]* kbytes in \([0-9.]*\) seconds.*/write \1/p' "$2"
			sed -n 's/.*kernel: .*Wrote \([0-9]*\) kbytes.*/snapkb \1/p' "$2"
			sed -n 's/.*kernel: .*Read [0-9]* kbytes in \([0-9.]*\) seconds.*/load \1/p' "$2"
			sed -n 's/.*kernel: Using \([0-9]*\) thread(s) for \([a-z0-9]* \)*compression.*/thr \1/p' "$2"
		fi
		# where torpor's time went (torpor.debug and -v: TORPOR_TEST_DEBUG=1), from the log
		if [ "$1" != kernel ] && [ -f "${4:-}" ]; then
			tr -d '\r' <"$4" | sed -n 's/.*torpor: debug: where the time went: reading the snapshot \([0-9]*\) ms, slots \([0-9]*\) ms, waiting for compression \([0-9]*\) ms, staging \([0-9]*\) ms, waiting for writes \([0-9]*\) ms; compressing \([0-9]*\) ms (all threads), writing \([0-9]*\) ms.*/w_read \1\nw_slots \2\nw_waitpack \3\nw_stage \4\nw_waitwr \5\nw_pack \6\nw_write \7/p'
			tr -d '\r' <"$4" | sed -n 's/.*torpor: debug: load phase: waiting for the workers \([0-9]*\) ms, feeding the kernel \([0-9]*\) ms; reading \([0-9]*\) ms, checking hashes \([0-9]*\) ms, decoding \([0-9]*\) ms (summed over \([0-9]*\) workers).*/l_wait \1\nl_feed \2\nl_read \3\nl_hash \4\nl_dec \5\nl_workers \6/p'
			tr -d '\r' <"$4" | sed -n 's/.*torpor: debug: write phase CPU time: \([0-9]*\) ms in all threads, \([0-9]*\) ms in the writer.s; the commit took \([0-9]*\) ms, \([0-9]*\) ms of it in fdatasync.*/w_cpu \1\nw_cpuw \2\nw_commit \3\nw_sync \4/p'
			tr -d '\r' <"$4" | sed -n 's/.*torpor: debug: load phase CPU time: \([0-9]*\) ms in this process.*, \([0-9]*\) ms in the workers.*/l_cpu \1\nl_cpuw \2/p'
		fi
	} | awk -v p="$3" '
	$1 == "loadms" { printf "%s load %.3f\n", p, $2 / 1000; next }
	$1 == "snapkb" { printf "%s snap %.0f\n", p, $2 / 1024; next }
	{ print p, $1, $2 }' >>"$raw"
}

# early_oops LOG: a boot in LOG oopsed on an int3 before its kernel ran /init (the
# kernel's "Run /init as init process"): nothing of torpor's or the test's had run.
# Any other oops, or one after /init (a resume boot never prints the test init's
# own "=== init", the restored system carries on), is a failure like any other.
early_oops() {
	tr -d '\r' <"$1" | awk '/^## boot [0-9]*:/ { init = 0 } /Run \/init as init process/ { init = 1 }
		/Oops: int3/ && !init { found = 1 } END { exit !found }'
}

# trip_gib FILL: the working set's GiB of the trip's fill tripG or tripG-P
trip_gib() {
	_tg=${1#trip}
	echo "${_tg%%-*}"
}

# fill_name FILL: "256 MiB", or for the trip's "tripG" "G GiB trip"
fill_name() {
	case $1 in
	trip*-*) echo "$(trip_gib "$1") GiB trip, guest ${1##*-} %" ;;
	trip*) echo "${1#trip} GiB trip" ;;
	*) echo "$1 MiB" ;;
	esac
}

# run_one TOOL SCENARIO PACKAGE MIB SMP ROUND: one scenario on one kernel; its
# numbers go to $raw, or a "failed" line and its log to $res
run_one() {
	_tap=$res/tap
	_t0=$(date +%s)
	# torpor's rounds with torpor.debug and -v: where its time went (a few lines more)
	_dbg=
	[ "$1" = kernel ] || _dbg=1
	TORPOR_TEST_KERNEL=$3 TORPOR_TEST_MIB=${anon:-$4} TORPOR_TEST_SMP=$5 TORPOR_QEMU_MEM=$mem \
		TORPOR_TEST_FILESET_MIB=${anon:-} TORPOR_TRIP_OPTS=${trip_opts:-} \
		TORPOR_TEST_SWAP=$swap TORPOR_QEMU_TIMEOUT=$tmo TORPOR_TEST_DEBUG=$_dbg TORPOR_TEST_MTTCG=1 \
		TORPOR_TEST_JOBS=1 sh "$qdir/run.sh" "$2" >"$_tap" 2>&1
	_took=$(($(date +%s) - _t0))
	_k=$(sed -n "s/^ok [0-9]* - \([^:]*\): $2: .*/\1/p" "$_tap")
	if [ -n "$_k" ] && [ -f "$out/$_k-$2/summary" ]; then
		cp "$out/$_k-$2/summary" "$res/$_k-$(fill_name "$4" | tr -d ' ')-smp$5-r$6-$1.summary"
		collect "$1" "$out/$_k-$2/summary" "$_k $4 $5 $6 $1" "$out/$_k-$2.log"
		say "$(fill_name "$4"), -smp $5, round $6: $_k: $1 ($2) ok, $_took s"
		# each round writes twice and loads twice (the trip: once): say when a line
		# was not found
		for _m in write load hib res; do
			_n=$(vals "$_k" "$4" "$5" "$1" "$_m" "$6" | wc -l)
			[ "$_n" -eq "$per_round" ] ||
				say "  warning: $_n $_m values in this round, not $per_round (see the summary)"
		done
		return 0
	fi
	_k=$(sed -n 's/^not ok [0-9]* - \([^:]*\): .*/\1/p' "$_tap" | head -n 1)
	[ -n "$_k" ] || _k=$3
	_log=$res/$_k-$(fill_name "$4" | tr -d ' ')-smp$5-r$6-$1.log
	cp "$out/$_k-$2.log" "$_log" 2>/dev/null || cp "$_tap" "$_log"
	# multi-threaded TCG (QEMU 7.2) now and then makes the guest kernel oops on the
	# int3 of its own code patching while it boots, before /init: no code of ours
	# or of the test has run, so the round is run again (twice at most), and said so
	if [ "${_retry:-0}" -lt 2 ] && early_oops "$_log"; then
		_retry=$((${_retry:-0} + 1))
		# kept under its own name: the run again writes the round's log
		mv "$_log" "${_log%.log}-oops$_retry.log"
		_log=${_log%.log}-oops$_retry.log
		say "$(fill_name "$4"), -smp $5, round $6: $_k: $1 ($2): the guest kernel oopsed on an int3 while booting, before /init (see ${_log#"$top"/}): running it again"
		run_one "$@"
		_r=$?
		_retry=0
		return $_r
	fi
	echo "$_k $4 $5 $6 $1 failed 1" >>"$raw"
	failed=$((failed + 1))
	say "$(fill_name "$4"), -smp $5, round $6: $_k: $1 ($2) FAILED, $_took s, see ${_log#"$top"/}"
}

# vals KERNEL MIB SMP TOOL METRIC [ROUND]: the values of one metric, one a line
vals() {
	awk -v k="$1" -v m="$2" -v s="$3" -v t="$4" -v x="$5" -v r="${6:-}" \
		'$1 == k && $2 == m && $3 == s && $5 == t && $6 == x && (r == "" || $4 == r) { print $7 }' \
		"$raw"
}

# metric_name METRIC: the name a table gives a metric of $raw
metric_name() {
	case $1 in
	write) echo "write s" ;;
	load) echo "load s" ;;
	hib) echo "hibernate s" ;;
	res) echo "restore s" ;;
	snap) echo "snapshot MiB" ;;
	disk) echo "image MiB" ;;
	thr) echo "compress threads" ;;
	spk) echo "suspend peak KiB" ;;
	rpk) echo "resume peak KiB" ;;
	rwk) echo "resume worker buffer KiB" ;;
	tb) echo "touch before s" ;;
	ta) echo "touch after s" ;;
	warm) echo "warm-up s" ;;
	trip) echo "trip s" ;;
	wpg) echo "write s per GiB" ;;
	lpg) echo "load s per GiB" ;;
	fsread) echo "file set read s" ;;
	evicted) echo "not resident MiB" ;;
	floor) echo "reading it back s" ;;
	wb_file) echo "warm-back file MiB" ;;
	wb_mem) echo "warm-back mem MiB" ;;
	wb_s) echo "warm-back s" ;;
	*) echo "$1" ;;
	esac
}

# ratio A B: A / B with two decimals, "-" unless both are above 0
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'
}

# profile KERNEL FILL SMP: where torpor's time went, when its rounds said (torpor.debug)
profile() {
	[ -n "$(vals "$1" "$2" "$3" torpor w_read)" ] || return 0
	echo "where torpor's time went (ms, medians; compressing and writing summed over threads):"
	for _m in w_read w_slots w_waitpack w_stage w_waitwr w_pack w_write w_commit w_sync w_cpu w_cpuw l_workers l_wait l_feed l_read l_hash l_dec l_cpu l_cpuw; do
		case $_m in
		w_read) _name="write: reading the snapshot" ;;
		w_slots) _name="write: slot allocation" ;;
		w_waitpack) _name="write: waiting for compression" ;;
		w_stage) _name="write: staging" ;;
		w_waitwr) _name="write: waiting for writes" ;;
		w_pack) _name="write: compressing" ;;
		w_write) _name="write: writing" ;;
		l_workers) _name="load: worker processes" ;;
		l_wait) _name="load: waiting for the workers" ;;
		l_feed) _name="load: feeding the kernel" ;;
		l_read) _name="load: reading (workers, summed)" ;;
		l_hash) _name="load: checking hashes (the same)" ;;
		l_dec) _name="load: decoding (the same)" ;;
		w_commit) _name="write: the commit" ;;
		w_sync) _name="write: fdatasync in the commit" ;;
		w_cpu) _name="write: CPU time, all threads" ;;
		w_cpuw) _name="write: CPU time, writer's thread" ;;
		l_cpu) _name="load: CPU time, main process" ;;
		l_cpuw) _name="load: CPU time, workers" ;;
		esac
		printf '  %-34s %8s\n' "$_name" "$(vals "$1" "$2" "$3" torpor "$_m" | median)"
	done
}

# report KERNEL MIB SMP: the table of one kernel, fill and vCPU count
report() {
	_ok_t=$(vals "$1" "$2" "$3" torpor hib | wc -l)
	_ok_k=$(vals "$1" "$2" "$3" kernel hib | wc -l)
	_bad_t=$(vals "$1" "$2" "$3" torpor failed | wc -l)
	_bad_k=$(vals "$1" "$2" "$3" kernel failed | wc -l)
	[ $((_ok_t + _ok_k + _bad_t + _bad_k)) -gt 0 ] || return 0
	echo
	echo "## $1, $2 MiB fill, -smp $3: hibernations counted: torpor $_ok_t, kernel $_ok_k;" \
		"failed rounds: torpor $_bad_t, kernel $_bad_k"
	printf '%-18s %10s %10s %7s\n' metric torpor kernel ratio
	for _m in write load hib res snap disk thr spk rpk rwk; do
		_t=$(vals "$1" "$2" "$3" torpor "$_m" | median)
		_r=$(vals "$1" "$2" "$3" kernel "$_m" | median)
		printf '%-18s %10s %10s %7s\n' "$(metric_name "$_m")" "$_t" "$_r" "$(ratio "$_t" "$_r")"
	done
	profile "$1" "$2" "$3"
}

# per_gib KERNEL FILL SMP TOOL METRIC: the median of METRIC per GiB of snapshot, each
# round's own
per_gib() {
	awk -v k="$1" -v m="$2" -v s="$3" -v t="$4" -v x="$5" \
		'$1 == k && $2 == m && $3 == s && $5 == t && ($6 == x || $6 == "snap") { v[$4, $6] = $7; r[$4] = 1 }
		END { for (i in r) if (v[i, "snap"] > 0 && (i, x) in v) printf "%.3f\n", v[i, x] * 1024 / v[i, "snap"] }' \
		"$raw" | median
}

# floor_of KERNEL FILL SMP TOOL: the median over rounds of the seconds it takes to read
# back what was not resident at the touch, at the speed of the file set's cold read
floor_of() {
	awk -v k="$1" -v m="$2" -v s="$3" -v t="$4" -v g="$(trip_gib "$2")" \
		'$1 == k && $2 == m && $3 == s && $5 == t && ($6 == "evicted" || $6 == "fsread") { v[$4, $6] = $7; r[$4] = 1 }
		END { for (i in r) if (v[i, "fsread"] > 0 && (i, "evicted") in v)
			printf "%.3f\n", v[i, "evicted"] * v[i, "fsread"] / (g * 512) }' "$raw" | median
}

# report_trip KERNEL G SMP: the whole trip's table of one working set
report_trip() {
	_f=trip$2
	_ok_t=$(vals "$1" "$_f" "$3" torpor trip | wc -l)
	_ok_k=$(vals "$1" "$_f" "$3" kernel trip | wc -l)
	_bad_t=$(vals "$1" "$_f" "$3" torpor failed | wc -l)
	_bad_k=$(vals "$1" "$_f" "$3" kernel failed | wc -l)
	_ok_q=$(vals "$1" "$_f" "$3" ksize trip | wc -l)
	_bad_q=$(vals "$1" "$_f" "$3" ksize failed | wc -l)
	[ $((_ok_t + _ok_k + _bad_t + _bad_k + _ok_q + _bad_q)) -gt 0 ] || return 0
	echo
	_pct=150
	case $2 in *-*) _pct=${2#*-} ;; esac
	echo "## $1, the whole trip, $(trip_gib "$_f") GiB working set, guest $_pct % of it, -smp $3: rounds counted: torpor $_ok_t," \
		"kernel $_ok_k, ksize $_ok_q; failed rounds: torpor $_bad_t, kernel $_bad_k, ksize $_bad_q"
	printf '%-18s %10s %10s %7s %10s\n' metric torpor kernel ratio ksize
	for _m in tb ta warm hib res trip write load wpg lpg snap disk evicted fsread floor wb_file wb_mem wb_s; do
		_t=$(vals "$1" "$_f" "$3" torpor "$_m" | median)
		_r=$(vals "$1" "$_f" "$3" kernel "$_m" | median)
		_q=$(vals "$1" "$_f" "$3" ksize "$_m" | median)
		case $_m in
		floor)
			# what reading back the evicted MiB costs at the file set's cold read
			_t=$(floor_of "$1" "$_f" "$3" torpor)
			_r=$(floor_of "$1" "$_f" "$3" kernel)
			_q=$(floor_of "$1" "$_f" "$3" ksize)
			;;
		wpg | lpg)
			# the phase's time per GiB of snapshot: the images differ in size
			_x="write"
			[ "$_m" = wpg ] || _x="load"
			_t=$(per_gib "$1" "$_f" "$3" torpor "$_x")
			_r=$(per_gib "$1" "$_f" "$3" kernel "$_x")
			_q=$(per_gib "$1" "$_f" "$3" ksize "$_x")
			;;
		esac
		[ "$_t$_r$_q" != --- ] || continue
		printf '%-18s %10s %10s %7s %10s\n' "$(metric_name "$_m")" "$_t" "$_r" "$(ratio "$_t" "$_r")" \
			"$_q"
	done
	profile "$1" "$_f" "$3"
	for _tool in torpor kernel ksize; do
		_tb=$(vals "$1" "$_f" "$3" "$_tool" tb | median)
		_ta=$(vals "$1" "$_f" "$3" "$_tool" ta | median)
		printf '%s: touch after / touch before %s\n' "$_tool" \
			"$(awk -v a="$_ta" -v b="$_tb" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "-" }')"
	done
}

# run_all: every round of every fill and vCPU count, on every kernel
run_all() {
	mkdir -p "$res"
	rm -f "$res"/*.log "$res"/*.summary "$res/tap"
	: >"$raw"
	if ! trees=$(sh "$qdir/kernels.sh"); then
		echo "bench: cannot fetch the test kernels (see the messages above)" >&2
		exit 1
	fi
	pkgs=
	for t in $trees; do
		pkgs="$pkgs ${t##*/}"
	done
	case " $parts " in
	*" phases "*) ;;
	*) mibs= ;;
	esac
	per_round=2
	anon=
	for mib in $mibs; do
		mem=${BENCH_MEM:-$((mib * 4 > 1024 ? mib * 4 : 1024))}
		swap=$((mib * 2 > 1024 ? mib * 2 : 1024))M
		tmo=${TORPOR_QEMU_TIMEOUT:-$((mib > 256 ? 600 : 180))}
		for smp in $smps; do
			say "$mib MiB fill, -smp $smp, guest $mem MiB, swap disk $swap: $repeat rounds"
			i=1
			while [ "$i" -le "$repeat" ]; do
				for p in $pkgs; do
					run_one torpor 01-roundtrip "$p" "$mib" "$smp" "$i"
					run_one kernel 90-kernel-reference "$p" "$mib" "$smp" "$i"
				done
				i=$((i + 1))
			done
		done
	done
	case " $parts " in
	*" trip "*) run_trip ;;
	esac
	rm -f "$res/tap"
}

# trip_size G P: REPEAT rounds of the trip with a G GiB working set in a guest of P %
# of it; the fill's name in $raw is tripG, or tripG-P when P is not 150
trip_size() {
	anon=$(($1 * 512))
	mem=$(($1 * 1024 * $2 / 100))
	_id=trip$1
	[ "$2" = 150 ] || _id=$_id-$2
	swap=${1}G
	tmo=${TORPOR_QEMU_TIMEOUT:-$((300 + $1 * 300))}
	say "the whole trip, $1 GiB working set ($anon MiB memory + $anon MiB file set), -smp $trip_smp, guest $mem MiB, swap disk $swap: $repeat rounds"
	i=1
	while [ "$i" -le "$repeat" ]; do
		for _v in $trip_variants; do
			case $_v in
			torpor) run_one torpor 92-trip "${_tree##*/}" "$_id" "$trip_smp" "$i" ;;
			kernel) run_one kernel 93-trip-kernel "${_tree##*/}" "$_id" "$trip_smp" "$i" ;;
			ksize)
				trip_opts=--image-size=kernel
				run_one ksize 92-trip "${_tree##*/}" "$_id" "$trip_smp" "$i"
				trip_opts=
				;;
			esac
		done
		i=$((i + 1))
	done
}

# run_trip: the whole trip, each working set, REPEAT rounds, on the trip's kernel;
run_trip() {
	if ! _tree=$(sh "$qdir/kernels.sh" "$trip_kernel" | head -n 1) || [ -z "$_tree" ]; then
		echo "bench: cannot fetch the trip's kernel $trip_kernel (see the messages above)" >&2
		exit 1
	fi
	per_round=1
	for _p in $trip_pcts; do
		for _g in $trip_gibs; do
			trip_size "$_g" "$_p"
		done
	done
	anon=
}

start=$(date +%s)
if [ -n "${BENCH_REPORT:-}" ]; then
	# the tables of an earlier run: its fills, vCPU counts and rounds
	raw=$BENCH_REPORT
	[ -f "$raw" ] || { echo "bench: no results file '$raw'" >&2; exit 2; }
	mibs=${BENCH_MIB:-$(awk '$2 !~ /^trip/ && !seen[$2]++ { print $2 }' "$raw")}
	smps=${BENCH_SMP:-$(awk '$2 !~ /^trip/ && !seen[$3]++ { print $3 }' "$raw")}
	trip_smp=${BENCH_TRIP_SMP:-$(awk '$2 ~ /^trip/ && !seen[$3]++ { print $3 }' "$raw" | head -n 1)}
	repeat=$(awk '$4 > n { n = $4 } END { print n + 0 }' "$raw")
	failed=$(awk '$6 == "failed"' "$raw" | wc -l)
else
	run_all
fi

# slots_table: the swap-slot allocation time of each kernel (torpor asks the
# kernel's allocator for every page it writes, SNAPSHOT_ALLOC_SWAP_PAGE; 6.15-6.19
# made that allocator up to ten times slower on some SSDs): the medians of torpor's
# "slots" time and of its image, and the time per MiB of image
slots_table() {
	echo
	echo "## swap-slot allocation per kernel (torpor's write phase, medians)"
	printf '%-34s %6s %4s %9s %9s %12s\n' kernel MiB smp "slots ms" "image MiB" "us per MiB"
	for _k in $kernels; do
		for _mib in $mibs; do
			for _smp in $smps; do
				_ms=$(vals "$_k" "$_mib" "$_smp" torpor w_slots | median)
				_img=$(vals "$_k" "$_mib" "$_smp" torpor disk | median)
				[ "$_ms" != - ] || continue
				printf '%-34s %6s %4s %9s %9s %12s\n' "$_k" "$_mib" "$_smp" "$_ms" "$_img" \
					"$(awk -v a="$_ms" -v b="$_img" 'BEGIN { if (b + 0 > 0) printf "%.0f", a * 1000 / b; else print "-" }')"
			done
		done
	done
}

kernels=$(awk '$2 !~ /^trip/ && !seen[$1]++ { print $1 }' "$raw")
for k in $kernels; do
	for mib in $mibs; do
		for smp in $smps; do
			report "$k" "$mib" "$smp"
		done
	done
done
[ -z "$kernels" ] || slots_table
trip_kernels=$(awk '$2 ~ /^trip/ && !seen[$1]++ { print $1 }' "$raw")
# the trip's fills in the order they ran: tripG, tripG-P
trip_fills=$(awk '$2 ~ /^trip/ && !seen[$2]++ { print $2 }' "$raw")
for k in $trip_kernels; do
	for f in $trip_fills; do
		report_trip "$k" "${f#trip}" "$trip_smp"
	done
done
echo
[ -n "${BENCH_REPORT:-}" ] || took=", $(($(date +%s) - start)) s in all"
say "medians of $repeat rounds x 2 hibernations and 2 restores each (image MiB: 1 a round; the trip: 1 and 1)${took:-};" \
	"raw values in ${raw#"$top"/}"
if [ "$failed" -gt 0 ]; then
	say "$failed scenario runs failed and are not counted"
	exit 1
fi
