#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# systemd/torpor-sleep against fake system-sleep directories, a fake sleep.conf
# and a fake torpor-suspend (it only records how it was called): the pre hooks run
# once each before torpor-suspend, the post hooks once each after, with
# SYSTEMD_SLEEP_ACTION; a name in two directories runs once; a /dev/null symlink
# masks; torpor-suspend's failure is the exit status; AllowHibernation=no refuses
# before any hook; a bad HibernateDelaySec= or no RTC refuses suspend-then-hibernate
# before anything runs; make install-systemd / uninstall-systemd into a DESTDIR.
# Nothing here touches /sys/power: no path that suspends is taken.  No root needed.
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
# shellcheck disable=SC2034 # n and TAP_PREFIX are tap.sh's
n=0 TAP_PREFIX="torpor-sleep: "
failed=0
# shellcheck source=tests/unit/tap.sh
. "$(dirname "$0")/tap.sh"

# tap_diag: after a not ok line (tap.sh), the log of the run that failed
# shellcheck disable=SC2317 # called by not_ok
tap_diag() {
	[ ! -f "$t/log" ] || sed 's/^/# /' "$t/log"
}

# same WHAT EXPECTED ACTUAL
same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		printf '%s\n' "# expected:" "$2" "# got:" "$3" | sed 's/^\([^#]\)/#   \1/'
	fi
}

mkdir -p "$t/usr" "$t/lib" "$t/conf.d" "$t/rtc"
# hook NAME DIR: a system-sleep executable that logs its arguments and action
hook() {
	# shellcheck disable=SC2016 # expanded by the hook
	printf '#!/bin/sh\necho "%s $1 $2 $SYSTEMD_SLEEP_ACTION" >>"%s/calls"\n' "$1" "$t" >"$2/$1"
	chmod 0755 "$2/$1"
}
hook 10-net "$t/usr"
hook 20-disk "$t/usr"
# the same name in the second directory: only the first runs
hook 10-net "$t/lib"
sed -i 's/10-net/10-net-shadowed/' "$t/lib/10-net"
hook 30-other "$t/lib"
ln -s /dev/null "$t/usr/40-masked"
hook 40-masked "$t/lib"
echo 'echo not executable' >"$t/usr/50-plain"
# --check: FAKE_CHECK says how it ends (exit status, or hang), in checks
cat >"$t/torpor-suspend" <<EOF
#!/bin/sh
if [ "\$1" = --check ]; then
	echo "torpor-suspend \$*" >>"$t/checks"
	echo "torpor: fake check failure"
	echo "torpor: fake check failure" >&2
	[ "\${FAKE_CHECK:-0}" != hang ] || exec sleep 30
	exit \${FAKE_CHECK:-0}
fi
echo "torpor-suspend \$*" >>"$t/calls"
echo "torpor: fake failure" >&2
exit \${FAKE_RC:-0}
EOF
chmod 0755 "$t/torpor-suspend"
# the kernel's own hibernation: a fake systemd-sleep, in the second directory
mkdir -p "$t/sd/usr" "$t/sd/lib"
cat >"$t/sd/lib/systemd-sleep" <<EOF
#!/bin/sh
echo "systemd-sleep \$* \${SYSTEMD_SLEEP_ACTION:-}" >>"$t/calls"
exit 3
EOF
chmod 0755 "$t/sd/lib/systemd-sleep"
echo '[platform] shutdown reboot suspend test_resume' >"$t/disk"

sleep_run() {
	rm -f "$t/calls" "$t/checks"
	TORPOR_SUSPEND=$t/torpor-suspend TORPOR_SLEEP_DIRS="$t/usr $t/lib" \
		TORPOR_SLEEP_CONF=$t/sleep.conf TORPOR_SLEEP_CONF_DIRS=$t/conf.d TORPOR_RTC=$t/rtc \
		TORPOR_SYSTEMD_SLEEP_DIRS=${SD_DIRS:-"$t/sd/usr $t/sd/lib"} TORPOR_SYS_POWER_DISK=$t/disk \
		sh "$top/systemd/torpor-sleep" "$@" >"$t/log" 2>&1
}

# has WHAT PATTERN: the log has a line matching PATTERN (grep -E)
has() {
	if grep -Eq -- "$2" "$t/log"; then ok "$1"; else not_ok "$1"; fi
}

# calls: what ran, the parallel hooks of each phase sorted
calls() {
	[ -f "$t/calls" ] || return 0
	awk '/^torpor-suspend/ { print 2 * phase + 1 " " $0; phase++; next } { print 2 * phase " " $0 }' "$t/calls" |
		LC_ALL=C sort | sed 's/^[0-9]* //'
}

