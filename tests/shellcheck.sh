#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run shellcheck over every shell file in the repository, with the repository's
# .shellcheckrc.  Prints one TAP line per file and ends with "N passed, N failed";
# exits non-zero if any file fails.
#
# Usage: tests/shellcheck.sh [FILE...]
# A shell file is a *.sh file, or a file whose first line is a sh, ash, dash or bash
# shebang (initramfs-tools and mkinitcpio hooks have no suffix).  Files under out/
# and .cache/ are left out.  The shell comes from the shebang (ash is checked as
# dash, as busybox ash is close to it); a *.sh file without one is checked as sh.

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

if ! command -v shellcheck >/dev/null 2>&1; then
	echo "not ok 1 - shellcheck not found (install it with: sh tests/deps.sh check)"
	echo "0 passed, 1 failed"
	exit 1
fi

# shell_of FILE: the shell to check FILE as, or nothing if it is not a shell file
shell_of() {
	_first=$(head -n 1 "$1" 2>/dev/null)
	case $_first in
	'#!'*/bash* | '#!'*'env bash'*) echo bash ;;
	'#!'*/ash* | '#!'*/dash*) echo dash ;;
	'#!'*/sh | '#!'*/sh' '* | '#!'*'env sh'*) echo sh ;;
	*) case $1 in *.sh) echo sh ;; esac ;;
	esac
}

list_files() {
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@"
		return
	fi
	git ls-files --cached --others --exclude-standard 2>/dev/null ||
		find . -type f ! -path './.git/*' | sed 's|^\./||'
}

n=0
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for f in $(list_files "$@" | grep -v -e '^tests/qemu/out/' -e '^\.cache/' -e '^build/' | sort); do
	[ -f "$f" ] || continue
	sh_=$(shell_of "$f")
	[ -n "$sh_" ] || continue
	n=$((n + 1))
	if shellcheck -s "$sh_" "$f" >"$log" 2>&1; then
		passed=$((passed + 1))
		echo "ok $n - shellcheck: $f"
	else
		failed=$((failed + 1))
		echo "not ok $n - shellcheck: $f"
		sed 's/^/# /' "$log"
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
