#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Both programs' command lines as GNU and systemd tools behave: --help and
# --version on stdout with status 0 (the version line names the release of
# debian/changelog, the image format of core/image.h and the build); a usage
# error is one "torpor: " line naming it, then "Try '... --help' ...", on stderr,
# status 2; two modes that each do a whole job are refused; every yes/no key of
# torpor.conf has --KEY and --no-KEY.  torpor-suspend runs as nobody when this
# runs as root (setpriv), so no run can get near /dev/snapshot; none is meant to.
top=$(cd "$(dirname "$0")/../.." && pwd)
suspend_bin=${TORPOR_SUSPEND:-$top/build/torpor-suspend}
resume_bin=${TORPOR_RESUME:-$top/build/torpor-resume}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
chmod 755 "$t"
# shellcheck disable=SC2034 # n, failed and TAP_PREFIX are tap.sh's
n=0 failed=0 TAP_PREFIX="cli: "
# shellcheck source=tests/unit/tap.sh
. "$(dirname "$0")/tap.sh"
tap_diag() {
	echo "# status $rc; stdout:"
	sed 's/^/#   /' "$t/out"
	echo "# stderr:"
	sed 's/^/#   /' "$t/err"
}

if [ "$(id -u)" -eq 0 ]; then
	if ! command -v setpriv >/dev/null 2>&1; then
		not_ok "setpriv (util-linux) not found"
		exit 1
	fi
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	as_user=
fi

# run_suspend ARGS...: torpor-suspend as an ordinary user, with no configuration file
run_suspend() {
	# shellcheck disable=SC2086 # $as_user is a command and its options
	$as_user "$suspend_bin" --config="$t/empty.conf" "$@" >"$t/out" 2>"$t/err"
	rc=$?
}
run_resume() {
	"$resume_bin" "$@" >"$t/out" 2>"$t/err"
	rc=$?
}
: >"$t/empty.conf"
chmod 644 "$t/empty.conf"

# usage_error PROG MESSAGE WHAT: the last run exited 2, said nothing on stdout, and
# on stderr exactly "torpor: MESSAGE" and the pointer to PROG --help
usage_error() {
	if [ "$rc" -eq 2 ] && [ ! -s "$t/out" ] && [ "$(wc -l <"$t/err")" -eq 2 ] &&
		[ "$(sed -n 1p "$t/err")" = "torpor: $2" ] &&
		[ "$(sed -n 2p "$t/err")" = "Try '$1 --help' for more information." ]; then
		ok "$1: $3: one line naming it, the pointer to --help, status 2"
	else
		not_ok "$1: $3: one line naming it, the pointer to --help, status 2"
	fi
}

# info PROG WHAT PATTERN: the last run exited 0, printed PATTERN on stdout, nothing on stderr
info() {
	if [ "$rc" -eq 0 ] && [ ! -s "$t/err" ] && grep -q -- "$3" "$t/out"; then
		ok "$1: $2 goes to stdout, status 0"
	else
		not_ok "$1: $2 goes to stdout, status 0"
	fi
}