sleep_run hibernate
rc=$?
same "hibernate: pre hooks, torpor-suspend, post hooks, each once" "10-net pre hibernate hibernate
20-disk pre hibernate hibernate
30-other pre hibernate hibernate
torpor-suspend 
10-net post hibernate hibernate
20-disk post hibernate hibernate
30-other post hibernate hibernate" "$(calls)"
same "hibernate: exit status 0 when torpor-suspend succeeds" 0 "$rc"

FAKE_RC=1 sleep_run hibernate
rc=$?
same "hibernate: torpor-suspend's failure is the exit status" 1 "$rc"
if grep -q 'torpor: fake failure' "$t/log" && grep -q 'failed to put the system to sleep' "$t/log"; then
	ok "hibernate: torpor-suspend's message and the failure are logged"
else
	not_ok "hibernate: torpor-suspend's message and the failure are logged"
fi
same "hibernate: the post hooks run after a failure too" 3 "$(grep -c ' post ' "$t/calls")"
same "hibernate: a failure after the check passed never runs the kernel's hibernation" \
	"" "$(grep systemd-sleep "$t/calls")"
same "hibernate: torpor-suspend --check runs first, once" "torpor-suspend --check" "$(cat "$t/checks")"

printf '[Sleep]\nAllowHibernation=yes\n' >"$t/sleep.conf"
printf '# a drop-in wins over sleep.conf\n[Sleep]\nAllowHibernation=no\n' >"$t/conf.d/50-no.conf"
sleep_run hibernate
rc=$?
same "AllowHibernation=no in a drop-in refuses, exit status 1" 1 "$rc"
same "AllowHibernation=no: no hook, no torpor-suspend" "" "$(calls)"
# systemd's parse_boolean(): any case, and f
for v in No NO False OFF f n 0; do
	printf '[Sleep]\nAllowHibernation=%s\n' "$v" >"$t/conf.d/50-no.conf"
	sleep_run hibernate
	rc=$?
	same "AllowHibernation=$v refuses as systemd does" "1:" "$rc:$(calls)"
done
rm -f "$t/conf.d/50-no.conf"
printf '[Other]\nAllowHibernation=no\n' >"$t/conf.d/60-other.conf"
sleep_run hibernate
same "AllowHibernation= outside [Sleep] is not read" 0 "$?"

printf '[Sleep]\nHibernateDelaySec=soon\n' >"$t/conf.d/70-delay.conf"
: >"$t/rtc/wakealarm"
sleep_run suspend-then-hibernate
rc=$?
same "suspend-then-hibernate: a bad HibernateDelaySec= refuses, exit status 1" 1 "$rc"
same "suspend-then-hibernate: a bad HibernateDelaySec= runs nothing" "" "$(calls)"
if grep -q "invalid HibernateDelaySec= 'soon'" "$t/log"; then ok "says which HibernateDelaySec= is bad"; else not_ok "says which HibernateDelaySec= is bad"; fi
rm -f "$t/conf.d/70-delay.conf" "$t/rtc/wakealarm"
sleep_run suspend-then-hibernate
same "suspend-then-hibernate: no RTC wake alarm refuses, exit status 1" "1 " "$? $(calls)"

sleep_run suspend
same "suspend (systemd's own) is a usage error" 2 "$?"
sleep_run
same "no operation is a usage error" 2 "$?"

# torpor not set up: the kernel's own hibernation, as before torpor was installed
for verb in hibernate hybrid-sleep suspend-then-hibernate; do
	FAKE_CHECK=1 sleep_run "$verb"
	same "$verb: a failing check execs systemd-sleep $verb (its exit status), no hook, no torpor-suspend" \
		"3 systemd-sleep $verb " "$? $(calls)"
done
has "the check's own message is in the journal" '^torpor: fake check failure$'
same "the check's standard output is not" 1 "$(grep -c 'fake check failure' "$t/log")"
has "one line says torpor was not used, that the kernel's hibernation is used, and what to do" \
	"^torpor: hint: torpor not used: 'torpor-suspend --check' failed \\(above\\); using the kernel's own hibernation instead \\($t/sd/lib/systemd-sleep suspend-then-hibernate\\); run 'sudo torpor-suspend --check' and fix what it names, then torpor takes over$"
