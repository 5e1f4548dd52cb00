// SPDX-License-Identifier: GPL-2.0-only
/*
 * restamp.c - read the recorded filesystems' stamps again once the snapshot is taken
 *
 * mounts_collect() reads the stamps before the freeze, but a btrfs generation
 * moves with every transaction commit and an xfs log head with every log write,
 * and the sync of FREEZE (and torpor's syncfs) commit and write.  So the stamp
 * that goes into the image is read again after CREATE_IMAGE said 1: the snapshot
 * is taken, user space and the kernel's freezable threads (btrfs-transaction,
 * xfsaild, the xfs log worker) are frozen, nothing writes these filesystems any
 * more, and what is on disk now is what the snapshot's memory expects.  The
 * devices are opened before the freeze (O_DIRECT: xfs writes its superblock
 * behind the block device's page cache) and the buffer is touched, so the late
 * read needs no path lookup and no new memory.
 *
 * The restored torpor-suspend reads them again before it thaws (latecheck.h),
 * a btrfs on several devices through every one: the kernel lists them in
 * /sys/fs/btrfs/<fsid>/devices/, and they are opened here too.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkio.h"
#include "blockstack.h"
#include "devname.h"
#include "fsstamp.h"
#include "restamp.h"
#include "sysblock.h"

/* /sys/fs/xfs/<name>/log/log_head_lsn of the device @dev, opened; or -errno. */
static int open_log_head(uint32_t dev)
{
	char name[NAME_MAX + 1], path[PATH_MAX];
	int fd, r;

	r = sysblock_name("", makedev(dev >> 20, dev & 0xfffff), name, sizeof(name));
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/sys/fs/xfs/%s/log/log_head_lsn", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* The log head in @fd, or FSSTAMP_NO_LOG_HEAD. */
static uint64_t read_log_head(int fd)
{
	char text[64];
	uint64_t head;
	ssize_t n;

	if (fd < 0)
		return FSSTAMP_NO_LOG_HEAD;
	n = pread(fd, text, sizeof(text) - 1, 0);
	if (n <= 0)
		return FSSTAMP_NO_LOG_HEAD;
	text[n] = '\0';
	return fsstamp_parse_log_head(text, &head) == 0 ? head : FSSTAMP_NO_LOG_HEAD;
}

/* Open @dev for a stamp read: O_DIRECT when it can (*@ret_direct). The fd or -errno. */
static int open_stamp_dev(uint32_t dev, uint8_t *ret_direct)
{
	dev_t d = makedev(dev >> 20, dev & 0xfffff);
	int fd = devname_open(d, O_RDONLY | O_DIRECT);

	*ret_direct = fd >= 0;
	if (fd == -EINVAL)
		fd = devname_open(d, O_RDONLY);
	return fd;
}

/* The device number (major << 20 | minor) of block device @name in sysfs; 0 or -errno. */
static int sysfs_dev(const char *name, uint32_t *ret)
{
	char path[PATH_MAX], text[32];
	unsigned int maj, min;
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/sys/class/block/%s/dev", devname_root, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	text[n] = '\0';
	if (sscanf(text, "%u:%u", &maj, &min) != 2 || maj >= 1u << 12 || min >= 1u << 20)
		return -EINVAL;
	*ret = maj << 20 | min;
	return 0;
}

/* Device @dev of record @i, another than its own: opened and kept. 0 or -ENOMEM. */
static int add_member(struct restamp *rs, uint32_t i, uint32_t dev)
{
	struct restamp_member *m = realloc(rs->more, (rs->nr_more + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	rs->more = m;
	m += rs->nr_more++;
	m->index = i;
	m->dev = dev;
	m->fd = open_stamp_dev(dev, &m->direct);
	return 0;
}

/*
 * Record @i, a btrfs: open every other device the kernel lists for it, and
 * read how many its superblock counts.  What fails is kept in rs->listed[i]
 * and rs->num_devices[i] for restamp_btrfs_gap().  0 or -ENOMEM.
 */
static int open_btrfs(struct restamp *rs, uint32_t i, const struct torpor_fsrec *f)
{
	char fsid[37], path[PATH_MAX];
	uint64_t devid;
	struct dirent *d;
	uint32_t dev = 0;
	int own = 0, r = 0;
	DIR *dp;

	if (rs->fd[i] >= 0 && blkio_pread(rs->fd[i], rs->buf, FSSTAMP_READ_BYTES, 0) == 0)
		(void)fsstamp_btrfs_dev(rs->buf, FSSTAMP_READ_BYTES, &devid, &rs->num_devices[i]);
	memset(rs->buf, 0, FSSTAMP_READ_BYTES);
	fsstamp_uuid_str(f->uuid, fsid);
	if (snprintf(path, sizeof(path), "%s/sys/fs/btrfs/%s/devices", devname_root, fsid) >=
	    (int)sizeof(path)) {
		rs->listed[i] = -ENAMETOOLONG;
		return 0;
	}
	dp = opendir(path);
	if (!dp) {
		rs->listed[i] = -errno;
		return 0;
	}
	rs->listed[i] = 0;
	while (r == 0 && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		r = sysfs_dev(d->d_name, &dev);
		if (r < 0) {
			rs->listed[i] = r;
			r = 0;
			break;
		}
		rs->listed[i]++;
		if (dev == f->dev)
			own = 1;
		else
			r = add_member(rs, i, dev);
	}
	closedir(dp);
	/* the device it was stamped through must be one of them */
	if (rs->listed[i] >= 0 && !own)
		rs->listed[i] = -ENODEV;
	return r;
}

/**
 * restamp_open() - before the freeze: open what restamp_read() reads
 * @fs, @n: the table mounts_collect() made
 * Return: 0 or -ENOMEM.  A device that does not open again is left out (its
 * -errno in rs->fd[]): restamp_unopened() names it, and torpor-suspend refuses
 * before the freeze, for neither the image's stamp nor the late check after the
 * resume could be read (latecheck.h).  So does a btrfs some device of which
 * could not be opened or counted (restamp_btrfs_gap()).
 */
int restamp_open(struct restamp *rs, const struct torpor_fsrec *fs, uint32_t n)
{
	uint32_t i, k = n ? n : 1;

	memset(rs, 0, sizeof(*rs));
	rs->fd = malloc(k * sizeof(int));
	rs->head_fd = malloc(k * sizeof(int));
	rs->direct = calloc(k, 1);
	rs->listed = calloc(k, sizeof(int));
	rs->num_devices = calloc(k, sizeof(uint64_t));
	rs->buf = blkio_alloc(FSSTAMP_READ_BYTES);
	if (!rs->fd || !rs->head_fd || !rs->direct || !rs->listed || !rs->num_devices ||
	    !rs->buf) {
		restamp_close(rs);
		return -ENOMEM;
	}
	memset(rs->buf, 0, FSSTAMP_READ_BYTES);
	for (i = 0; i < n; i++) {
		rs->fd[i] = open_stamp_dev(fs[i].dev, &rs->direct[i]);
		rs->head_fd[i] = fs[i].kind == TORPOR_FS_XFS ? open_log_head(fs[i].dev) : -1;
		if (rs->head_fd[i] < 0)
			rs->head_fd[i] = -1;
		rs->listed[i] = 1;
		rs->n = i + 1;
		if (fs[i].kind == TORPOR_FS_BTRFS && open_btrfs(rs, i, &fs[i]) < 0) {
			restamp_close(rs);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * restamp_read() - after CREATE_IMAGE: read each stamp in @fs again
 * @ret_failed: how many could not be read (their old stamps stay, and may make
 *              torpor-resume refuse the image: the safe side)
 * Return: 0, or -EIO when one could not be read.  Does not print.
 */
int restamp_read(const struct restamp *rs, struct torpor_fsrec *fs, uint32_t n,
		 uint32_t *ret_failed)
{
	struct torpor_fsrec f;
	uint32_t i, failed = 0;

	for (i = 0; i < n && i < rs->n; i++) {
		if (rs->fd[i] < 0 ||
		    fsstamp_read_buf(rs->fd[i], rs->buf, read_log_head(rs->head_fd[i]), &f) < 0 ||
		    f.kind != fs[i].kind || memcmp(f.uuid, fs[i].uuid, 16)) {
			failed++;
			continue;
		}
		f.dev = fs[i].dev;
		fs[i] = f;
	}
	failed += n > rs->n ? n - rs->n : 0;
	*ret_failed = failed;
	return failed ? -EIO : 0;
}

/**
 * restamp_unopened() - the first filesystem whose device restamp_open() could
 * not open, from @from on
 * Return: its index, or -1 when every one is open.
 */
int restamp_unopened(const struct restamp *rs, uint32_t from)
{
	uint32_t i;

	for (i = from; i < rs->n; i++)
		if (rs->fd[i] < 0)
			return (int)i;
	return -1;
}

/**
 * restamp_btrfs_gap() - the first btrfs, from record @from on, whose devices
 * the late check could not all read: sysfs could not be read, a device did not
 * open, its superblock could not be read, or the kernel lists another number
 * of devices than its superblock counts (mounted degraded).  One whose own
 * device did not open is restamp_unopened()'s.
 * Return: its index, with *@ret saying why; or -1 when there is none.
 */
int restamp_btrfs_gap(const struct restamp *rs, const struct torpor_fsrec *fs, uint32_t from,
		      struct restamp_gap *ret)
{
	uint32_t i, j;

	for (i = from; i < rs->n; i++) {
		if (fs[i].kind != TORPOR_FS_BTRFS || rs->fd[i] < 0)
			continue;
		memset(ret, 0, sizeof(*ret));
		for (j = 0; j < rs->nr_more; j++) {
			if (rs->more[j].index == i && rs->more[j].fd < 0) {
				ret->kind = RESTAMP_GAP_OPEN;
				ret->err = rs->more[j].fd;
				ret->member = j;
				return (int)i;
			}
		}
		if (rs->listed[i] < 0) {
			ret->kind = RESTAMP_GAP_LIST;
			ret->err = rs->listed[i];
		} else if (rs->num_devices[i] == 0) {
			ret->kind = RESTAMP_GAP_SUPER;
			ret->err = -EIO;
		} else if (rs->num_devices[i] != (uint64_t)rs->listed[i]) {
			ret->kind = RESTAMP_GAP_COUNT;
		} else if (rs->listed[i] > RESTAMP_BTRFS_MAX) {
			ret->kind = RESTAMP_GAP_MANY;
		}
		if (ret->kind)
			return (int)i;
	}
	return -1;
}

/* Close what restamp_open() opened; safe to call twice. */
void restamp_close(struct restamp *rs)
{
	uint32_t i;

	for (i = 0; i < rs->n; i++) {
		if (rs->fd[i] >= 0)
			close(rs->fd[i]);
		if (rs->head_fd[i] >= 0)
			close(rs->head_fd[i]);
	}
	for (i = 0; i < rs->nr_more; i++)
		if (rs->more[i].fd >= 0)
			close(rs->more[i].fd);
	free(rs->more);
	free(rs->listed);
	free(rs->num_devices);
	free(rs->fd);
	free(rs->head_fd);
	free(rs->direct);
	blkio_free(rs->buf, FSSTAMP_READ_BYTES);
	memset(rs, 0, sizeof(*rs));
}
