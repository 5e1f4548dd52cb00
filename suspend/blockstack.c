// SPDX-License-Identifier: GPL-2.0-only
/*
 * blockstack.c - which block devices answer while the system is frozen
 *
 * After FREEZE, user space and the kernel's freezable threads and workqueues
 * stop.  A block device whose I/O passes through one of them never completes
 * a request until the thaw: a read or write of it, or a syncfs() of a
 * filesystem on it, would wait for ever with everything frozen.  That is so
 * for a loop device (its workqueue is freezable since Linux 5.13, and its
 * backing file may live on FUSE) and zloop, nbd and ublk (served by a user
 * process), and rbd (its messenger is a network client); and for every dm or
 * md device stacked on one of them, found through sysfs slaves/ (a partition's
 * through its disk's).  The kernel's own drivers (virtio, SCSI, NVMe, md,
 * dm-crypt, dm-linear) keep answering.  zram and brd answer too, but what they
 * hold lives in RAM: it comes back with the image, no other system can mount
 * it, and an image written there would be gone at power-off.
 * Neither kind is stamped; a stack that stops is never synced or written after
 * the freeze; an image never goes to either.  The initramfs has neither.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blockstack.h"
#include "sysblock.h"

#define MAX_DEPTH 8

/* sysfs name prefixes of the devices that user space or a freezable workqueue serves */
static const char *const stops[] = { "loop", "zloop", "nbd", "ublkb", "rbd" };
/* and of those whose content is RAM (zram, brd's ramN) */
static const char *const in_memory[] = { "zram", "ram" };

static int has_prefix(const char *name, const char *const *tab, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strncmp(name, tab[i], strlen(tab[i])))
			return 1;
	return 0;
}

/*
 * The disk of partition @name ("md0" for "md0p1"): sysfs puts a partition's
 * directory inside its disk's.  1 and @buf; 0 when @name is no partition (or
 * not there at all); -errno.
 */