FAKE_CHECK=hang TORPOR_CHECK_TIMEOUT=1 sleep_run hibernate
same "a check that does not finish in time: systemd-sleep hibernate" "3 systemd-sleep hibernate " "$? $(calls)"
has "a check that does not finish in time says so" "^torpor: hint: torpor not used: 'torpor-suspend --check' did not finish within 1 s; using the kernel's own"
FAKE_CHECK=1 SD_DIRS=$t/none sleep_run hibernate
same "no systemd-sleep: exit status 1, nothing runs" "1 " "$? $(calls)"
has "no systemd-sleep: says so and what to do" "cannot hibernate: .* no systemd-sleep in '$t/none'"
FAKE_CHECK=1 TORPOR_FALLBACK=none sleep_run hibernate
same "TORPOR_FALLBACK=none: exit status 1, no kernel hibernation" "1 " "$? $(calls)"
rm -f "$t/sleep.conf" "$t/conf.d/"*

# sleep.conf's HibernateMode=: the first mode /sys/power/disk offers and torpor does
hibmode() {
	printf '[Sleep]\nHibernateMode=%s\n' "$1" >"$t/conf.d/80-mode.conf"
	sleep_run "${2:-hibernate}"
	echo "$?:$(grep -s torpor-suspend "$t/calls")"
}
same "HibernateMode=reboot: --poweroff=reboot" "0:torpor-suspend --poweroff=reboot" "$(hibmode reboot)"
same "HibernateMode=platform shutdown: --poweroff=platform" "0:torpor-suspend --poweroff=platform" \
	"$(hibmode 'platform shutdown')"
same "HibernateMode=suspend: torpor's hybrid" "0:torpor-suspend --poweroff=hybrid" "$(hibmode suspend)"
same "HibernateMode=test_resume shutdown: torpor does no test_resume" "0:torpor-suspend --poweroff=shutdown" \
	"$(hibmode 'test_resume shutdown')"
has "HibernateMode=test_resume is said to be ignored" "HibernateMode= 'test_resume' .* ignoring"
echo 'shutdown reboot [suspend]' >"$t/disk"
same "HibernateMode=platform shutdown without ACPI S4: --poweroff=shutdown" \
	"0:torpor-suspend --poweroff=shutdown" "$(hibmode 'platform shutdown')"
same "HibernateMode=platform alone without ACPI S4: refused, nothing runs" "1:" "$(hibmode platform)"
same "HibernateMode=platform refused: no hook either" "" "$(calls)"
has "HibernateMode= refused: says which modes the kernel offers" \
	"no mode of HibernateMode= 'platform' .* offered by the kernel \\('$t/disk': 'shutdown reboot suspend'\\)"
mkdir "$t/glob" && : >"$t/glob/reboot"
same "HibernateMode=*: words, never file names" "1:" "$(cd "$t/glob" && hibmode '*')"
same "hybrid-sleep: HibernateMode= is not its mode" "0:torpor-suspend --poweroff=hybrid" \
	"$(hibmode reboot hybrid-sleep)"
same "HibernateMode= empty: torpor's own setting" "0:torpor-suspend " "$(hibmode '')"
rm -f "$t/conf.d/80-mode.conf"

# make install-systemd / uninstall-systemd
rm -f "$t/log"
if make -C "$top" --no-print-directory -s B="$t/build" PREFIX=/usr LIBEXECDIR=/usr/lib/torpor \
	DESTDIR="$t/dest" install-systemd >"$t/log" 2>&1 &&
	[ -x "$t/dest/usr/lib/torpor/torpor-sleep" ] &&
	grep -q '^ExecStart=$' "$t/dest/usr/lib/systemd/system/systemd-hibernate.service.d/torpor.conf" &&
	grep -q '^ExecStart=/usr/lib/torpor/torpor-sleep hybrid-sleep$' \
		"$t/dest/usr/lib/systemd/system/systemd-hybrid-sleep.service.d/torpor.conf" &&
	grep -q '^ExecStart=/usr/lib/torpor/torpor-sleep suspend-then-hibernate$' \
		"$t/dest/usr/lib/systemd/system/systemd-suspend-then-hibernate.service.d/torpor.conf" &&
	grep -q 'TORPOR_SUSPEND:-/usr/sbin/torpor-suspend}' "$t/dest/usr/lib/torpor/torpor-sleep"; then
	ok "make install-systemd installs the runner and three drop-ins naming it"
else
	not_ok "make install-systemd installs the runner and three drop-ins naming it"
fi
if make -C "$top" --no-print-directory -s B="$t/build" PREFIX=/usr LIBEXECDIR=/usr/lib/torpor \
	DESTDIR="$t/dest" uninstall-systemd >"$t/log" 2>&1 && [ -z "$(find "$t/dest" -type f)" ] &&
	[ ! -d "$t/dest/usr/lib/systemd/system/systemd-hibernate.service.d" ]; then
	ok "make uninstall-systemd removes all of it"
else
	not_ok "make uninstall-systemd removes all of it"
	find "$t/dest" | sed 's/^/# /'
fi
[ "$failed" -eq 0 ]
