#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-suspend --check run by an ordinary user: it checks what needs no root,
# names the checks that need root, points to 'sudo torpor-suspend --check' (never
# to the command that hibernates) and exits 1, as for a setup not ready; with a
# swap area or an image file alike.  --check never opens /dev/snapshot, and an
# ordinary user could not, so this is safe on the build host.  Needs root itself
# (to drop to nobody with setpriv); as an ordinary user it runs the binary directly.
# --status, for any user, is read only: the same harness runs it as nobody.
# Where only the initramfs's RESUME= names the area (Debian's installer state),
# both read it from an initramfs the user can read, and say that only root can
# know the area when it is private (initramfs-tools with UMASK=0077, dracut).
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

# an initramfs-tools image of torpor's, RESUME=UUID= of a device that is not here
libexec=$(sed -n 's/^LIBEXECDIR=\([^ ]*\).*/\1/p' "$(dirname "$bin")/install-vars" 2>/dev/null)
format=$(sed -n 's/^#define TORPOR_FORMAT_VERSION[[:space:]]*\([0-9]*\).*/\1/p' core/image.h)
uuid=0a1b2c3d-0000-4000-8000-00000000beef
if [ -z "$libexec" ] || ! command -v cpio >/dev/null 2>&1; then
	not_ok "RESUME= cases: build/install-vars and cpio are there"
elif grep -Eq '(^| )(resume=|noresume)' /proc/cmdline; then
	ok "RESUME= cases # SKIP this host's command line names the resume device"
else
	i=$t/img
	mkdir -p "$i$libexec" "$i/scripts/local-top" "$i/conf/conf.d"
	printf 'x torpor-resume image-format=%s\0' "$format" >"$i$libexec/torpor-resume"
	printf '#!/bin/sh\ntorpor=%s/torpor-resume\n' "$libexec" >"$i/scripts/local-top/torpor"
	chmod 755 "$i$libexec/torpor-resume" "$i/scripts/local-top/torpor"
	echo 'MODULES=most' >"$i/conf/initramfs.conf"
	echo "RESUME=UUID=$uuid" >"$i/conf/conf.d/resume"
	(cd "$i" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$t/open.cpio"
	chmod 644 "$t/open.cpio"
	out=$("$@" --config="$t/empty.conf" --check --initramfs="$t/open.cpio" 2>&1)
	if printf '%s\n' "$out" | grep -q "the initramfs's RESUME=UUID=$uuid (conf/conf.d/resume in initramfs '$t/open.cpio') names no device here"; then
		ok "--check as an ordinary user: reads the RESUME= of an initramfs it can read"
	else
		not_ok "--check as an ordinary user: reads the RESUME= of an initramfs it can read"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
	out=$("$@" --config="$t/empty.conf" --status --initramfs="$t/open.cpio" 2>&1)
	if printf '%s\n' "$out" | grep -q "^next hibernation writes:  UUID=$uuid (RESUME= in the initramfs's conf/conf.d/resume): "; then
		ok "--status as an ordinary user: the area RESUME= names, said where it came from"
	else
		not_ok "--status as an ordinary user: the area RESUME= names, said where it came from"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
	if [ "$(id -u)" -eq 0 ]; then
		cp "$t/open.cpio" "$t/private.cpio"
		chmod 600 "$t/private.cpio"
		out=$("$@" --config="$t/empty.conf" --check --initramfs="$t/private.cpio" 2>&1)
		if printf '%s\n' "$out" | grep -q "^torpor: warning: which area to hibernate into is not known: .* initramfs '$t/private.cpio', whose RESUME= may, is readable by root only$" &&
			printf '%s\n' "$out" | grep -q "not checked, as they need root: .*the resume device the initramfs's RESUME= names" &&
			! printf '%s\n' "$out" | grep -q "no resume device"; then
			ok "--check as an ordinary user: an initramfs only root reads: the area needs root, said so"
		else
			not_ok "--check as an ordinary user: an initramfs only root reads: the area needs root, said so"
			printf '%s\n' "$out" | sed 's/^/# /'
		fi
		out=$("$@" --config="$t/empty.conf" --status --initramfs="$t/private.cpio" 2>&1)
		if printf '%s\n' "$out" | grep -q "^next hibernation writes:  unknown (the initramfs's RESUME= may name it: run as root to read initramfs '$t/private.cpio')$"; then
			ok "--status as an ordinary user: an initramfs only root reads: the area unknown"
		else
			not_ok "--status as an ordinary user: an initramfs only root reads: the area unknown"
			printf '%s\n' "$out" | sed 's/^/# /'
		fi
	else
		ok "an initramfs only root reads # SKIP needs root, to drop to nobody"
	fi
fi
echo "1..$n"
[ "$failed" -eq 0 ]
