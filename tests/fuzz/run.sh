#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build every libFuzzer target tests/fuzz/fuzz-*.c and run each for SECONDS (default 60).
# Usage: tests/fuzz/run.sh [SECONDS]
#
# A target names the sources it links, relative to the top of the repo, in one comment line
#   /* fuzz-sources: core/lz4dec.c core/crc32.c */
# and may add linker flags in another
#   /* fuzz-libs: -llz4 */
# Target fuzz-foo.c seeds from tests/fuzz/corpus/foo/, which is only read: it runs on a
# scratch copy in build/fuzz/corpus/foo/ (kept between runs, so it grows), and a crash
# is saved under build/fuzz/crash/foo/.  Each target's log is build/fuzz/fuzz-foo.log.
# Environment: CLANG (default clang), FUZZ_FLAGS (more libFuzzer options), FUZZ_JOBS
# (targets run at a time, default the online CPUs, at most 4).
# Prints one ok / not ok line per target, then "N passed, N failed"; exits 1 on a failure.
set -u

cd "$(dirname "$0")/../.." || exit 1
secs=${1:-60}
clang=${CLANG:-clang}
out=build/fuzz
passed=0
failed=0

# at least 1: libFuzzer takes -max_total_time=0 as no limit, a run that never ends
case $secs in
''|*[!0-9]*|0*)
	echo "usage: tests/fuzz/run.sh [SECONDS] (a whole number of at least 1)" >&2
	exit 2
	;;
esac
if ! command -v "$clang" >/dev/null; then
	echo "fuzz: '$clang' not found" >&2
	echo "fuzz: hint: apt-get install clang libclang-rt-14-dev (or run sh tests/deps.sh fuzz)" >&2
	exit 1
fi
mkdir -p "$out" || exit 1

# the text between "/* fuzz-KEY:" and "*/" on the first such line of file $2
tag() {
	sed -n "s|^/\* fuzz-$1:\(.*\)\*/.*\$|\1|p" "$2" | head -n 1
}

# build NAME: compile target NAME; on failure its "not ok" line and 1
build() {
	# word splitting of the two lists is wanted
	# shellcheck disable=SC2046
	if ! "$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-D_GNU_SOURCE -Icore -o "$out/$1" "tests/fuzz/$1.c" $(tag sources "tests/fuzz/$1.c") \
		$(tag libs "tests/fuzz/$1.c") >"$out/$1.log" 2>&1; then
		echo "not ok - $1: build failed, see $out/$1.log"
		sed 's/^/# /' "$out/$1.log" | head -n 20
		return 1
	fi
}

# run NAME: fuzz target NAME for $secs seconds from its corpus; its exit status
# goes to $out/NAME.rc
run() {
	_short=${1#fuzz-}
	_corpus=$out/corpus/$_short
	_crash=$out/crash/$_short/
	mkdir -p "$_corpus" "$_crash" || return 1
	if [ -d "tests/fuzz/corpus/$_short" ]; then
		cp tests/fuzz/corpus/"$_short"/* "$_corpus"/ 2>/dev/null
	fi
	# shellcheck disable=SC2086
	"$out/$1" -max_total_time="$secs" -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$_crash" ${FUZZ_FLAGS:-} "$_corpus" >>"$out/$1.log" 2>&1
	echo $? >"$out/$1.rc"
}

# report NAME: its ok / not ok line
report() {
	_log=$out/$1.log
	_rc=$(cat "$out/$1.rc" 2>/dev/null || echo '?')
	_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$_log" | tail -n 1)
	if [ "$_rc" = 0 ]; then
		_files=$(find "$out/corpus/${1#fuzz-}" -type f | wc -l)
		echo "ok - $1: ${_runs:-?} runs in ${secs} s, corpus $_files files"
		passed=$((passed + 1))
	else
		echo "not ok - $1: exit status $_rc after ${_runs:-?} runs, see $_log"
		grep -m 5 -E 'ERROR|runtime error|Test unit written|SUMMARY' "$_log" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
}

# built, one at a time; then run, FUZZ_JOBS at a time (default: the online CPUs,
# at most 4: each target is one process), and reported in order
names=
for src in tests/fuzz/fuzz-*.c; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .c)
	rm -f "$out/$name.rc"
	if build "$name"; then
		names="$names $name"
	else
		failed=$((failed + 1))
	fi
done
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in
'' | *[!0-9]*) jobs=1 ;;
esac
[ -n "${FUZZ_JOBS:-}" ] || [ "$jobs" -le 4 ] || jobs=4
[ "$jobs" -ge 1 ] || jobs=1
n=0
for name in $names; do
	run "$name" &
	n=$((n + 1))
	[ $((n % jobs)) -ne 0 ] || wait
done
wait
for name in $names; do
	report "$name"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
