/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devscan.h - scan /sys/class/block for the devices whose content carries a
 * tag, and the policy of which devices a scan does not read
 */
#ifndef CORE_DEVSCAN_H
#define CORE_DEVSCAN_H

#include <stddef.h>
#include <sys/types.h>

#define TAG_VALUE_MAX		256	/* a tag's value, NUL included */

enum lookup {
	LK_UUID,
	LK_LABEL,
	LK_PARTUUID,
	LK_PARTLABEL,
	LK_DMNAME,
};

/* What a scan of /sys/class/block looks for. */
struct scan {
	enum lookup what;
	const char *value;		/* LABEL, PARTUUID, PARTLABEL or dm name */
	char norm[TAG_VALUE_MAX];	/* UUID: its hex digits in lower case */
	dev_t *all;			/* when set: every distinct match, up to @cap */
	size_t cap, n;
};

/* What devscan_block() found. */
enum devscan_found {
	DEVSCAN_NONE,			/* no device matched */
	DEVSCAN_ONE,			/* one did: *ret_dev */
	DEVSCAN_MANY,			/* two different devices did */
};

/**
 * devscan_block() - every block device sysfs knows, matched against @s
 * @s: what to look for; its @all, when set, gets every distinct match
 * @ret_dev: the one match, written on DEVSCAN_ONE only
 *
 * UUID= and LABEL= read each device's content, PARTUUID= and PARTLABEL= its
 * disk's partition table, within a lookup (devread_lookup_start()).
 * Return: an enum devscan_found, or -errno when /sys/class/block cannot be read.
 */
int devscan_block(struct scan *s, dev_t *ret_dev);

/**
 * devscan_built_on() - is @top built on @under?
 *
 * A holder of @under (or of its disk, when @under is a partition), a
 * partition of such a holder, or a holder of such a holder: an array's
 * partition over a member's partition; a multipath map's kpartx partition
 * over a path's partition.
 * Return: 1 or 0.
 */
int devscan_built_on(dev_t top, dev_t under);

/**
 * devscan_unreadable() - would reading block device @name hang?
 * @name: its name in /sys/class/block
 *
 * A suspended dm device (until it is resumed), a SCSI disk or its partition
 * whose state is not "running" (offline, blocked).
 * Return: 1 or 0.
 */
int devscan_unreadable(const char *name);

#endif
