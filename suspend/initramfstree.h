/* SPDX-License-Identifier: GPL-2.0-only */
/* initramfstree.h - the initramfs initramfs-tools is building, as a directory (initramfstree.c) */
#ifndef SUSPEND_INITRAMFSTREE_H
#define SUSPEND_INITRAMFSTREE_H

#include "initramfs.h"

/**
 * initramfs_tree_read() - what the initramfs being built in @dir (mkinitramfs's
 * DESTDIR, seen by its hooks) will do about RESUME=, as initramfs_inspect()
 * reports it for a finished image
 * @dir: the tree
 * @resume_path: where torpor-resume is installed, absolute
 * @ret: ->verdict INITRAMFS_OK with ->hook_host INITRAMFS_HOST_ITOOLS when
 *       scripts/local-top/torpor is there, executable and names @resume_path,
 *       else INITRAMFS_NO_HOOK; ->resume_conf, resume_conf_file and
 *       resume_conf_unsure from conf/initramfs.conf and conf/conf.d/ (the
 *       judge's reader, initramfs_resume_conf()); ->efi_hook when the script
 *       runs torpor-resume without a device on an EFI boot, ->efi_resume when
 *       the torpor-resume the hook copied in carries EFILOC_MARKER.  Its image
 *       format is not judged: the hook that runs this check is copying it in.
 *
 * Return: 0; -errno when @dir or its conf/ files cannot be read (@ret->detail).
 */
int initramfs_tree_read(const char *dir, const char *resume_path, struct initramfs_report *ret);

#endif
