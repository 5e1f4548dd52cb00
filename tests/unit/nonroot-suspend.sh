#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-suspend --check run by an ordinary user: it checks what needs no root,
# names the checks that need root, points to 'sudo torpor-suspend --check' (never
# to the command that hibernates) and exits 1, as for a setup not ready; with a
# swap area or an image file alike.  --check never opens /dev/snapshot, and an
# ordinary user could not, so this is safe on the build host.  Needs root itself
# (to drop to nobody with setpriv); as an ordinary user it runs the binary directly.
# --status, for any user, is read only: the same harness runs it as nobody.
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
# --status as an ordinary user: read only, every line, not ready (what needs root
# is not known), no error for each unreadable thing beyond one line
out=$("$@" --config="$t/empty.conf" --status 2>"$t/err")
rc=$?
what="torpor-suspend --status as an ordinary user"
if [ "$rc" -eq 1 ]; then
	ok "$what: exit 1, not ready (or not known)"
else
	not_ok "$what: exit $rc, not 1"
fi
missing=
for label in "next hibernation writes:  " "next boot reads:          " "image now:                " \
	"initramfs:                " "systemctl hibernate:      " "logind CanHibernate:      " \
	"ready:                    no: "; do
	printf '%s\n' "$out" | grep -q "^$label" || missing="$missing '$label'"
done
if [ -z "$missing" ] && printf '%s\n' "$out" | tail -n 1 | grep -q "^torpor: hint: "; then
	ok "$what: each fact a line, the verdict, then the hint"
else
	not_ok "$what: lacks$missing or the hint"
fi
if [ "$(wc -l <"$t/err")" -le 1 ]; then
	ok "$what: at most one line on stderr"
else
	not_ok "$what: $(wc -l <"$t/err") lines on stderr"
	sed 's/^/# /' "$t/err"
fi
# an image file is named by --image-file (or torpor.conf), never by resume=
out=$("$@" --config="$t/empty.conf" --status --image-file=/nonexistent/torpor-image 2>&1)
if printf '%s\n' "$out" | grep -q "^next hibernation writes:  /nonexistent/torpor-image (--image-file): "; then
	ok "$what: an image file named by --image-file says so"
else
	not_ok "$what: an image file named by --image-file says so"
	printf '%s\n' "$out" | sed 's/^/# /'
fi
json=$("$@" --config="$t/empty.conf" --status --json 2>/dev/null)
if [ "$(printf '%s\n' "$json" | wc -l)" -eq 1 ] &&
	printf '%s\n' "$json" | grep -q '^{"ready":false,.*"root":false,.*}$'; then
	ok "$what: --json: one object, not ready, not root"
else
	not_ok "$what: --json: one object, not ready, not root"
fi
# python3 is not one of tests/deps.sh's packages: its parse is an extra check where
# it is there (test-status.c checks the object with a parser of its own)
if command -v python3 >/dev/null 2>&1; then
	if printf '%s\n' "$json" | python3 -m json.tool >/dev/null 2>&1; then
		ok "$what: --json parses (python3 -m json.tool)"
	else
		not_ok "$what: --json does not parse (python3 -m json.tool)"
	fi
fi
[ "$failed" -eq 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
echo "1..$n"
[ "$failed" -eq 0 ]
