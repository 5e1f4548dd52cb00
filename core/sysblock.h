/* SPDX-License-Identifier: GPL-2.0-only */
/* sysblock.h - a block device's sysfs name, from its /sys/dev/block/MAJ:MIN link */
#ifndef CORE_SYSBLOCK_H
#define CORE_SYSBLOCK_H

#include <stddef.h>
#include <sys/types.h>

/**
 * sysblock_name() - the sysfs name of block device @dev ("vda2", "dm-0")
 * @root: "" (tests: a directory standing in for /)
 * Return: 0 with @buf set; -ENOENT when sysfs has no such device, -EINVAL for
 * a link that names no device, -ENAMETOOLONG when the name does not fit @len,
 * or another -errno from readlink().
 */
int sysblock_name(const char *root, dev_t dev, char *buf, size_t len);

#endif
