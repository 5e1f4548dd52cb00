// SPDX-License-Identifier: GPL-2.0-only
/*
 * devopen.c - open a block device by its number, never trusting /dev by name
 *
 * devname_open() checks that what it opened is the block device it asked
 * for, and makes a private node where /dev has none (no devtmpfs).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include "devopen.h"
#include "devroot.h"
#include "sysblock.h"
#include "util.h"

/* The value of "KEY=" at the start of a line of @text, and its length in *len; NULL if none. */
static const char *find_key(const char *text, const char *key, size_t *len)
{
	size_t k = strlen(key);
	const char *p = text;

	while (p) {
		if (!strncmp(p, key, k)) {
			*len = strcspn(p + k, "\n");
			return p + k;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The node name under /dev for @dev, from uevent DEVNAME, else the sysfs link's last part. */
static int node_name(dev_t dev, char *buf, size_t len)
{
	unsigned int maj = major(dev), min = minor(dev);
	const char *p = NULL;
	size_t i, l = 0;
	char ue[4096];
	int r;

	if (devroot_read(ue, sizeof(ue), "/sys/dev/block/%u:%u/uevent", maj, min) == 0)
		p = find_key(ue, "DEVNAME=", &l);
	if (p) {
		if (l == 0 || l >= len)
			return -EINVAL;
		memcpy(buf, p, l);
		buf[l] = '\0';
	} else {
		r = sysblock_name(devroot_dir(), dev, buf, len);
		if (r < 0)
			return r;
		l = strlen(buf);
	}
	for (i = 0; i < l; i++) {
		if (buf[i] == '!')
			buf[i] = '/';
		if ((unsigned char)buf[i] <= ' ' || buf[i] == 0x7f)
			return -EINVAL;
	}
	return devroot_rel_is_safe(buf) ? 0 : -EINVAL;
}

/* Keep @fd only if it is block device @dev (or, in tests, a regular file). */
static int check_node(int fd, dev_t dev)
{
	struct stat st;
	int r;

	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (S_ISBLK(st.st_mode) && st.st_rdev == dev)
		return fd;
	if (devroot_is_test() && S_ISREG(st.st_mode))
		return fd;
	close(fd);
	return -ENODEV;
}

/* A directory only we can write: made 0700 by us, or already so and owned by us. */
static int private_dir(const char *dir, char *path, size_t len)
{
	struct stat st;
	int r;

	r = devroot_path(path, len, "%s", dir);
	if (r < 0)
		return r;
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (lstat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

/* No devtmpfs: make our own node, open it, and remove it again at once. */
static int open_private_node(dev_t dev, int flags)
{
	static const char *const dirs[] = { "/dev/.torpor", "/run/torpor" };
	char dir[PATH_MAX], node[PATH_MAX];
	int r, err = -ENOENT, fd;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		r = private_dir(dirs[i], dir, sizeof(dir));
		if (r < 0)
			continue;
		r = snprintf(node, sizeof(node), "%s/blk-%u-%u", dir,
			     (unsigned int)major(dev), (unsigned int)minor(dev));
		if (r < 0 || (size_t)r >= sizeof(node))
			return -ENAMETOOLONG;
		(void)unlink(node);
		if (mknod(node, S_IFBLK | 0600, dev) < 0) {
			err = -errno;
			(void)rmdir(dir);
			continue;
		}
		fd = open(node, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		r = fd < 0 ? -errno : 0;
		(void)unlink(node);
		(void)rmdir(dir);
		if (fd < 0)
			return r;
		return check_node(fd, dev);
	}
	return err;
}

/* Open block device @dev by its sysfs name, checked by fstat(); kernel-doc in devopen.h. */
int devname_open(dev_t dev, int flags)
{
	char name[NODE_NAME_MAX], path[PATH_MAX];
	int fd, r;

	/* O_CREAT with O_NOFOLLOW would make a regular file where the node is missing */
	flags &= ~(O_CREAT | O_TRUNC);
	if (node_name(dev, name, sizeof(name)) == 0) {
		r = devroot_path(path, sizeof(path), "/dev/%s", name);
		if (r < 0)
			return r;
		fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		if (fd >= 0)
			return check_node(fd, dev);
		r = -errno;
		if (r != -ENOENT && r != -ENOTDIR)
			return r;
	}
	return open_private_node(dev, flags);
}

/* Bytes in a block device (BLKGETSIZE64) or regular file; kernel-doc in devopen.h. */
int devname_size(int fd, unsigned long long *ret_bytes)
{
	struct stat st;
	uint64_t bytes;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode)) {
		*ret_bytes = st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
		return -errno;
	*ret_bytes = bytes;
	return 0;
}

/* "/dev/NAME" or "MAJ:MIN" for messages; kernel-doc in devopen.h. */
const char *devname_name(dev_t dev, char *buf, size_t len)
{
	char name[NODE_NAME_MAX];

	if (len == 0)
		return buf;
	if (node_name(dev, name, sizeof(name)) == 0)
		snprintf(buf, len, "/dev/%s", name);
	else
		snprintf(buf, len, "%u:%u", (unsigned int)major(dev), (unsigned int)minor(dev));
	return buf;
}
