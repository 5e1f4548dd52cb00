// SPDX-License-Identifier: GPL-2.0-only
/*
 * foreignfs.c - does torpor-suspend see every mounted filesystem?  Not one
 * mounted in another mount namespace or outside our chroot; the answer rests
 * on /sys/fs being sysfs (mounts_check_sysfs()) and on our root being init's
 * (mounts_chrooted()).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "foreignfs.h"
#include "mounts.h"

/* what known() tells of a name in a /sys/fs directory */
enum known {
	DEV_UNSEEN,		/* a block device under no mount of this list */
	DEV_SEEN,		/* one under a mount of this list, stamped or not */
	DEV_NONE,		/* no block device of that name (ext4's features/, xfs's stats/) */
};

/* Is block device @name (a sysfs name) one this list knows?  An enum known, or -errno. */
static int known(const struct mounts *m, const char *name)
{
	char path[PATH_MAX], buf[32];
	unsigned int maj, min;
	uint32_t i;
	dev_t dev;
	FILE *f;
	int ok;

	if (snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? DEV_NONE : -errno;
	ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (!ok)
		return -EINVAL;
	dev = makedev(maj, min);
	for (i = 0; i < m->nr_seen; i++)
		if (m->seen[i] == dev)
			return DEV_SEEN;
	return DEV_UNSEEN;
}

/*
 * The kernel lists every mounted ext4 and xfs by device in /sys/fs/ext4/ and
 * /sys/fs/xfs/, and every btrfs with its devices in /sys/fs/btrfs/<fsid>/devices/,
 * whichever mount namespace mounted it.  One missing from our mountinfo is
 * mounted where we cannot see it (a container's namespace, outside our chroot,
 * or lazily unmounted but still busy): we could neither sync nor stamp it, and
 * a mount elsewhere before the resume would go unseen.  Whatever keeps us from
 * telling is an error, never "none": the answer must fail closed.
 * Return: 1 (found, @name and @ret_type set), 0, or -errno.
 */
static int foreign_in(const struct mounts *m, const char *dir, const char *fstype,
		      char *name, size_t len, const char **ret_type)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int r = 0, k;

	/* no directory: that type is not loaded, so nothing of it is mounted */
	if (!dp)
		return errno == ENOENT ? 0 : -errno;
	while (!r && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		k = known(m, d->d_name);
		if (k < 0)
			r = k;
		if (k == DEV_UNSEEN) {
			snprintf(name, len, "%s", d->d_name);
			*ret_type = fstype;
			r = 1;
		}
	}
	closedir(dp);
	return r;
}

/**
 * mounts_check_sysfs() - is @dir on sysfs?  (A chroot's empty /sys is not.)
 * Return: 0 when it is, -EMEDIUMTYPE when it is on another filesystem, or the
 * -errno of statfs().
 */
int mounts_check_sysfs(const char *dir)
{
	struct statfs sf;

	if (statfs(dir, &sf) < 0)
		return -errno;
	return sf.f_type == SYSFS_MAGIC ? 0 : -EMEDIUMTYPE;
}

/**
 * mounts_chrooted() - is our root directory @root other than @init_root (init's
 * root, "/proc/1/root")?
 * Return: 0 when both are the same directory, 1 when they differ (a chroot),
 * or the -errno of the stat() that failed (no /proc, or init's root hidden).
 */
int mounts_chrooted(const char *root, const char *init_root)
{
	struct stat self, init;

	if (stat(root, &self) < 0 || stat(init_root, &init) < 0)
		return -errno;
	return self.st_dev != init.st_dev || self.st_ino != init.st_ino;
}

/* Any btrfs none of whose devices we know, in the one of @fsid; as foreign_in() */
static int foreign_btrfs(const struct mounts *m, const char *fsid, char *name, size_t len,
			 const char **ret_type)
{
	char path[PATH_MAX], first[NAME_MAX + 1] = "";
	const char *t = NULL;
	struct dirent *e;
	DIR *dd;
	int r;

	if (snprintf(path, sizeof(path), MOUNTS_SYSFS_FS "/btrfs/%s/devices", fsid) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	r = foreign_in(m, path, "btrfs", first, sizeof(first), &t);
	if (r <= 0)
		return r;
	/* a btrfs is known when any of its devices is: all of them, or none, unseen */
	dd = opendir(path);
	if (!dd)
		return -errno;
	while (r == 1 && (e = readdir(dd)))
		if (e->d_name[0] != '.' && known(m, e->d_name) == DEV_SEEN)
			r = 0;
	closedir(dd);
	if (r == 1) {
		snprintf(name, len, "%s", first);
		*ret_type = t;
	}
	return r;
}

/**
 * mounts_foreign() - a filesystem mounted where torpor-suspend cannot see it
 * @name: its device's sysfs name, when found
 * @ret_type: its type, when found
 *
 * Fails closed: when the answer cannot be known, it is an error.
 * Return: 1 when there is one, 0 when there is none, -EBADMSG when a line of
 * mountinfo did not parse (m->bad_line), -EMEDIUMTYPE when /sys/fs is not sysfs,
 * or another -errno when sysfs could not be read.
 */
int mounts_foreign(const struct mounts *m, char *name, size_t len, const char **ret_type)
{
	struct dirent *d;
	DIR *dp;
	int r;

	if (m->bad_line)
		return -EBADMSG;
	r = mounts_check_sysfs(MOUNTS_SYSFS_FS);
	if (r == 0)
		r = foreign_in(m, MOUNTS_SYSFS_FS "/ext4", "ext4", name, len, ret_type);
	if (r == 0)
		r = foreign_in(m, MOUNTS_SYSFS_FS "/xfs", "xfs", name, len, ret_type);
	if (r != 0)
		return r;
	dp = opendir(MOUNTS_SYSFS_FS "/btrfs");
	if (!dp)
		return errno == ENOENT ? 0 : -errno;
	while (r == 0 && (d = readdir(dp)))
		if (d->d_name[0] != '.' && strlen(d->d_name) == 36)
			r = foreign_btrfs(m, d->d_name, name, len, ret_type);
	closedir(dp);
	return r;
}
