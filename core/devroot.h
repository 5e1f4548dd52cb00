/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devroot.h - the files a device lookup reads in /sys, /dev and /run, under
 * devname_root: path building, small sysfs reads, block node stat()
 */
#ifndef CORE_DEVROOT_H
#define CORE_DEVROOT_H

#include <stddef.h>
#include <sys/types.h>

#define NODE_NAME_MAX		256	/* a device's name in sysfs or under /dev, NUL included */

#define DEVROOT_PRINTF(f, a)	__attribute__((format(printf, f, a)))

/*
 * Tests only: a prefix put before every /sys, /dev, /run and /proc path ("" by
 * default).  When non-empty, devname_open() also accepts regular files, so a
 * fake tree of image files can stand in for devices.
 */
extern const char *devname_root;

/* 1 when devname_root is set (unit tests), else 0. */
int devroot_is_test(void);

/* The directory standing in for / ("" on a real system), for sysblock_name(). */
const char *devroot_dir(void);

/**
 * devroot_path() - a path under the root
 * @buf: where to write devname_root followed by @fmt's text
 * @len: size of @buf
 * @fmt: printf format of the path, starting with '/'
 *
 * Return: 0, or -ENAMETOOLONG when it does not fit.
 */
int devroot_path(char *buf, size_t len, const char *fmt, ...) DEVROOT_PRINTF(3, 4);

/**
 * devroot_read() - a small (sysfs) file under the root
 * @buf: its text, NUL-terminated, one trailing newline cut (cut short to fit)
 * @len: size of @buf
 * @fmt: printf format of the path, as devroot_path()
 *
 * Return: 0, or -errno.
 */
int devroot_read(char *buf, size_t len, const char *fmt, ...) DEVROOT_PRINTF(3, 4);

/**
 * devroot_stat_block() - the block device a node under the root is
 * @ret: its device number, written on success only
 * @fmt: printf format of the path, as devroot_path(); links are followed
 *
 * Return: 0; -ENOTBLK when it is no block device; -errno from stat().
 */
int devroot_stat_block(dev_t *ret, const char *fmt, ...) DEVROOT_PRINTF(2, 3);

/* 1 when every component of relative path @rel is non-empty, and none is "." or "..", else 0. */
int devroot_rel_is_safe(const char *rel);

/**
 * devroot_sysfs_dev() - the device number sysfs gives block device @name
 * @name: a name in /sys/class/block (no '/')
 * @ret: written on success only
 *
 * Return: 0, -EINVAL when its dev file holds no "MAJ:MIN", or -errno.
 */
int devroot_sysfs_dev(const char *name, dev_t *ret);

#endif
