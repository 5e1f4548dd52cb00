#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-suspend --check run by an ordinary user: it checks what needs no root,
# names the checks that need root, points to 'sudo torpor-suspend --check' (never
# to the command that hibernates) and exits 1, as for a setup not ready; with a
# swap area or an image file alike.  --check never opens /dev/snapshot, and an
# ordinary user could not, so this is safe on the build host.  Needs root itself
# (to drop to nobody with setpriv); as an ordinary user it runs the binary directly.
bin=${TORPOR_SUSPEND:-build/torpor-suspend}
# shellcheck disable=SC2034 # n and failed are tap.sh's
n=0 failed=0
# shellcheck source=tests/unit/tap.sh
. "$(dirname "$0")/tap.sh"

if [ "$(id -u)" -eq 0 ]; then
	if ! command -v setpriv >/dev/null 2>&1; then
		not_ok "setpriv (util-linux) not found"
		exit 1
	fi
	set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$bin"
else
	set -- "$bin"
fi
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
chmod 755 "$t"
: >"$t/empty.conf"
chmod 644 "$t/empty.conf"

for area in --resume=/dev/null --image-file=/var/lib/torpor/image; do
	out=$("$@" --config="$t/empty.conf" --check "$area" 2>&1)
	rc=$?
	what="torpor-suspend --check ${area%%=*} as an ordinary user"
	if [ "$rc" -eq 1 ]; then
		ok "$what: exit 1, the check is not complete"
	else
		not_ok "$what: exit $rc, not 1"
	fi
	if printf '%s\n' "$out" | grep -q "^torpor: checking as an ordinary user: only what needs no root$" &&
		printf '%s\n' "$out" | grep -q "^torpor: warning: not checked, as they need root: the namespaces"; then
		ok "$what: says what it checks and which checks need root"
	else
		not_ok "$what: says what it checks and which checks need root"
	fi
	if printf '%s\n' "$out" | grep -q "^torpor: hint: run 'sudo torpor-suspend --check'" &&
		! printf '%s\n' "$out" | grep -q "sudo torpor-suspend'"; then
		ok "$what: hints 'sudo torpor-suspend --check', never the command that hibernates"
	else
		not_ok "$what: hints 'sudo torpor-suspend --check', never the command that hibernates"
	fi
	# the kernel check needs no root: it is made (its verdict depends on the host)
	if printf '%s\n' "$out" | grep -q "the kernel supports hibernation\|/dev/snapshot"; then
		ok "$what: checks the kernel's support without root"
	else
		not_ok "$what: checks the kernel's support without root"
	fi
	[ "$failed" -eq 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
done
echo "1..$n"
[ "$failed" -eq 0 ]
