// SPDX-License-Identifier: GPL-2.0-only
/*
 * devscan.c - scan /sys/class/block for the devices whose content carries a
 * tag, and the policy of which devices a scan does not read
 *
 * Not read: members of dm and md devices (the holder is the real thing), disks
 * with partitions, empty devices and floppies, suspended dm devices and SCSI
 * disks that are not running (a read would hang), and the devices udev marks
 * as not to be probed.  The reads themselves are devread.c's, each within a
 * deadline.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include "ascii.h"
#include "decimal.h"
#include "devnum.h"
#include "devread.h"
#include "devroot.h"
#include "devscan.h"
#include "probe.h"
#include "sysblock.h"
#include "udevdb.h"
#include "util.h"

/* Does udev say not to probe @dev?  Then it is noted as skipped.  1 or 0. */
static int udev_skips(dev_t dev)
{
	char path[PATH_MAX], flag[64];

	if (devroot_path(path, sizeof(path), "/run/udev/data/b%u:%u", (unsigned int)major(dev),
			 (unsigned int)minor(dev)) < 0 ||
	    udevdb_no_probe(path, flag, sizeof(flag)) <= 0)
		return 0;
	devread_skip(dev, DEVNAME_SKIP_UDEV, 0, flag);
	return 1;
}

/* Whether /sys/class/block/@name/@sub has an entry (holders) or a child partition (@part). */
static int has_child(const char *name, const char *sub, int part)
{
	char path[PATH_MAX], buf[16];
	size_t n = strlen(name);
	struct dirent *de;
	int found = 0;
	DIR *d;

	if (devroot_path(path, sizeof(path), "/sys/class/block/%s/%s", name, sub) < 0)
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (!part)
			found = de->d_name[0] != '.';
		else if (!strncmp(de->d_name, name, n) && de->d_name[n])
			found = devroot_read(buf, sizeof(buf), "/sys/class/block/%s/%s/partition",
						     name, de->d_name) == 0;
	}
	closedir(d);
	return found;
}

/* A SCSI disk's state ("running", "offline", "blocked", ...) in @buf: 0, or -errno */
static int scsi_state(const char *disk_dir, char *buf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *sub;
	ssize_t n;

	/* only SCSI has this meaning of device/state (NVMe's controller says "live") */
	if (devroot_path(path, sizeof(path), "%s/device/subsystem", disk_dir) < 0)
		return -ENAMETOOLONG;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -ENOENT;
	link[n] = '\0';
	sub = strrchr(link, '/');
	if (strcmp(sub ? sub + 1 : link, "scsi"))
		return -ENOENT;
	return devroot_read(buf, len, "%s/device/state", disk_dir);
}

/* Would reading block device @name hang?  Kernel-doc in devscan.h. */
int devscan_unreadable(const char *name)
{
	char buf[32], dir[PATH_MAX];

	if (devroot_read(buf, sizeof(buf), "/sys/class/block/%s/dm/suspended", name) == 0 &&
	    !strcmp(buf, "1"))
		return 1;
	snprintf(dir, sizeof(dir), "/sys/class/block/%s", name);
	if (scsi_state(dir, buf, sizeof(buf)) == 0)
		return strcmp(buf, "running") != 0;
	snprintf(dir, sizeof(dir), "/sys/class/block/%s/..", name);
	if (devroot_read(buf, sizeof(buf), "/sys/class/block/%s/partition", name) == 0 &&
	    scsi_state(dir, buf, sizeof(buf)) == 0)
		return strcmp(buf, "running") != 0;
	return 0;
}

/*
 * A partition of a disk that a dm or md device holds: a multipath path's
 * partition next to the map's (kpartx), a whole-disk RAID 1 member's partition
 * (metadata at the end) next to the array's.  The holder's is the real one.
 * And the devscan_unreadable() devices.
 */
static int superseded(const char *name)
{
	char buf[32];

	if (devscan_unreadable(name))
		return 1;
	/* sysfs puts a partition's directory inside its disk's */
	return devroot_read(buf, sizeof(buf), "/sys/class/block/%s/partition", name) == 0 &&
	       has_child(name, "../holders", 0);
}

/* The logical sector size of the disk holding partition @name; 512 if unknown. */
static unsigned int sector_size(const char *name)
{
	unsigned long long v = 0;
	char buf[32];

	if (devroot_read(buf, sizeof(buf), "/sys/class/block/%s/../queue/logical_block_size",
			 name) < 0 ||
	    decimal_parse(buf, strlen(buf), 65536, &v) < 0 || v < 512 || (v & (v - 1)))
		return 512;
	return v;
}

static int match_partition(const struct scan *s, const char *name, dev_t dev)
{
	unsigned long long partno = 0;
	struct probe_part part;
	char buf[32];
	dev_t disk;

	if (devroot_read(buf, sizeof(buf), "/sys/class/block/%s/partition", name) < 0 ||
	    decimal_parse(buf, strlen(buf), 65535, &partno) < 0 || partno == 0 || superseded(name))
		return 0;
	/* sysfs puts a partition's directory inside its disk's */
	if (devroot_read(buf, sizeof(buf), "/sys/class/block/%s/../dev", name) < 0 ||
	    devnum_parse_majmin(buf, &disk) < 0 || udev_skips(dev) || udev_skips(disk))
		return 0;
	if (devread_partition(disk, sector_size(name), partno, &part) < 0)
		return 0;
	if (s->what == LK_PARTUUID)
		return ascii_eq_nocase(part.uuid, s->value);
	return part.label[0] && !strcmp(part.label, s->value);
}