static int disk_of(const char *sysroot, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX], *slash, *disk;
	ssize_t n;

	if (snprintf(path, sizeof(path), "%s/sys/class/block/%s/partition", sysroot, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	if (access(path, F_OK) < 0)
		return errno == ENOENT ? 0 : -errno;
	snprintf(path, sizeof(path), "%s/sys/class/block/%s", sysroot, name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	link[n] = '\0';
	slash = strrchr(link, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	disk = strrchr(link, '/');
	disk = disk ? disk + 1 : link;
	if (!*disk || !strcmp(disk, "..") || strlen(disk) >= len)
		return -EINVAL;
	memcpy(buf, disk, strlen(disk) + 1);
	return 1;
}

/* "loop0 (/srv/disk.img)": a loop device (or its partition's) with the file behind it */
static void describe(const char *sysroot, const char *name, char *via, size_t len)
{
	char path[PATH_MAX], file[PATH_MAX] = "", disk[NAME_MAX + 1];
	const char *loop = name;
	size_t n;
	FILE *f;

	if (!len)
		return;
	if (disk_of(sysroot, name, disk, sizeof(disk)) == 1)
		loop = disk;
	if (!strncmp(loop, "loop", 4) &&
	    snprintf(path, sizeof(path), "%s/sys/class/block/%s/loop/backing_file", sysroot,
		     loop) < (int)sizeof(path) && (f = fopen(path, "re"))) {
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

static int classify_at(const char *sysroot, const char *name, int depth, char *via, size_t len)
{
	char path[PATH_MAX], disk[NAME_MAX + 1], sub[256];
	enum blockstack_kind kind = BLOCKSTACK_ANSWERS;
	struct dirent *d;
	DIR *dir;
	int r;

	if (has_prefix(name, stops, sizeof(stops) / sizeof(stops[0]))) {
		describe(sysroot, name, via, len);
		return BLOCKSTACK_STOPS;
	}
	/* deeper than any real stack: a loop in sysfs, or not worth the risk */
	if (depth > MAX_DEPTH) {
		snprintf(via, len, "%s (a stack of more than %d devices)", name, MAX_DEPTH);
		return BLOCKSTACK_STOPS;
	}
	if (has_prefix(name, in_memory, sizeof(in_memory) / sizeof(in_memory[0]))) {
		snprintf(via, len, "%s", name);
		kind = BLOCKSTACK_IN_MEMORY;
	}
	/* a partition has no slaves/ of its own: its disk has (md0p1 over md0) */
	r = disk_of(sysroot, name, disk, sizeof(disk));
	if (r == 1)
		return classify_at(sysroot, disk, depth + 1, via, len);
	if (r < 0)
		return r;
	if (snprintf(path, sizeof(path), "%s/sys/class/block/%s/slaves", sysroot, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	dir = opendir(path);
	/* no slaves/: a disk, served by its driver */
	if (!dir)
		return errno == ENOENT || errno == ENOTDIR ? (int)kind : -errno;
	r = 0;
	while (kind != BLOCKSTACK_STOPS && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		r = classify_at(sysroot, d->d_name, depth + 1, sub, sizeof(sub));
		if (r < 0)
			break;
		if (r > (int)kind) {
			kind = r;
			snprintf(via, len, "%s", sub);
		}
	}
	closedir(dir);
	return r < 0 ? r : (int)kind;
}

static int md_at(const char *sysroot, const char *name, int depth)
{
	char path[PATH_MAX], disk[NAME_MAX + 1];
	struct dirent *d;
	DIR *dir;
	int r;

	/* md devices are mdN (and md_dN, md_NAME in old kernels); deeper than any
	 * real stack (a loop in sysfs): taken as md, the careful answer */
	if (!strncmp(name, "md", 2) || depth > MAX_DEPTH)
		return 1;
	r = disk_of(sysroot, name, disk, sizeof(disk));
	if (r == 1)
		return md_at(sysroot, disk, depth + 1);
	if (r < 0)
		return r;
	if (snprintf(path, sizeof(path), "%s/sys/class/block/%s/slaves", sysroot, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	r = 0;
	while (r == 0 && (d = readdir(dir)))
		if (d->d_name[0] != '.')
			r = md_at(sysroot, d->d_name, depth + 1);
	closedir(dir);
	return r;
}

/**
 * blockstack_has_md() - is the device @name (a sysfs name) md RAID, or built on
 * it (LVM or LUKS over md, a partition of an array)?
 * @sysroot: "" (tests: a directory standing in for /)
 * Return: 1 or 0, or -errno when sysfs does not tell.
 */
int blockstack_has_md(const char *sysroot, const char *name)
{
	return md_at(sysroot, name, 0);
}

/**
 * blockstack_of_has_md() - blockstack_has_md() of block device @dev
 */
int blockstack_of_has_md(dev_t dev)
{
	char name[NAME_MAX + 1];
	int r;

	r = sysblock_name("", dev, name, sizeof(name));
	return r < 0 ? r : blockstack_has_md("", name);
}

/**
 * blockstack_classify() - what the device @name (a sysfs name) is built on
 * @sysroot: "" (tests: a directory standing in for /)
 * @via: unless BLOCKSTACK_ANSWERS, the device that decided, for messages
 *       ("loop0 (/srv/disk.img)", "nbd0", "zram0")
 * Return: an enum blockstack_kind, or -errno when sysfs does not tell (the
 * caller must not take that as BLOCKSTACK_ANSWERS).
 */
int blockstack_classify(const char *sysroot, const char *name, char *via, size_t len)
{
	if (len)
		via[0] = '\0';
	return classify_at(sysroot, name, 0, via, len);
}

/**
 * blockstack_of() - what block device @dev is built on; as blockstack_classify()
 */
int blockstack_of(dev_t dev, char *via, size_t len)
{
	char name[NAME_MAX + 1];
	int r;

	if (len)
		via[0] = '\0';
	r = sysblock_name("", dev, name, sizeof(name));
	return r < 0 ? r : blockstack_classify("", name, via, len);
}
