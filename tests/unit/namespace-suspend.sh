#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-suspend in a container, a mount namespace of its own or a chroot must
# refuse before it looks at anything else: in a PID namespace of its own the
# power-off would end only the container (and closing /dev/snapshot then thaws a
# machine whose swap header names the image); in another mount namespace or a
# chroot it would neither see nor sync nor guard every mounted filesystem.  Each
# check fails closed: where init's /proc/1/ns/mnt or /proc/1/root cannot be read
# (a sandbox's root gets EACCES, /proc may be missing in a chroot) it refuses too,
# saying it "cannot tell".  --check never opens /dev/snapshot, so this is safe on
# the build host.  As an ordinary user the namespaces come with a user namespace
# (unshare -U -r).  A missing tool is a failure, not a skip.
bin=${TORPOR_SUSPEND:-build/torpor-suspend}
n=0
failed=0

for tool in unshare chroot ldd; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "not ok 1 - $tool not found (sh tests/deps.sh check installs util-linux, coreutils, libc-bin)"
		exit 1
	fi
done
user=
[ "$(id -u)" -eq 0 ] || user="-U -r"
# the installed build has no way past these checks: the test build's variable
# (testhook.h) must change nothing here
export TORPOR_TEST_NS_UNREADABLE=allow
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT

# check WHAT PATTERN COMMAND...: COMMAND (which runs torpor-suspend) exits 1 and
# its output matches the grep pattern PATTERN
check() {
	what=$1 pattern=$2
	shift 2
	n=$((n + 1))
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "$pattern"; then
		echo "ok $n - $what: refused, exit 1"
	else
		echo "not ok $n - $what: exit $rc"
		printf '%s\n' "$out" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
}

# shellcheck disable=SC2086 # $user is two words or none
check "a PID namespace of its own" "PID namespace of its own" \
	unshare $user -p -f --mount-proc "$bin" --check --resume=/dev/null
# refused as another namespace, or, where init's /proc/1/root or /proc/1/ns/mnt
# cannot be read (a sandbox: then the namespace is never compared), as unverifiable
# shellcheck disable=SC2086
check "a mount namespace of its own" \
	"mount namespace other than init's\|cannot tell whether torpor-suspend runs in .*'/proc/1/" \
	unshare $user -m "$bin" --check --resume=/dev/null

# a chroot holding torpor-suspend and its libraries, and nothing else: no /proc, no /sys
mkdir -p "$t/root/proc" "$t/root/bin"
cp "$bin" "$t/root/bin/torpor-suspend"
for lib in $(ldd "$bin" | sed -n 's/.*[ \t]\(\/[^ ]*\) (0x.*/\1/p'); do
	mkdir -p "$t/root$(dirname "$lib")"
	cp "$lib" "$t/root$lib"
done
# shellcheck disable=SC2086
check "a chroot without /proc" "cannot tell whether torpor-suspend runs in .*'/proc/self/ns/pid'.*" \
	unshare $user chroot "$t/root" /bin/torpor-suspend --check --resume=/dev/null
# /proc there (bound in a private mount namespace): seen as a chroot, or, where
# /proc/1/root cannot be read, as unverifiable; either way before the mount namespace
# shellcheck disable=SC2086,SC2016 # $user; the sh -c script expands its own $1
check "a chroot with /proc" \
	"runs in a chroot (its / is not init's)\|cannot tell whether torpor-suspend runs in a chroot: '/proc/1/root'" \
	unshare $user -m --propagation private sh -c \
	'mount --rbind /proc "$1/proc" && exec chroot "$1" /bin/torpor-suspend --check --resume=/dev/null' \
	sh "$t/root"
# the test build's way past an EACCES is that and no more: a PID namespace seen to
# differ, and no /proc at all, are still refused
tbin=${TORPOR_SUSPEND_TEST:-build/test/torpor-suspend}
# shellcheck disable=SC2086
check "the test build, allowed past EACCES, in a PID namespace of its own" \
	"PID namespace of its own" unshare $user -p -f --mount-proc "$tbin" --check --resume=/dev/null
cp "$tbin" "$t/root/bin/torpor-suspend"
# shellcheck disable=SC2086
check "the test build, allowed past EACCES, in a chroot without /proc" \
	"cannot tell whether torpor-suspend runs in .*'/proc/self/ns/pid'.*" \
	unshare $user chroot "$t/root" /bin/torpor-suspend --check --resume=/dev/null
echo "1..$n"
[ "$failed" -eq 0 ]
