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
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkio.h"
#include "devname.h"
#include "fsstamp.h"
#include "restamp.h"

/* /sys/fs/xfs/<name>/log/log_head_lsn of the device @dev, opened; or -errno. */
static int open_log_head(uint32_t dev)
{
	char link[256], path[PATH_MAX];
	const char *name;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", dev >> 20, dev & 0xfffff);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	name = strrchr(link, '/');
	name = name ? name + 1 : link;
	snprintf(path, sizeof(path), "/sys/fs/xfs/%s/log/log_head_lsn", name);
	n = open(path, O_RDONLY | O_CLOEXEC);
	return n < 0 ? -errno : (int)n;
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

/**
 * restamp_open() - before the freeze: open what restamp_read() reads
 * @fs, @n: the table mounts_collect() made
 * Return: 0 or -ENOMEM.  A device that does not open again is left out (its
 * -errno in rs->fd[]): restamp_unopened() names it, and torpor-suspend refuses
 * before the freeze, for neither the image's stamp nor the late check after the
 * resume could be read (latecheck.h).
 */
int restamp_open(struct restamp *rs, const struct torpor_fsrec *fs, uint32_t n)
{
	uint32_t i;

	memset(rs, 0, sizeof(*rs));
	rs->fd = malloc((n ? n : 1) * sizeof(int));
	rs->head_fd = malloc((n ? n : 1) * sizeof(int));
	rs->direct = calloc(n ? n : 1, 1);
	rs->buf = blkio_alloc(FSSTAMP_READ_BYTES);
	if (!rs->fd || !rs->head_fd || !rs->direct || !rs->buf) {
		restamp_close(rs);
		return -ENOMEM;
	}
	memset(rs->buf, 0, FSSTAMP_READ_BYTES);
	for (i = 0; i < n; i++) {
		dev_t dev = makedev(fs[i].dev >> 20, fs[i].dev & 0xfffff);

		rs->fd[i] = devname_open(dev, O_RDONLY | O_DIRECT);
		rs->direct[i] = rs->fd[i] >= 0;
		if (rs->fd[i] == -EINVAL)
			rs->fd[i] = devname_open(dev, O_RDONLY);
		rs->head_fd[i] = fs[i].kind == TORPOR_FS_XFS ? open_log_head(fs[i].dev) : -1;
		if (rs->head_fd[i] < 0)
			rs->head_fd[i] = -1;
		rs->n = i + 1;
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
	free(rs->fd);
	free(rs->head_fd);
	free(rs->direct);
	blkio_free(rs->buf, FSSTAMP_READ_BYTES);
	memset(rs, 0, sizeof(*rs));
}