static int match_content(struct scan *s, dev_t dev)
{
	struct probe_id id;
	char hex[33];

	if (devread_probe(dev, &id) <= 0)
		return 0;
	if (s->what == LK_LABEL)
		return id.label[0] && !strcmp(id.label, s->value);
	if (!id.has_uuid)
		return 0;
	probe_uuid_hex(id.uuid, hex);
	return !strcmp(hex, s->norm);
}

static int match_dm_name(const struct scan *s, const char *name)
{
	char buf[TAG_VALUE_MAX];

	if (strncmp(name, "dm-", 3) ||
	    devroot_read(buf, sizeof(buf), "/sys/class/block/%s/dm/name", name) < 0)
		return 0;
	return !strcmp(buf, s->value);
}

/* Is @top built on @under?  Kernel-doc in devscan.h. */
int devscan_built_on(dev_t top, dev_t under)
{
	static const char *const subs[] = { "holders", "../holders" };
	char u[NODE_NAME_MAX], t[NODE_NAME_MAX], path[PATH_MAX], link[PATH_MAX];
	const char *parent;
	struct dirent *de;
	size_t i;
	ssize_t n;
	int found = 0;
	DIR *d;

	if (sysblock_name(devroot_dir(), under, u, sizeof(u)) < 0 ||
	    sysblock_name(devroot_dir(), top, t, sizeof(t)) < 0)
		return 0;
	/* @top's disk, when @top is a partition: the directory its own sits in */
	parent = NULL;
	if (devroot_read(path, sizeof(path), "/sys/class/block/%s/partition", t) == 0 &&
	    devroot_path(path, sizeof(path), "/sys/class/block/%s", t) == 0 &&
	    (n = readlink(path, link, sizeof(link) - 1)) > 0) {
		link[n] = '\0';
		parent = strrchr(link, '/');
		if (parent) {
			*(char *)parent = '\0';
			parent = strrchr(link, '/');
			parent = parent ? parent + 1 : NULL;
		}
	}
	for (i = 0; i < ARRAY_SIZE(subs) && !found; i++) {
		/* a partition's disk: the directory its own sits in */
		if (i && devroot_read(path, sizeof(path), "/sys/class/block/%s/partition", u) < 0)
			break;
		if (devroot_path(path, sizeof(path), "/sys/class/block/%s/%s", u, subs[i]) < 0)
			break;
		d = opendir(path);
		if (!d)
			continue;
		while (!found && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			found = !strcmp(de->d_name, t) || (parent && !strcmp(de->d_name, parent)) ||
				(devroot_path(path, sizeof(path), "/sys/class/block/%s/holders/%s",
					      de->d_name, t) == 0 && access(path, F_OK) == 0);
		}
		closedir(d);
	}
	return found;
}

/*
 * Devices whose bytes a UUID/LABEL scan should not read: floppies (a read can
 * stall for seconds), empty devices (unbound loop, no medium), members of a dm
 * or md device, which show the same superblock as their holder, the
 * superseded() ones, and disks with partitions, whose first sectors are a
 * partition table (a stale superblock there is not what the user means).
 */
static int skip_for_probe(const char *name)
{
	char buf[32];

	if (!strncmp(name, "fd", 2) && name[2] >= '0' && name[2] <= '9')
		return 1;
	if (devroot_read(buf, sizeof(buf), "/sys/class/block/%s/size", name) == 0 &&
	    !strcmp(buf, "0"))
		return 1;
	return has_child(name, "holders", 0) || superseded(name) || has_child(name, ".", 1);
}

static int match_entry(struct scan *s, const char *name, dev_t dev)
{
	switch (s->what) {
	case LK_UUID:
	case LK_LABEL:
		return !skip_for_probe(name) && !udev_skips(dev) && match_content(s, dev);
	case LK_PARTUUID:
	case LK_PARTLABEL:
		return match_partition(s, name, dev);
	case LK_DMNAME:
		return match_dm_name(s, name);
	}
	return 0;
}

/* Every block device sysfs knows, matched; kernel-doc in devscan.h. */
int devscan_block(struct scan *s, dev_t *ret_dev)
{
	char path[PATH_MAX];
	struct dirent *de;
	dev_t dev, found = 0;
	int n = 0, ambiguous = 0, r;
	DIR *d;

	r = devroot_path(path, sizeof(path), "/sys/class/block");
	if (r < 0)
		return r;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || devroot_sysfs_dev(de->d_name, &dev) < 0)
			continue;
		if (!match_entry(s, de->d_name, dev))
			continue;
		if (n++ && dev != found)
			ambiguous = 1;
		found = dev;
		if (s->all && s->n < s->cap)
			s->all[s->n++] = dev;
	}
	closedir(d);
	if (!n)
		return DEVSCAN_NONE;
	if (ambiguous)
		return DEVSCAN_MANY;
	*ret_dev = found;
	return DEVSCAN_ONE;
}
