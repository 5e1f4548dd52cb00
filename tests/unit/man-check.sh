#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The man pages: groff -man -ww finds nothing to warn about in any of them, and
# each documents everything its program takes: torpor-suspend.8 every long option
# of suspend/main.c's table (and so of --help), torpor-resume.8 every argument of
# resume/bootargs.c and every kernel parameter core/cmdline.c reads, torpor.conf.5
# every key of suspend/config.c, torpor-sleep.8 every operation and variable of
# systemd/torpor-sleep, torpor.1 every command and option of suspend/torpor (its
# case labels).  groff missing is a failure (tests/deps.sh
# check installs it).
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
# shellcheck disable=SC2034 # n and TAP_PREFIX are tap.sh's
n=0 TAP_PREFIX="man: "
failed=0
# shellcheck source=tests/unit/tap.sh
. "$(dirname "$0")/tap.sh"

if ! command -v groff >/dev/null 2>&1; then
	echo "not ok 1 - man: groff not found (install it with: sh tests/deps.sh check)"
	exit 1
fi

for page in man/torpor-suspend.8 man/torpor-resume.8 man/torpor-sleep.8 man/torpor.conf.5 man/torpor.1; do
	if out=$(groff -man -ww -z "$page" 2>&1) && [ -z "$out" ]; then
		ok "$page: groff -man -ww -z is silent"
	else
		not_ok "$page: groff -man -ww -z warns"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done

# documented PAGE WORD...: each WORD appears in PAGE as man shows it (\- is -)
documented() {
	_page=$1
	shift
	_text=$(sed 's/\\-/-/g; s/\\c$//' "$_page")
	_missing=
	for _w in "$@"; do
		printf '%s\n' "$_text" | grep -q -F -- "$_w" || _missing="$_missing $_w"
	done
	if [ -z "$_missing" ]; then
		ok "$_page documents all $# of its names"
	else
		not_ok "$_page lacks:$_missing"
	fi
}

# the long options of the getopt_long table, as --NAME
suspend_opts=$(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", [a-z_]*, NULL, .*/--\1/p' suspend/main.c)
# shellcheck disable=SC2086 # one word per option
set -- $suspend_opts
if [ $# -lt 8 ]; then
	not_ok "found only $# options in suspend/main.c's table: $*"
else
	documented man/torpor-suspend.8 "$@"
fi
# what --help prints must be in the table too (a help line nobody can use, or forgot)
help_opts=$(build/torpor-suspend --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)
# shellcheck disable=SC2086
set -- $help_opts
if [ $# -lt 8 ]; then
	not_ok "build/torpor-suspend --help names only $# options (not built?)"
else
	documented man/torpor-suspend.8 "$@"
fi

# torpor-resume's arguments (strcmp and strncmp literals) and kernel parameters
resume_opts=$(grep -o '"--[a-z-]*=\{0,1\}"' resume/bootargs.c | tr -d '"=' | sort -u)
params=$(grep -o '"\(resume\|resume_offset\|noresume\|nohibernate\|hibernate\|torpor\.[a-z]*\)"' \
	core/cmdline.c | tr -d '"' | sort -u)
# shellcheck disable=SC2086
set -- $resume_opts $params
if [ $# -lt 12 ]; then
	not_ok "found only $# arguments and parameters of torpor-resume: $*"
else
	documented man/torpor-resume.8 "$@"
fi

# the configuration keys
keys=$(sed -n 's/^[[:space:]]*\[K_[A-Z_]*\] = "\([a-z_]*\)",$/\1/p' suspend/config.c)
# shellcheck disable=SC2086
set -- $keys
if [ $# -lt 5 ]; then
	not_ok "found only $# keys in suspend/config.c: $*"
else
	documented man/torpor.conf.5 "$@"
fi
# torpor-sleep's operations (its usage line) and the environment it reads
sleep_words=$(sed -n 's/.*usage: torpor-sleep \([a-z|-]*\)".*/\1/p' systemd/torpor-sleep | head -n 1 | tr '|' ' ')
# shellcheck disable=SC2016 # a literal ${
sleep_env=$(grep -o '\${TORPOR_[A-Z_]*:-' systemd/torpor-sleep | tr -d '${:-' | sort -u)
# shellcheck disable=SC2086
set -- $sleep_words $sleep_env
if [ $# -lt 5 ]; then
	not_ok "found only $# operations and variables of systemd/torpor-sleep: $*"
else
	documented man/torpor-sleep.8 "$@"
fi
# the torpor command's commands and options: the words of its case labels
front_words=$(sed -n 's/^[[:space:]]*\(-\{0,2\}[a-z][a-z-]*\)\( | -\{0,2\}[a-z][a-z-]*\)*)$/&/p; s/^[[:space:]]*\(-\{0,2\}[a-z][a-z-]*\)) .*/\1)/p' suspend/torpor |
	tr -d ')' | tr '|' ' ')
# shellcheck disable=SC2086
set -- $front_words
if [ $# -lt 4 ]; then
	not_ok "found only $# commands and options of suspend/torpor: $*"
else
	documented man/torpor.1 "$@"
fi
[ "$failed" -eq 0 ]
