#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pre-mount hook of torpor's dracut module, sourced by dracut's shell init (with
# dracut's systemd module torpor-restore.service runs torpor-resume instead): run
# torpor-resume with the resume device from the command line.  It restores an image and never returns, or returns 0 and
# the boot goes on; noresume makes it invalidate the image.  In shell mode the
# initqueue already waited for the device (torpor-cmdline.sh): torpor-resume waits
# only for what is left of torpor.wait=, for the device and the filesystems the
# image recorded.

torpor_pre_mount() {
    local _bin=@LIBEXECDIR@/torpor-resume
    local _spec _off _now _end

    _spec=$(getarg resume=)
    # no resume=: on an EFI boot torpor-resume reads the area from the EFI
    # variable torpor-suspend wrote (TorporHibernateLocation), if there is one
    [ -n "$_spec" ] || [ -d /sys/firmware/efi/efivars ] || return 0
    if [ ! -x "$_bin" ]; then
        warn "torpor: '$_bin' is missing, continuing boot"
        return 0
    fi
    getargbool 0 torpor.debug && echo "<6>torpor: pre-mount: start, device ${_spec:-from EFI}" >/dev/kmsg
    set --
    [ -z "$_spec" ] || set -- --device="$_spec"
    if [ -s /run/torpor/deadline ] && read -r _end </run/torpor/deadline; then
        read -r _now _ </proc/uptime
        _now=${_now%.*}${_now#*.}
        _now=${_now#"${_now%%[!0]*}"}
        _end=$(((_end - ${_now:-0}) / 100))
        [ "$_end" -gt 0 ] || _end=0
        set -- "$@" --wait="$_end"
    fi
    _off=$(getarg resume_offset=) && [ -n "$_off" ] && set -- "$@" --offset="$_off"
    getargbool 0 noresume && set -- "$@" --noresume
    "$_bin" "$@" || warn "torpor: torpor-resume failed with status $?, continuing boot"
    getargbool 0 torpor.debug && echo "<6>torpor: pre-mount: done, no image restored" >/dev/kmsg
    return 0
}

torpor_pre_mount
unset -f torpor_pre_mount
