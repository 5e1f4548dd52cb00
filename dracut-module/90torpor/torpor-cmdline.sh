#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cmdline hook of torpor's dracut module (sourced by dracut): in shell mode, keep
# dracut's initqueue running until the resume device is there or torpor.wait=
# seconds (default 5) have passed since the initqueue first waited for it, so that
# a missing resume device costs the boot torpor.wait at most; torpor-pre-mount.sh
# lets torpor-resume wait only for what is left of that time.  Shell mode only:
# with dracut's systemd module, module-setup.sh installs torpor-restore.service
# instead of this hook (and an image built by an older module, with this hook
# under systemd, leaves the wait to torpor-resume).
#
# Nothing read from the command line is written into a script: the device path
# and the wait go to files in /run/torpor/ as data, and the initqueue hooks
# written here are fixed text that reads them.
# shellcheck disable=SC2154 # dracut sets hookdir

torpor_cmdline() {
    local _spec _dev _wait

    _spec=$(getarg resume=) || return 0
    [ -n "$_spec" ] || return 0
    [ -z "$DRACUT_SYSTEMD" ] || return 0
    _dev=$(label_uuid_to_dev "$_spec")
    case $_dev in
        /dev/*) ;;
        *) return 0 ;;
    esac
    # torpor-resume reads torpor.wait= as 0..INT_MAX; the shell's arithmetic
    # gets at most 6 digits (11 days)
    _wait=$(getarg torpor.wait=)
    case $_wait in
        '' | *[!0-9]*) _wait=5 ;;
    esac
    # decimal, as torpor-resume reads it: a leading 0 would make the shell's
    # arithmetic read octal, and 08 or 09 an error that ends dash (dracut's init)
    _wait=${_wait#"${_wait%%[!0]*}"}
    case $_wait in
        '') _wait=0 ;;
        ???????*) _wait=999999 ;;
    esac
    mkdir -p /run/torpor || return 0
    printf '%s\n' "$_dev" >/run/torpor/device
    printf '%s\n' "$((_wait * 100))" >/run/torpor/wait
    rm -f /run/torpor/deadline
    # finished when the device exists, or when the deadline (uptime in 1/100 s, set
    # on the first check) has passed
    cat >"$hookdir/initqueue/finished/90-torpor.sh" <<'HOOK'
# torpor: is the resume device there, or has torpor.wait= run out? (torpor-cmdline.sh)
if ! read -r _torpor_dev </run/torpor/device || [ -e "$_torpor_dev" ]; then
    true
else
    read -r _torpor_now _ </proc/uptime
    _torpor_now=${_torpor_now%.*}${_torpor_now#*.}
    _torpor_now=${_torpor_now#"${_torpor_now%%[!0]*}"}
    if [ ! -s /run/torpor/deadline ]; then
        read -r _torpor_wait </run/torpor/wait
        echo "$((${_torpor_now:-0} + ${_torpor_wait:-0}))" >/run/torpor/deadline
        ! getargbool 0 torpor.debug ||
            echo "<6>torpor: initqueue: start, waiting for the resume device" >/dev/kmsg
    fi
    read -r _torpor_deadline </run/torpor/deadline
    [ "${_torpor_now:-0}" -ge "${_torpor_deadline:-0}" ]
fi
HOOK
    # and at the initqueue's timeout (rd.retry=), give up on it instead of failing the boot
    cat >"$hookdir/initqueue/timeout/90-torpor.sh" <<'HOOK'
# torpor: stop waiting for the resume device (torpor-cmdline.sh)
rm -f -- "$hookdir/initqueue/finished/90-torpor.sh" "$job"
HOOK
}

torpor_cmdline
unset -f torpor_cmdline
