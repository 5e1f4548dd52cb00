// SPDX-License-Identifier: GPL-2.0-only
/*
 * mounts.c - the mount stamps of the local filesystems mounted now
 *
 * From /proc/self/mountinfo, every filesystem whose source is a block device:
 * its mount stamp, once per device (torpor-resume refuses the image if it was
 * mounted again since), or, for a read-write one we cannot stamp, its name, so
 * the user hears that it is not protected.  The same pass lists the mount
 * points to sync after the freeze (mountsync.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blockstack.h"
#include "devname.h"
#include "fsstamp.h"
#include "mountinfo.h"
#include "mounts.h"
#include "mountsync.h"
#include "sysblock.h"

/* FUSE (fuse, fuseblk, fuse.*): its server is a process, frozen with the others */
int mounts_is_fuse(const char *fstype)
{
	return !strncmp(fstype, "fuse", 4);
}

/*
 * The block device under a mount: its source when that is a block device node
 * (btrfs shows an anonymous 0:N as its st_dev), else its st_dev when that is a
 * real device number (a root mounted by the kernel shows the source /dev/root).
 */
static int source_device(const struct mountinfo_entry *e, dev_t *ret)
{
	struct stat st;

	/*
	 * Only a node in /dev, and never for FUSE (but fuseblk): a FUSE server
	 * names its source as it likes, and a path through its own mount would
	 * make stat() wait for ever on a server that does not answer.
	 */
	if (!strncmp(e->source, "/dev/", 5) && strncmp(e->source, "/dev/shm/", 9) &&
	    (!mounts_is_fuse(e->fstype) || !strcmp(e->fstype, "fuseblk")) &&
	    stat(e->source, &st) == 0 && S_ISBLK(st.st_mode)) {
		*ret = st.st_rdev;
		return 1;
	}
	if (e->major != 0) {
		*ret = makedev(e->major, e->minor);
		return 1;
	}
	return 0;
}

int mounts_find(const struct mounts_fs *tab, uint32_t n, dev_t dev)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (tab[i].dev == dev)
			return (int)i;
	return -1;
}

int mounts_add(struct mounts_fs **tab, uint32_t *n, const struct mountinfo_entry *e, dev_t dev,
	       int fd, int err, const char *via)
{
	struct mounts_fs *nt = realloc(*tab, (*n + 1) * sizeof(**tab));
	struct mounts_fs f = { strdup(e->fstype), strdup(e->mount_point), dev, fd, err,
			       via ? strdup(via) : NULL };

	if (nt)
		*tab = nt;
	if (!nt || !f.fstype || !f.where || (via && !f.via)) {
		free(f.fstype);
		free(f.where);
		free(f.via);
		return -ENOMEM;
	}
	nt[(*n)++] = f;
	return 0;
}

static void drop(struct mounts_fs *tab, uint32_t *n, uint32_t i)
{
	free(tab[i].fstype);
	free(tab[i].where);
	free(tab[i].via);
	if (tab[i].fd >= 0)
		close(tab[i].fd);
	memmove(&tab[i], &tab[i + 1], (*n - i - 1) * sizeof(*tab));
	(*n)--;
}

/* Remember block device @dev as mounted here, once. */
static int see(struct mounts *m, dev_t dev)
{
	dev_t *nt;
	uint32_t i;

	for (i = 0; i < m->nr_seen; i++)
		if (m->seen[i] == dev)
			return 0;
	nt = realloc(m->seen, (m->nr_seen + 1) * sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	m->seen = nt;
	m->seen[m->nr_seen++] = dev;
	return 0;
}

/* combine: the worse of @kind and what @r says (an error wins); @via follows */
static int worse(int kind, int r, char *via, size_t len, const char *sub)
{
	if (kind < 0 || r < 0)
		return kind < 0 ? kind : r;
	if (r > kind)
		snprintf(via, len, "%s", sub);
	return r > kind ? r : kind;
}

/* The worst of every device of the btrfs that block device @dev belongs to. */
static int btrfs_members(dev_t dev, int kind, char *via, size_t len)
{
	char name[NAME_MAX + 1], path[PATH_MAX], sub[PATH_MAX];
	struct dirent *fs, *d;
	DIR *top, *dir;
	int r;

	if (sysblock_name("", dev, name, sizeof(name)) < 0)
		return kind;
	top = opendir(MOUNTS_SYSFS_FS "/btrfs");
	if (!top)
		return kind;
	while (kind >= 0 && (fs = readdir(top))) {
		if (fs->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), MOUNTS_SYSFS_FS "/btrfs/%s/devices/%s",
			     fs->d_name, name) >= (int)sizeof(path) || access(path, F_OK) < 0)
			continue;
		*strrchr(path, '/') = '\0';
		dir = opendir(path);
		if (!dir)
			continue;
		while (kind >= 0 && (d = readdir(dir)))
			if (d->d_name[0] != '.') {
				r = blockstack_classify("", d->d_name, sub, sizeof(sub));
				kind = worse(kind, r, via, len, sub);
			}
		closedir(dir);
	}
	closedir(top);
	return kind;
}

/*
 * The device an xfs's logdev= or rtdev= option names: 1 and *ret; 0 without that
 * option, or when its node is not there; or -errno.
 */
