#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Compare what torpor said in two runs of the QEMU scenarios, log by log: its
# message lines and the exit statuses, with numbers and UUIDs folded (they
# differ from run to run) and the progress lines and the compression sample's
# debug line left out (timing decides them).  For a change that must not alter
# behaviour (a refactor): run the scenarios before and after, then
#
#   sh tests/qemu/msgdiff.sh OLD/tests/qemu/out NEW/tests/qemu/out [RENAMES]
#
# RENAMES: a sed script mapping an old log's name to the new one, for
# scenarios renumbered in between.  Exits 1 when a log differs or is missing.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD_OUT NEW_OUT [RENAMES.sed]" >&2; exit 2; }
old=$1 new=$2 renames=${3:-}

# norm LOG: the lines to compare, sorted
norm() {
	grep -aoE '(torpor(-[a-z]+)?:|exited with status|exit status).*' "$1" |
		sed -E 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/UUID/g' |
		awk '{
			# keep the digits of an exit status, fold every other number
			out = ""
			while (match($0, /status [0-9]+/)) {
				pre = substr($0, 1, RSTART - 1)
				gsub(/[0-9]+/, "N", pre)
				out = out pre "status <" substr($0, RSTART + 7, RLENGTH - 7) ">"
				$0 = substr($0, RSTART + RLENGTH)
			}
			gsub(/[0-9]+/, "N")
			print out $0
		}' |
		grep -vE 'saving image: |loading image: |took N|compression sample' | LC_ALL=C sort -u || true
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 d=0
for f in "$old"/*.log; do
	b=$(basename "$f" .log)
	nb=$b
	[ -z "$renames" ] || nb=$(echo "$b" | sed -f "$renames")
	if [ ! -f "$new/$nb.log" ]; then
		echo "missing: $nb.log (for $b.log)"
		d=$((d + 1))
		continue
	fi
	n=$((n + 1))
	norm "$f" >"$tmp/old"
	norm "$new/$nb.log" >"$tmp/new"
	if ! cmp -s "$tmp/old" "$tmp/new"; then
		d=$((d + 1))
		echo "== $b -> $nb"
		diff "$tmp/old" "$tmp/new" || true
	fi
done
echo "$n logs compared, $d differ or missing"
[ "$d" -eq 0 ]
