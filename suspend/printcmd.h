/* SPDX-License-Identifier: GPL-2.0-only */
/* printcmd.h - torpor-suspend --print-cmdline: the resume= line for the swap area in use */
#ifndef SUSPEND_PRINTCMD_H
#define SUSPEND_PRINTCMD_H

#include <stddef.h>

#include "hibernate.h"
#include "probe.h"
#include "target.h"

/**
 * printcmd_format() - the kernel parameters that name swap area @t
 * @t: the area: a partition, or a swap file (@t->offset_pages is its header page)
 * @id: what the device holds: the swap header of a partition, the filesystem of
 *      a swap file; its UUID is used
 * @buf: "resume=UUID=xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx[ resume_offset=N]"
 * @len: size of @buf
 *
 * Return: 0; -ENOENT when @id has no UUID; -ENOSPC when @buf is too small.
 */
int printcmd_format(const struct hib_target *t, const struct probe_id *id, char *buf,
		    size_t len);

/**
 * printcmd_run() - find the swap area as a hibernation would, print its line
 * @o: the options; with no resume device, the one active swap area is taken
 *
 * Never opens /dev/snapshot, never freezes.  Return: 0, or -errno (reported).
 */
int printcmd_run(const struct hib_opts *o);

#endif
