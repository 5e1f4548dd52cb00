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
# Environment: CLANG (default clang), FUZZ_FLAGS (more libFuzzer options).
# Prints one ok / not ok line per target, then "N passed, N failed"; exits 1 on a failure.
set -u

cd "$(dirname "$0")/../.." || exit 1
secs=${1:-60}
clang=${CLANG:-clang}
out=build/fuzz
passed=0
failed=0

case $secs in
''|*[!0-9]*)
	echo "usage: tests/fuzz/run.sh [SECONDS]" >&2
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

for src in tests/fuzz/fuzz-*.c; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .c)
	short=${name#fuzz-}
	bin=$out/$name
	log=$out/$name.log
	corpus=$out/corpus/$short
	crash=$out/crash/$short/

	# word splitting of the two lists is wanted
	# shellcheck disable=SC2046
	if ! "$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-D_GNU_SOURCE -Icore -o "$bin" "$src" $(tag sources "$src") \
		$(tag libs "$src") >"$log" 2>&1; then
		echo "not ok - $name: build failed, see $log"
		sed 's/^/# /' "$log" | head -n 20
		failed=$((failed + 1))
		continue
	fi
	mkdir -p "$corpus" "$crash" || exit 1
	if [ -d "tests/fuzz/corpus/$short" ]; then
		cp tests/fuzz/corpus/"$short"/* "$corpus"/ 2>/dev/null
	fi
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$crash" ${FUZZ_FLAGS:-} "$corpus" >>"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ]; then
		files=$(find "$corpus" -type f | wc -l)
		echo "ok - $name: ${runs:-?} runs in ${secs} s, corpus $files files"
		passed=$((passed + 1))
	else
		echo "not ok - $name: exit status $rc after ${runs:-?} runs, see $log"
		grep -m 5 -E 'ERROR|runtime error|Test unit written|SUMMARY' "$log" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
