#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cmdline hook of torpor's dracut module (sourced by dracut): in shell mode, make
# the initqueue wait for the resume device, and give up on it at the initqueue
# timeout with a warning instead of the emergency shell.  With systemd the wait is
# left out (a device unit would block the boot without a bound); torpor-resume
# waits up to torpor.wait= seconds itself.
# shellcheck disable=SC2154 # dracut sets initdir, moddir, hookdir, host_fs_types, ...

torpor_cmdline() {
    local _spec _dev

    _spec=$(getarg resume=) || return 0
    [ -n "$_spec" ] || return 0
    [ -z "$DRACUT_SYSTEMD" ] || return 0
    _dev=$(label_uuid_to_dev "$_spec")
    case $_dev in
        /dev/*) ;;
        *) return 0 ;;
    esac
    wait_for_dev "$_dev"
    # shellcheck disable=SC2016 # $job is expanded when the timeout hook runs
    printf 'warn "torpor: resume device %s not found, continuing boot"; cancel_wait_for_dev "%s"; rm -f -- "$job"\n' \
        "$_dev" "$_dev" >>"$hookdir/initqueue/timeout/torpor.sh"
}

torpor_cmdline
unset -f torpor_cmdline
