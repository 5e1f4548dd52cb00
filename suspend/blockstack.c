// SPDX-License-Identifier: GPL-2.0-only
/*
 * blockstack.c - which block devices answer while the system is frozen
 *
 * After FREEZE, user space and the kernel's freezable threads and workqueues
 * stop.  A block device whose I/O passes through one of them never completes
 * a request until the thaw: a read or write of it, or a syncfs() of a
 * filesystem on it, would wait for ever with everything frozen.  That is so
 * for a loop device (its workqueue is freezable since Linux 5.13, and its
 * backing file may live on FUSE), nbd and ublk (served by a user process),
 * and rbd (its messenger is a network client); and for every dm or md device
 * stacked on one of them, found through sysfs slaves/.  The kernel's own
 * drivers (virtio, SCSI, NVMe, md, dm-crypt, dm-linear, zram) keep answering.
 * Such a stack is never stamped, synced or written after the freeze; the
 * initramfs does not have it either.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blockstack.h"

#define MAX_DEPTH 8

/* sysfs name prefixes of the devices that user space or a freezable workqueue serves */
static const char *const served[] = { "loop", "nbd", "ublkb", "rbd" };

/**
 * blockstack_name() - the sysfs name of block device @dev ("vda2", "dm-0")
 * @sysroot: "" (tests: a directory standing in for /)
 * Return: 0 with @buf set, or -errno (no such device in sysfs, -ENAMETOOLONG).
 */
int blockstack_name(const char *sysroot, dev_t dev, char *buf, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *slash;
	ssize_t n;

	if (snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u", sysroot, major(dev),
		     minor(dev)) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	slash = strrchr(target, '/');
	slash = slash ? slash + 1 : target;
	if (!*slash || strlen(slash) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, slash, strlen(slash) + 1);
	return 0;
}

/* "loop0 (/srv/disk.img)": a loop device with the file behind it, for messages */
static void describe(const char *sysroot, const char *name, char *via, size_t len)
{
	char path[PATH_MAX], file[PATH_MAX] = "";
	size_t n;
	FILE *f;

	if (!len)
		return;
	if (!strncmp(name, "loop", 4) &&
	    snprintf(path, sizeof(path), "%s/sys/class/block/%s/loop/backing_file", sysroot,
		     name) < (int)sizeof(path) && (f = fopen(path, "re"))) {
		if (!fgets(file, sizeof(file), f))
			file[0] = '\0';
		fclose(f);
		n = strlen(file);
		if (n && file[n - 1] == '\n')
			file[n - 1] = '\0';
	}
	if (file[0])
		snprintf(via, len, "%s (%s)", name, file);
	else
		snprintf(via, len, "%s", name);
}

static int served_at(const char *sysroot, const char *name, int depth, char *via, size_t len)
{
	char path[PATH_MAX];
	struct dirent *d;
	size_t i;
	DIR *dir;
	int r = 0;

	for (i = 0; i < sizeof(served) / sizeof(served[0]); i++)
		if (!strncmp(name, served[i], strlen(served[i]))) {
			describe(sysroot, name, via, len);
			return 1;
		}
	/* deeper than any real stack: a loop in sysfs, or not worth the risk */
	if (depth > MAX_DEPTH) {
		snprintf(via, len, "%s (a stack of more than %d devices)", name, MAX_DEPTH);
		return 1;
	}
	if (snprintf(path, sizeof(path), "%s/sys/class/block/%s/slaves", sysroot, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	dir = opendir(path);
	/* no slaves/: a partition or a disk, served by its driver */
	if (!dir)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while (r == 0 && (d = readdir(dir)))
		if (d->d_name[0] != '.')
			r = served_at(sysroot, d->d_name, depth + 1, via, len);
	closedir(dir);
	return r;
}

/**
 * blockstack_served() - is the device @name (a sysfs name), or one under it,
 * served by a process or a freezable workqueue?
 * @via: the one found, for messages ("loop0 (/srv/disk.img)", "nbd0")
 * Return: 1 (and @via set), 0 when the kernel's drivers alone serve it, -errno.
 */
int blockstack_served(const char *sysroot, const char *name, char *via, size_t len)
{
	if (len)
		via[0] = '\0';
	return served_at(sysroot, name, 0, via, len);
}

/**
 * blockstack_frozen_ok() - can block device @dev be read and written while frozen?
 * @via: when not, the device that would not answer, for messages
 * Return: 1 when it can, 0 when not, -errno when sysfs does not tell (the
 * caller must take that as "not").
 */
int blockstack_frozen_ok(dev_t dev, char *via, size_t len)
{
	char name[NAME_MAX + 1];
	int r;

	if (len)
		via[0] = '\0';
	r = blockstack_name("", dev, name, sizeof(name));
	if (r < 0)
		return r;
	r = blockstack_served("", name, via, len);
	return r < 0 ? r : !r;
}
