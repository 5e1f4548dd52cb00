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

#endif
