/* SPDX-License-Identifier: GPL-2.0-only */
/* devopen.h - open a block device by its number, never trusting /dev by name */
#ifndef CORE_DEVOPEN_H
#define CORE_DEVOPEN_H

#include <stddef.h>
#include <sys/types.h>

/**
 * devname_open() - open a block device by number, without trusting /dev
 * @dev: the device number
 * @flags: O_RDONLY or O_RDWR, plus e.g. O_DIRECT, O_EXCL; O_CREAT and O_TRUNC are dropped
 *
 * The node name comes from /sys/dev/block/MAJ:MIN/uevent (DEVNAME).  The node
 * is opened with O_NOFOLLOW and O_CLOEXEC, then fstat() must show a block
 * device numbered @dev.  When /dev has no such node (no devtmpfs), a private
 * node is made with mknod() in /dev/.torpor, or /run/torpor, opened and
 * unlinked again: that needs CAP_MKNOD.
 * With devname_root set (unit tests), a regular file is accepted as the node.
 *
 * Return: the fd; -ENODEV when the node is not block device @dev; -ELOOP when
 * it is a symlink; other -errno from open() or mknod().
 */
int devname_open(dev_t dev, int flags);

/**
 * devname_size() - size of an open block device (or regular file) in bytes
 * @fd: from devname_open()
 * @ret_bytes: written on success only
 *
 * Return: 0, -ENOTBLK for other file types, or -errno from fstat()/ioctl().
 */
int devname_size(int fd, unsigned long long *ret_bytes);

/**
 * devname_name() - a name for @dev in messages: "/dev/vdb", else "254:16"
 * @dev: the device number
 * @buf: where to write the name
 * @len: size of @buf
 *
 * Return: @buf, always NUL-terminated when @len > 0.
 */
const char *devname_name(dev_t dev, char *buf, size_t len);

#endif
