#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-suspend in a container must refuse before it looks at anything else:
# in a PID namespace of its own the power-off would end only the container (and
# closing /dev/snapshot then thaws a machine whose swap header names the image);
# (a mount namespace of its own is refused too where /proc/1/ns/mnt can be read,
# which a sandbox's root may not: that refusal is not tested here.)
# --check never opens /dev/snapshot, so this is safe on the build host.  As an
# ordinary user the namespaces come with a user namespace (unshare -U -r).
bin=${TORPOR_SUSPEND:-build/torpor-suspend}
n=0
failed=0

if ! command -v unshare >/dev/null 2>&1; then
	echo "not ok 1 - unshare (util-linux) not found"
	exit 1
fi
user=
[ "$(id -u)" -eq 0 ] || user="-U -r"

# check N TEXT PATTERN UNSHARE-ARGS...
check() {
	what=$1 pattern=$2
	shift 2
	n=$((n + 1))
	# shellcheck disable=SC2086 # $user is two words or none
	out=$(unshare $user "$@" "$bin" --check --resume=/dev/null 2>&1)
	rc=$?
	if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "$pattern"; then
		echo "ok $n - $what: refused, exit 1"
	else
		echo "not ok $n - $what: exit $rc"
		printf '%s\n' "$out" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
}

check "a PID namespace of its own" "PID namespace of its own" -p -f --mount-proc
echo "1..$n"
[ "$failed" -eq 0 ]
