#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# dracut module of torpor: restore a torpor hibernation image before the root
# filesystem is mounted.  Boot-time parts, in shell mode:
#   torpor-cmdline.sh   (cmdline hook) asks dracut to wait for the resume device
#   torpor-pre-mount.sh (pre-mount hook 05, before 95resume's 10-resume.sh) runs
#                       torpor-resume
# With dracut's systemd module, as 74resume/95resume do, no shell hook: the unit
#   torpor-restore.service runs torpor-resume, ordered after udev's coldplug,
#                       cryptsetup.target and the initqueue, before
#                       systemd-fsck-root, sysroot.mount and systemd's own resume
#                       service (torpor-hibernate-resume.conf orders systemd
#                       252-254's systemd-hibernate-resume@.service after it)
# The unit runs torpor-resume whatever the command line says: it reads resume=,
# noresume and torpor.wait= itself (noresume invalidates an image).  A unit in
# systemd's order is better than the pre-mount hook there: that runs in
# dracut-pre-mount.service, which nothing orders against systemd's resume service.
# TORPOR_RESUME_BIN names another copy of the binary to take (a staged install).
# shellcheck disable=SC2154 # dracut sets initdir, moddir, hookdir, host_fs_types, ...

# is torpor configured here?  resume= on the running kernel's command line, in
# /etc/kernel/cmdline (kernel-install) or in dracut's kernel_cmdline, or an
# image_file in torpor.conf (a zram-only system, a swap file not in fstab)
torpor_configured() {
    local _f _line

    for _f in /proc/cmdline /etc/kernel/cmdline; do
        [[ -r $_f ]] || continue
        read -r _line <"$_f" || [[ $_line ]] || continue
        [[ " $_line " == *" resume="[!\ ]* ]] && return 0
    done
    # shellcheck disable=SC2154 # kernel_cmdline comes from dracut.conf
    [[ " ${kernel_cmdline-} " == *" resume="[!\ ]* ]] && return 0
    _f=@SYSCONFDIR@/torpor.conf
    [[ -r $_f ]] && grep -Eq '^[[:space:]]*image[-_]file[[:space:]]*=[[:space:]]*/' "$_f"
}

# called by dracut
check() {
    local _fs

    [[ -x ${TORPOR_RESUME_BIN:-@LIBEXECDIR@/torpor-resume} ]] || return 1
    # whenever torpor is configured, host-only or not: without the module the
    # first hibernation would be lost
    torpor_configured && return 0
    # else by default only when this host has swap to resume from
    if [[ $hostonly ]]; then
        for _fs in "${host_fs_types[@]}"; do
            [[ $_fs =~ ^(swap|swsuspend|swsupend)$ ]] && return 0
        done
    fi
    return 255
}

# called by dracut
depends() {
    return 0
}

# called by dracut
cmdline() {
    local _dev _resume

    for _dev in "${!host_fs_types[@]}"; do
        [[ ${host_fs_types[$_dev]} =~ ^(swap|swsuspend|swsupend)$ ]] || continue
        _resume=$(shorten_persistent_dev "$(get_persistent_dev "$_dev")")
        [[ -n $_resume ]] && printf ' resume=%s' "$_resume"
    done
}

# called by dracut
install() {
    local _conf

    # 95resume writes the same resume= when it is in the image
    if [[ $hostonly_cmdline == "yes" ]] && ! dracut_module_included "resume"; then
        _conf=$(cmdline)
        [[ $_conf ]] && printf '%s\n' "$_conf" >>"${initdir}/etc/cmdline.d/90torpor.conf"
    fi
    inst_simple "${TORPOR_RESUME_BIN:-@LIBEXECDIR@/torpor-resume}" "@LIBEXECDIR@/torpor-resume"
    # without resume=, torpor-resume mounts efivarfs to read the EFI variable
    # TorporHibernateLocation (the mount loads the module)
    hostonly='' instmods efivarfs
    if dracut_module_included "systemd"; then
        torpor_install_unit
    else
        inst_hook cmdline 20 "$moddir/torpor-cmdline.sh"
        inst_hook pre-mount 05 "$moddir/torpor-pre-mount.sh"
    fi
    torpor_build_check
}

# the systemd path: torpor-restore.service, wanted by initrd.target
torpor_install_unit() {
    local _d=$systemdsystemunitdir _dev

    inst_simple "$moddir/torpor-restore.service" "$_d/torpor-restore.service"
    inst_simple "$moddir/torpor-hibernate-resume.conf" \
        "$_d/systemd-hibernate-resume@.service.d/torpor-restore.conf"
    if ! $SYSTEMCTL -q --root "$initdir" add-wants initrd.target torpor-restore.service; then
        derror "torpor: cannot make initrd.target want torpor-restore.service: no resume from this image"
        return 1
    fi
    # a host-only resume device, as the shell hook has it from /etc/cmdline.d
    # (systemd and torpor-resume read /proc/cmdline only): resume= on the
    # command line still wins, and an image on this device is then discarded
    if [[ $hostonly_cmdline == "yes" ]]; then
        # the last one, as the kernel, getarg and torpor-resume take it
        _dev=$(cmdline)
        _dev=${_dev##* resume=}
        [[ $_dev ]] || return 0
        # a word of ExecStart= as systemd reads it: "%" a specifier, "$" a variable
        if [[ $_dev == *[[:space:]\\\"\']* ]]; then
            dwarn "torpor: host-only resume device '$_dev' has blanks, a backslash or quotes," \
                "which torpor-restore.service cannot pass: put resume= on the kernel command line," \
                "or this image does not look for a hibernation image"
            return 0
        fi
        _dev=${_dev//%/%%}
        mkdir -p "$initdir$_d/torpor-restore.service.d"
        printf '[Service]\nExecStart=\nExecStart=@LIBEXECDIR@/torpor-resume --device=%s\n' \
            "${_dev//\$/\$\$}" >"$initdir$_d/torpor-restore.service.d/hostonly.conf"
    fi
}

# can the running system hibernate?  Say so now, at build time (the image is built anyway)
torpor_build_check() {
    local _check=${TORPOR_BUILD_CHECK_BIN:-@LIBEXECDIR@/torpor-build-check} _out _line

    [[ -x $_check ]] || return 0
    _out=$("$_check" 2>&1) && return 0
    dwarn "torpor: this system cannot hibernate yet; torpor-suspend --check says:"
    while IFS= read -r _line; do
        dwarn "torpor:   $_line"
    done <<<"$_out"
    dwarn "torpor: the image is built, and resumes once that is fixed"
}
