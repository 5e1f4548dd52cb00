/* SPDX-License-Identifier: GPL-2.0-only */
/* initramfsjudge.h - the verdict on what the walk kept of the initramfs (initramfsjudge.c) */
#ifndef SUSPEND_INITRAMFSJUDGE_H
#define SUSPEND_INITRAMFSJUDGE_H

#include "initramfs.h"
#include "initramfswalk.h"

/**
 * initramfs_judge() - is torpor-resume at @resume_path in what @w kept, marked
 * with this image format, and run by a hook?
 * @rep: its verdict, hook_host, formats and init are set
 *
 * Return: 0.
 */
int initramfs_judge(const struct walk *w, const char *resume_path, struct initramfs_report *rep);

/**
 * initramfs_resume_conf() - the RESUME= initramfs-tools' /init takes from the
 * R_ITOOLS_CONF files @w kept (conf/initramfs.conf, then conf/conf.d/ in name
 * order, the last assignment wins) into @rep->resume_conf, resume_conf_file and
 * resume_conf_unsure (a value not read here, or a file not kept whole)
 */
void initramfs_resume_conf(const struct walk *w, struct initramfs_report *rep);

#endif