static int xfs_extra_dev(const char *opts, const char *key, dev_t *ret)
{
	char path[PATH_MAX];
	const char *p = opts, *end;
	size_t n = strlen(key);
	struct stat st;

	while (p && *p) {
		if (!strncmp(p, key, n)) {
			end = strchr(p + n, ',');
			if (!end)
				end = p + strlen(p);
			if ((size_t)(end - p - n) >= sizeof(path))
				return -ENAMETOOLONG;
			memcpy(path, p + n, end - p - n);
			path[end - p - n] = '\0';
			/* a device node that is not there is not counted */
			if (stat(path, &st) < 0)
				return errno == ENOENT ? 0 : -errno;
			if (!S_ISBLK(st.st_mode))
				return -ENOTBLK;
			*ret = st.st_rdev;
			return 1;
		}
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

/*
 * What the filesystem of @e, on block device @dev, is built on (blockstack.c),
 * all of its devices counted: a btrfs's every device, an xfs's log and
 * realtime devices.  An enum blockstack_kind, @via naming the worst part, or -errno.
 */
int mounts_fs_stack(const struct mountinfo_entry *e, dev_t dev, char *via, size_t len)
{
	static const char *const xfs_keys[] = { "logdev=", "rtdev=" };
	char sub[PATH_MAX];
	int kind = blockstack_of(dev, via, len), r;
	size_t i;
	dev_t x = 0;

	if (!strcmp(e->fstype, "btrfs"))
		kind = btrfs_members(dev, kind, via, len);
	for (i = 0; !strcmp(e->fstype, "xfs") && i < 2; i++) {
		r = xfs_extra_dev(e->super_opts, xfs_keys[i], &x);
		if (r == 0)
			continue;
		if (r == 1)
			r = blockstack_of(x, sub, sizeof(sub));
		kind = worse(kind, r, via, len, sub);
	}
	return kind;
}

/*
 * The stamp of block device @dev, once per device.  Not of one that stops with
 * the freeze (blockstack.c: a loop device, nbd, and what is stacked on them):
 * its stamp could not be read again after the snapshot without waiting for
 * ever, and the initramfs has no such device to check it on; a read-write one
 * is named instead, as not protected, like a vfat.  Nor of one in RAM (zram):
 * no other system can mount it, and its content comes back with the image.
 */
static int stamp(struct mounts *m, const struct mountinfo_entry *e, dev_t dev)
{
	uint32_t key = major(dev) << 20 | minor(dev), i;
	struct torpor_fsrec f, *nt;
	char via[PATH_MAX];
	int fd, r;

	for (i = 0; i < m->nr_fs; i++)
		if (m->fs[i].dev == key)
			return 0;
	if (mounts_find(m->unstamped, m->nr_unstamped, dev) >= 0)
		return 0;
	r = mounts_fs_stack(e, dev, via, sizeof(via));
	if (r == BLOCKSTACK_IN_MEMORY)
		return 0;
	if (r != BLOCKSTACK_ANSWERS) {
		if (!mountinfo_has_option(e->super_opts, "rw"))
			return 0;
		return mounts_add(&m->unstamped, &m->nr_unstamped, e, dev, -1,
				  r > 0 ? -EREMOTEIO : r, r > 0 ? via : NULL);
	}
	fd = devname_open(dev, O_RDONLY);
	r = fd < 0 ? fd : fsstamp_read(fd, FSSTAMP_NO_LOG_HEAD, &f);
	if (fd >= 0)
		close(fd);
	if (r < 0) {
		/*
		 * Only a filesystem written to can be harmed by a mount elsewhere: a
		 * read-only one (an iso9660, the squashfs of a snap) is left out.
		 */
		if (!mountinfo_has_option(e->super_opts, "rw"))
			return 0;
		return mounts_add(&m->unstamped, &m->nr_unstamped, e, dev, -1, r, NULL);
	}
	nt = realloc(m->fs, (m->nr_fs + 1) * sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	m->fs = nt;
	f.dev = key;
	m->fs[m->nr_fs++] = f;
	return 0;
}

/**
 * mounts_collect() - stamps and sync list of the filesystems mounted now
 * @m: filled on success; release with mounts_release() either way
 *
 * A device that cannot be read or holds no filesystem we can stamp lands in
 * m->unstamped; a line that does not parse is skipped, its number in m->bad_line.
 * Return: 0 or -errno (mountinfo unreadable, out of memory).
 */
int mounts_collect(struct mounts *m)
{
	struct mountinfo_reader rd;
	struct mountinfo_entry e;
	uint32_t i;
	dev_t dev = 0;
	int block, r;

	memset(m, 0, sizeof(*m));
	r = mountinfo_open(&rd, MOUNTINFO_PATH);
	if (r < 0)
		return r;
	while ((r = mountinfo_next(&rd, &e)) != 0) {
		if (r == -EINVAL || r == -E2BIG) {
			if (!m->bad_line)
				m->bad_line = rd.lineno;
			continue;
		}
		if (r < 0)
			break;
		block = source_device(&e, &dev);
		r = block ? see(m, dev) : 0;
		if (r == 0 && block)
			r = stamp(m, &e, dev);
		if (r == 0)
			r = mountsync_open(m, &e, block, dev);
		if (r < 0)
			break;
	}
	mountinfo_close(&rd);
	/* a filesystem hidden at one mount point may have opened at another */
	for (i = 0; i < m->nr_unsynced; )
		if (mounts_find(m->sync, m->nr_sync, m->unsynced[i].dev) >= 0)
			drop(m->unsynced, &m->nr_unsynced, i);
		else
			i++;
	return r;
}

static void release_list(struct mounts_fs *tab, uint32_t n)
{
	while (n)
		drop(tab, &n, n - 1);
	free(tab);
}

void mounts_release(struct mounts *m)
{
	free(m->fs);
	free(m->seen);
	release_list(m->unstamped, m->nr_unstamped);
	release_list(m->sync, m->nr_sync);
	release_list(m->unsynced, m->nr_unsynced);
	memset(m, 0, sizeof(*m));
}
