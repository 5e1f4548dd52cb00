#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-suspend run by an ordinary user: it must say "hibernating needs root" and
# exit 1 before it looks at anything else.  --check never opens /dev/snapshot, so
# this is safe on the build host.  Needs root itself (to drop to nobody with
# setpriv); as an ordinary user it runs the binary directly.
bin=${TORPOR_SUSPEND:-build/torpor-suspend}

if [ "$(id -u)" -eq 0 ]; then
	if ! command -v setpriv >/dev/null 2>&1; then
		echo "not ok 1 - setpriv (util-linux) not found"
		exit 1
	fi
	set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$bin"
else
	set -- "$bin"
fi
out=$("$@" --check --resume=/dev/null 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "hibernating needs root"; then
	echo "ok 1 - torpor-suspend as a non-root user: 'hibernating needs root', exit 1"
else
	echo "not ok 1 - torpor-suspend as a non-root user exited $rc"
	printf '%s\n' "$out" | sed 's/^/# /'
	exit 1
fi