format=$(sed -n 's/^#define TORPOR_FORMAT_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$top/core/image.h")
release=$(sed -n '1s/^torpor (\([^)]*\)).*/\1/p' "$top/debian/changelog")
if command -v dpkg-parsechangelog >/dev/null 2>&1; then
	deb=$(cd "$top" && dpkg-parsechangelog -S Version)
	if [ "$deb" = "$release" ]; then
		ok "the release is the .deb's version, $deb"
	else
		not_ok "the release '$release' is not the .deb's version '$deb'"
	fi
fi
# the build the Makefile gives: git describe in a git checkout (as here), else the release
build=$(cd "$top" && make -pn build/version-vars 2>/dev/null | sed -n 's/^TORPOR_BUILD := //p')
if [ -e "$top/.git" ]; then
	want=$(cd "$top" && git describe --always --dirty)
	if [ "$build" = "$want" ]; then
		ok "in a git checkout the build is git describe, $want"
	else
		not_ok "in a git checkout the build is '$build', not git describe '$want'"
	fi
fi
# sudo make install in your own checkout: git refuses a repository another user
# owns ("dubious ownership"); the build is still git describe, not the release
# (which would also remake the objects, as root, in your build folder)
if [ -e "$top/.git" ] && [ "$(id -u)" -eq 0 ]; then
	# this tree's Makefile (-dirty when it is not committed yet)
	git clone -q --no-hardlinks "$top" "$t/own" && cp "$top/Makefile" "$t/own/" &&
		chown -R nobody "$t/own"
	want=$(git -C "$top" describe --always)
	b=$(cd "$t/own" && make -pn build/version-vars 2>/dev/null | sed -n 's/^TORPOR_BUILD := //p')
	if [ -n "$want" ] && { [ "$b" = "$want" ] || [ "$b" = "$want-dirty" ]; }; then
		ok "in a checkout another user owns the build is still git describe, $want"
	else
		not_ok "in a checkout another user owns the build is '$b', not git describe '$want'"
	fi
	if [ "$(stat -c %U "$t/own/.git/index")" = nobody ]; then
		ok "and its git index is still that user's"
	else
		not_ok "make, as root, left $t/own/.git/index owned by $(stat -c %U "$t/own/.git/index")"
	fi
elif [ -e "$top/.git" ]; then
	echo "ok $((n += 1)) - a checkout another user owns # SKIP needs root"
fi
# a tarball or the .deb's copy: no .git, the build is the release
mkdir "$t/src"
(cd "$top" && tar --exclude=./build --exclude=./.git --exclude=./.cache \
	--exclude=./tests/qemu/out -cf - Makefile debian) | tar -C "$t/src" -xf -
b=$(cd "$t/src" && GIT_CEILING_DIRECTORIES=$t make -pn build/version-vars 2>/dev/null |
	sed -n 's/^TORPOR_BUILD := //p')
if [ -n "$release" ] && [ "$b" = "$release" ]; then
	ok "without .git (a tarball, the .deb) the build is the release, $release"
else
	not_ok "without .git the build is '$b', not the release '$release'"
fi
# no debian/changelog (a copy without debian/): the release is "unknown", never empty
rm -r "$t/src/debian"
(cd "$t/src" && make -pn build/version-vars >"$t/db" 2>/dev/null)
v=$(sed -n 's/^VERSION := //p' "$t/db")
b=$(sed -n 's/^TORPOR_BUILD := //p' "$t/db")
if [ "$v" = unknown ] && [ "$b" = unknown ]; then
	ok "without debian/changelog the release and the build are 'unknown'"
else
	not_ok "without debian/changelog the release is '$v' and the build '$b', not 'unknown'"
fi

for prog in torpor-suspend torpor-resume; do
	if [ "$prog" = torpor-suspend ]; then run_suspend --version; else run_resume --version; fi
	info "$prog" "--version" "^$prog $release (image format $format, build $build)\$"
	if [ "$(wc -l <"$t/out")" -eq 1 ]; then
		ok "$prog: --version prints one line"
	else
		not_ok "$prog: --version prints one line"
	fi
	if [ "$prog" = torpor-suspend ]; then run_suspend --help; else run_resume --help; fi
	info "$prog" "--help" "^usage: $prog"
done

run_suspend --no-such-option
usage_error torpor-suspend "unknown option '--no-such-option'" "an unknown option"
run_suspend -x
usage_error torpor-suspend "unknown option '-x'" "an unknown short option"
run_suspend --resume
usage_error torpor-suspend "missing value for option '--resume'" "a missing value"
run_suspend --check=yes
usage_error torpor-suspend "option '--check' takes no value" "a value to an option without one"
# getopt_long takes the start of a name: one that begins several names is ambiguous,
# and the start of one that takes no value given a value says so, as the whole name
run_suspend --ver
usage_error torpor-suspend "ambiguous option '--ver': it begins --verbose, --version" \
	"an ambiguous abbreviation"
run_suspend --che=yes
usage_error torpor-suspend "option '--check' takes no value" "a value to an abbreviation"
run_suspend --poweroff=sleep
usage_error torpor-suspend "invalid --poweroff 'sleep': not 'shutdown', 'reboot', 'platform' or 'hybrid'" \
	"a malformed value"
run_suspend --print-cmdline extra
usage_error torpor-suspend "unexpected argument 'extra'" "an operand"
run_suspend --print-cmdline --no-initramfs
usage_error torpor-suspend \
	"--no-initramfs goes with --check only: a hibernation always checks the initramfs" \
	"--no-initramfs without --check"
# (that a refused pair makes no image file cannot be seen here: as an ordinary
# user --setup-image-file makes none either, so the status and message must tell)
for pair in "--check --print-cmdline" "--check --setup-image-file=1M" \
	"--print-cmdline --setup-image-file=1M"; do
	# shellcheck disable=SC2086 # two options
	run_suspend $pair --image-file="$t/image"
	# shellcheck disable=SC2086 # the two options
	set -- $pair
	usage_error torpor-suspend "$1 and ${2%=*} cannot be given together: each is a whole job of its own" \
		"$pair"
done

# every yes/no key of the configuration file can be set either way from the command line
keys=$(grep -B1 "return \"not 'yes' or 'no'\";" "$top/suspend/config.c" |
	sed -n 's/.*case \(K_[A-Z_]*\):.*/\1/p')
if [ -z "$keys" ]; then
	not_ok "found no yes/no key in suspend/config.c"
fi
for k in $keys; do
	name=$(sed -n "s/^[[:space:]]*\[$k\] = \"\([a-z_]*\)\",\$/\1/p" "$top/suspend/config.c" | tr _ -)
	run_suspend --help
	if grep -q -- "--$name\b" "$t/out" && grep -q -- "--no-$name\b" "$t/out"; then
		ok "torpor-suspend: the key ${name} has --$name and --no-$name"
	else
		not_ok "torpor-suspend: the key ${name} has --$name and --no-$name"
	fi
done
# and the --no- form overrides the file: discard_after_resume without an image
# file warns, unless the command line turns it off
printf 'discard_after_resume = yes\n' >"$t/discard.conf"
chmod 644 "$t/discard.conf"
run_suspend --config="$t/discard.conf" --print-cmdline --resume=/dev/torpor-test-none
grep -q "discard_after_resume applies only" "$t/err" && d1=1 || d1=0
run_suspend --config="$t/discard.conf" --print-cmdline --resume=/dev/torpor-test-none \
	--no-discard-after-resume
if [ "$d1" -eq 1 ] && [ "$rc" -eq 1 ] && ! grep -q "discard_after_resume applies only" "$t/err"; then
	ok "torpor-suspend: --no-discard-after-resume overrides discard_after_resume = yes"
else
	not_ok "torpor-suspend: --no-discard-after-resume overrides discard_after_resume = yes"
fi

# --json belongs to --status; --status is a mode of its own
run_suspend --json
usage_error torpor-suspend "--json goes with --status only" "--json without --status"
run_suspend --status --check
usage_error torpor-suspend "--check and --status cannot be given together: each is a whole job of its own" \
	"--status with --check"

# the torpor command in PATH (suspend/torpor, SBINDIR filled in at install): GNU
# conventions too, and 'torpor status' is torpor-suspend --status
# (copies in $t, the script and torpor-suspend: the checkout may be in a directory the ordinary user cannot read,
# such as one made by mktemp -d)
cp "$top/suspend/torpor" "$t/torpor" && chmod 644 "$t/torpor"
cp "$suspend_bin" "$t/torpor-suspend" && chmod 755 "$t/torpor-suspend"
run_front() {
	# shellcheck disable=SC2086 # $as_user is a command and its options
	TORPOR_SUSPEND=$t/torpor-suspend $as_user sh "$t/torpor" "$@" >"$t/out" 2>"$t/err"
	rc=$?
}
run_front --help
info torpor "--help" "^usage: torpor COMMAND"
run_front --version
info torpor "--version" "^torpor $release (image format $format, build $build)\$"
run_front
usage_error torpor "missing command: status" "no command"
run_front frobnicate
usage_error torpor "unknown command 'frobnicate'" "an unknown command"
run_front --frob=1
usage_error torpor "unknown option '--frob'" "an unknown option"
run_front status --jsn
usage_error torpor "unknown option '--jsn' for 'status'" "an unknown option of status"
run_front status extra
usage_error torpor "unexpected argument 'extra'" "an operand of status"
run_front status --json
front_rc=$rc
front_out=$(cat "$t/out")
run_suspend --status --json
if [ "$front_rc" -eq "$rc" ] && [ "$(printf '%s\n' "$front_out" | sed 's/"logind":.*//')" = \
	"$(sed 's/"logind":.*//' "$t/out")" ] && grep -q '^{"ready":' "$t/out"; then
	ok "torpor: 'status --json' is torpor-suspend --status --json: the same object and status"
else
	not_ok "torpor: 'status --json' is torpor-suspend --status --json: the same object and status"
fi

run_resume --no-such-option
usage_error torpor-resume "unknown option '--no-such-option'" "an unknown option"
run_resume --dump --noresume
usage_error torpor-resume "--dump and --noresume cannot be given together: --dump changes nothing" \
	"--dump with --noresume"
run_resume --dump --wait=x
usage_error torpor-resume "invalid argument '--wait=x'" "a malformed value with --dump"
# --dump DEV (an operand) reads DEV: a swap area without an image, status 1
truncate -s 1M "$t/swap" && mkswap "$t/swap" >/dev/null 2>&1 || exit 1
for form in "--dump DEV" "--dump=DEV"; do
	if [ "$form" = "--dump DEV" ]; then run_resume --dump "$t/swap" --wait=0
	else run_resume --dump="$t/swap" --wait=0; fi
	if [ "$rc" -eq 1 ] && [ ! -s "$t/out" ] && ! grep -q "argument\|option" "$t/err"; then
		ok "torpor-resume: $form reads the device given"
	else
		not_ok "torpor-resume: $form reads the device given"
	fi
done
# two devices to describe, in either order, are refused (never the last one dumped)
run_resume --dump "$t/swap" --device="$t/other" --wait=0
usage_error torpor-resume "two devices to dump: '$t/swap' and '$t/other'" "--dump DEV --device=OTHER"
run_resume --device="$t/other" --dump "$t/swap" --wait=0
usage_error torpor-resume "two devices to dump: '$t/other' and '$t/swap'" "--device=OTHER --dump DEV"
run_resume --dump "$t/swap" "$t/other"
usage_error torpor-resume "unexpected argument '$t/other'" "a second operand"
echo "1..$n"
[ "$failed" -eq 0 ]
