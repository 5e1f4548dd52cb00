#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dracut-module/90torpor/torpor-cmdline.sh in a sandbox: dracut's helpers are stubs,
# $hookdir and /run/torpor are temporary directories.  A resume= value with quotes,
# $(...), backquotes and ; must not run as code in the initqueue hooks the cmdline
# hook writes, and the finished hook must wait for the device until torpor.wait=
# runs out.  No root needed.
# shellcheck disable=SC2317 # the stubs are called by the sourced hooks
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
n=0
failed=0
# shellcheck source=tests/unit/tap.sh
. "$(dirname "$0")/tap.sh"

# the hook, with its run-time directory moved into the sandbox
sed "s|/run/torpor|$t/run|g" "$top/dracut-module/90torpor/torpor-cmdline.sh" >"$t/cmdline.sh"

# run_hook RESUME WAIT: source the cmdline hook as dracut would, in a fresh hookdir
run_hook() {
	rm -rf "$t/hooks" "$t/run" "$t/pwned"
	mkdir -p "$t/hooks/initqueue/finished" "$t/hooks/initqueue/timeout"
	(
		# shellcheck disable=SC2034 # read by the sourced hook
		hookdir=$t/hooks DRACUT_SYSTEMD=
		getarg() {
			case $1 in
			resume=) [ -n "$_RESUME" ] && printf '%s\n' "$_RESUME" ;;
			torpor.wait=) [ -n "$_WAIT" ] && printf '%s\n' "$_WAIT" ;;
			*) return 1 ;;
			esac
		}
		label_uuid_to_dev() {
			case $1 in
			UUID=*) echo "/dev/disk/by-uuid/${1#UUID=}" ;;
			*) echo "$1" ;;
			esac
		}
		wait_for_dev() { :; }
		_RESUME=$1 _WAIT=$2
		# shellcheck disable=SC1091 # the copy made above
		. "$t/cmdline.sh"
	) >"$t/log" 2>&1
}

# run_jobs finished|timeout: source each of those initqueue hooks as dracut's init does
run_jobs() {
	for job in "$t/hooks/initqueue/$1"/*.sh; do
		[ -e "$job" ] || continue
		(
			# shellcheck disable=SC2034 # read by the sourced hooks
			hookdir=$t/hooks
			warn() { :; }
			cancel_wait_for_dev() { :; }
			# shellcheck disable=SC1090
			. "$job"
		) >/dev/null 2>&1
	done
}

# the finished hooks' verdict: 0 when dracut's initqueue may stop waiting
finished() {
	getargbool() { return 1; }
	for f in "$t/hooks"/initqueue/finished/*.sh; do
		[ -e "$f" ] || continue
		# shellcheck disable=SC1090
		(. "$f") || return 1
	done
	return 0
}

for v in "UUID=x\";touch $t/pwned;\"" "UUID=\$(touch $t/pwned)" "UUID=\`touch $t/pwned\`" \
	"UUID=x';touch $t/pwned;'" "UUID=x\" && touch $t/pwned #"; do
	run_hook "$v" 5
	run_jobs finished
	run_jobs timeout
	if [ -e "$t/pwned" ]; then
		not_ok "resume=$v runs as code in a hook"
		sed 's/^/# /' "$t/hooks"/initqueue/*/*.sh
	else
		ok "resume=$v stays data"
	fi
	if grep -rqF "touch" "$t/hooks"; then
		not_ok "resume=$v is written into a hook"
	else
		ok "resume=$v is not written into a hook"
	fi
done

run_hook UUID=00000000-dead-beef-0000-000000000000 5
if [ -e "$t/hooks/initqueue/finished/90-torpor.sh" ] && ! finished; then
	ok "a missing resume device keeps the initqueue waiting while torpor.wait lasts"
else
	not_ok "a missing resume device does not keep the initqueue waiting"
fi
run_jobs timeout
if finished; then
	ok "the initqueue timeout (rd.retry=) ends the wait"
else
	not_ok "the initqueue timeout (rd.retry=) does not end the wait"
fi

run_hook UUID=00000000-dead-beef-0000-000000000000 0
if finished; then
	ok "torpor.wait=0: the initqueue does not wait for a missing resume device"
else
	not_ok "torpor.wait=0: the initqueue still waits for a missing resume device"
fi

# leading zeros: decimal as torpor-resume reads them, never octal, never a shell error
for w in 08:800 010:1000 0:0 000:0; do
	if run_hook UUID=00000000-dead-beef-0000-000000000000 "${w%%:*}" &&
		[ "$(cat "$t/run/wait" 2>/dev/null)" = "${w#*:}" ]; then
		ok "torpor.wait=${w%%:*} waits ${w#*:} hundredths of a second"
	else
		not_ok "torpor.wait=${w%%:*} does not wait ${w#*:} hundredths: $(cat "$t/log")"
	fi
done

run_hook /dev/null 5
if finished; then
	ok "a resume device that exists ends the wait"
else
	not_ok "a resume device that exists does not end the wait"
fi

echo "# $n checks"
[ "$failed" -eq 0 ]
