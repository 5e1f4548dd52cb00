/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udevdb.h - what udev's database says about a block device: not to probe it
 *
 * udev keeps each device's properties in /run/udev/data/b<MAJ>:<MIN>, one
 * "E:KEY=VALUE" line each.  Device-mapper, LVM, multipath-tools and the admin
 * set some of them to keep blkid away from a device whose content is not what
 * it seems (an internal layer, a multipath path next to its map) or whose read
 * could hang (a suspended device, a map queueing I/O with no path).
 */
#ifndef CORE_UDEVDB_H
#define CORE_UDEVDB_H

#include <stddef.h>

/**
 * udevdb_no_probe() - does udev's record @path say not to read the device?
 * @path: the record, e.g. /run/udev/data/b253:3
 * @ret_flag: the property that says so ("DM_NOSCAN=1"), written when 1 is returned
 * @len: size of @ret_flag
 *
 * These say so: DM_UDEV_DISABLE_DISK_RULES_FLAG=1, DM_UDEV_DISABLE_OTHER_RULES_FLAG=1,
 * DM_NOSCAN=1, DM_SUSPENDED=1, MPATH_DEVICE_READY=0, DM_MULTIPATH_DEVICE_PATH=1,
 * ID_FS_TYPE=mpath_member, UDEV_DISABLE_PERSISTENT_STORAGE_RULES_FLAG=1 and
 * UDEV_DISABLE_PERSISTENT_STORAGE_BLKID_FLAG=1.  Not SYSTEMD_READY=0: udev
 * also sets it on the members of a btrfs that lacks a device, which must be read.
 * Return: 1; 0 when none is set or there is no record; -errno when it cannot be read.
 */
int udevdb_no_probe(const char *path, char *ret_flag, size_t len);

#endif
