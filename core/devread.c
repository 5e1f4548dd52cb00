// SPDX-License-Identifier: GPL-2.0-only
/*
 * devread.c - what a lookup reads from the devices, read in a reader process
 * within a deadline (deadline.h): a dead disk costs one deadline, never a hang
 *
 * Each device's first 68 KiB (swap, ext2/3/4, xfs and btrfs superblocks, and
 * whether it is an md member), a partition table's entry (GPT, MBR) or a
 * filesystem's stamp; the bytes are parsed in probe.c and fsstamp.c.  The
 * devices that did not answer, or were not read, are kept for
 * devname_skipped().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "blkio.h"
#include "deadline.h"
#include "devopen.h"
#include "devread.h"
#include "fsstamp.h"
#include "msg.h"
#include "probe.h"

#define SLOW_MAX		64	/* devices remembered as not answering */
#define SKIPS_MAX		16	/* devices one lookup says it skipped */

unsigned int devname_probe_ms = DEVNAME_PROBE_MS;
pid_t (*devname_fork)(void);

/*
 * Devices whose probe missed its deadline: not read again by this process,
 * so that a dead disk costs one deadline, not one per lookup (torpor-resume
 * looks again every 100 ms while it waits).  @pid: the reader, killed, until
 * it is reaped.
 */
static struct {
	dev_t dev;
	pid_t pid;
} slow[SLOW_MAX];
static size_t nr_slow;

/* What the current lookup skipped, for devname_skipped(). */
static struct devname_skip skips[SKIPS_MAX];
static size_t nr_skips;

/* probe_dev's read over an fd: exactly @len bytes at @off, -EBADMSG when the device ends first. */
static int read_exact(void *ctx, void *buf, size_t len, uint64_t off)
{
	ssize_t n = blkio_pread_upto(*(int *)ctx, buf, len, off);

	if (n < 0)
		return n;
	return (size_t)n == len ? 0 : -EBADMSG;
}

/*
 * 1 and *id when @dev holds something we recognise and is no md member
 * (assembled or not), 0 when not, -errno.
 */
static int probe_device(dev_t dev, uint8_t *buf, struct probe_id *id)
{
	unsigned long long bytes;
	struct probe_dev pd;
	ssize_t n;
	int fd, r;

	/* O_NONBLOCK: opening a CD drive must not close its tray */
	fd = devname_open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	memset(buf, 0, PROBE_HEAD_LEN);
	n = blkio_pread_upto(fd, buf, PROBE_HEAD_LEN, 0);
	if (n < 0) {
		r = n;
		goto out;
	}
	r = probe_fs(buf, n, id);
	if (r == 0)
		goto out;
	/* a RAID member not yet assembled shows the array's content, or a part of it */
	r = devname_size(fd, &bytes);
	if (r < 0)
		goto out;
	pd.read = read_exact;
	pd.ctx = &fd;
	pd.size = bytes;
	r = probe_md(&pd, buf, n);
	if (r >= 0)
		r = !r;
out:
	close(fd);
	return r;
}

/*
 * What the reader process is asked: @dev's content, its partition table's
 * entry @partno, or the stamp of the filesystem on it.
 */
struct question {
	dev_t dev;
	unsigned long partno;		/* 0: the content or the stamp */
	unsigned int sector;		/* the disk's logical sector size, for a partition */
	int stamp;			/* 1: the stamp, with @log_head */
	uint64_t log_head;		/* xfs: as fsstamp_read_buf() takes it */
};

/* What it answers: @r as probe_device(), read_partition() or read_stamp() returns it. */
struct answer {
	int r;
	struct probe_id id;
	struct probe_part part;
	struct devname_stamp stamp;
};

_Static_assert(sizeof(struct answer) <= DEADLINE_MSG_MAX, "an answer is one atomic pipe write");

static void answer(const void *question, void *out);

/* The reader of the current lookup, started at its first read (see deadline.h). */
static struct deadline_worker reader = {
	.fn = answer,
	.qlen = sizeof(struct question),
	.alen = sizeof(struct answer),
};
static unsigned int lookup_depth;

/* The reader's buffer: in the parent these pages are never touched. */
static uint8_t head[PROBE_HEAD_LEN];

/* A new lookup (they may nest): devname_skipped() tells of the outermost one. */
void devread_lookup_start(void)
{
	if (lookup_depth++ == 0)
		nr_skips = 0;
}

/* Its end: the reader process leaves. */
void devread_lookup_end(void)
{
	if (--lookup_depth == 0)
		deadline_stop(&reader);
}

/* Note @dev as skipped by this lookup, once; kernel-doc in devread.h. */
void devread_skip(dev_t dev, enum devname_skip_reason why, int err, const char *flag)
{
	struct devname_skip *k;
	size_t i;

	for (i = 0; i < nr_skips && i < SKIPS_MAX; i++)
		if (skips[i].dev == dev)
			return;
	if (nr_skips < SKIPS_MAX) {
		k = &skips[nr_skips];
		memset(k, 0, sizeof(*k));
		k->dev = dev;
		k->reason = why;
		k->err = err;
		if (flag)
			snprintf(k->flag, sizeof(k->flag), "%s", flag);
	}
	nr_skips++;
}

/* The devices the last lookup skipped; kernel-doc in devname.h. */
size_t devname_skipped(struct devname_skip *ret, size_t cap)
{
	size_t i;

	for (i = 0; i < nr_skips && i < SKIPS_MAX && i < cap; i++)
		ret[i] = skips[i];
	return nr_skips;
}

/* Why a device was skipped, in words; kernel-doc in devname.h. */
const char *devname_skip_why(const struct devname_skip *k, char *buf, size_t len)
{
	unsigned int ms = devname_probe_ms;

	if (len == 0)
		return buf;
	switch (k->reason) {
	case DEVNAME_SKIP_UDEV:
		snprintf(buf, len, "udev marks it not to be probed (%s)", k->flag);
		break;
	case DEVNAME_SKIP_NOREADER:
		snprintf(buf, len, "no process to read it could be started: %s",
			 msg_errname(k->err));
		break;
	default:
		if (ms % 1000)
			snprintf(buf, len, "it did not answer within %u ms", ms);
		else
			snprintf(buf, len, "it did not answer within %u s", ms / 1000);
	}
	return buf;
}

/* The readers killed at a deadline that live on, reaping the others. */
static size_t stuck(dev_t *ret_dev, pid_t *ret_pid)
{
	size_t i, n = 0;

	for (i = 0; i < nr_slow; i++) {
		if (slow[i].pid && deadline_reap(slow[i].pid))
			slow[i].pid = 0;
		if (!slow[i].pid)
			continue;
		if (n++ == 0) {
			*ret_dev = slow[i].dev;
			*ret_pid = slow[i].pid;
		}
	}
	return n;
}

/* The readers killed at a deadline that live on after @ms; kernel-doc in devname.h. */
size_t devname_stuck(unsigned int ms, dev_t *ret_dev, pid_t *ret_pid)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	unsigned int waited;
	size_t n;

	for (waited = 0;; waited += 20) {
		n = stuck(ret_dev, ret_pid);
		if (n == 0 || waited >= ms)
			return n;
		nanosleep(&ts, NULL);
	}
}

/* Did @dev miss a deadline before?  Reaps the readers that have ended since. */
static int is_slow(dev_t dev)
{
	int found = 0;
	size_t i;

	for (i = 0; i < nr_slow; i++) {
		if (slow[i].pid && deadline_reap(slow[i].pid))
			slow[i].pid = 0;
		if (slow[i].dev == dev)
			found = 1;
	}
	return found;
}

/* Partition @partno in disk @dev's table: 0 and *@pi, or -errno. */
static int read_partition(dev_t dev, unsigned int sector, unsigned long partno,
			  struct probe_part *pi)
{
	unsigned long long bytes;
	struct probe_dev pd;
	int fd, r;

	fd = devname_open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	r = devname_size(fd, &bytes);
	if (r == 0) {
		pd.read = read_exact;
		pd.ctx = &fd;
		pd.size = bytes;
		r = probe_partition(&pd, sector, partno, pi);
	}
	close(fd);
	return r;
}

_Static_assert(sizeof(head) >= FSSTAMP_READ_BYTES, "the reader's buffer holds a stamp's bytes");

/* The stamp of the filesystem on @dev, and a btrfs' device id: 0 and *@ret, or -errno. */
static int read_stamp(dev_t dev, uint64_t log_head, struct devname_stamp *ret)
{
	int fd, r;

	fd = devname_open(dev, O_RDONLY);
	if (fd < 0)
		return fd;
	r = fsstamp_read_buf(fd, head, log_head, &ret->rec);
	close(fd);
	if (r == 0 && ret->rec.kind == TORPOR_FS_BTRFS)
		r = fsstamp_btrfs_dev(head, FSSTAMP_READ_BYTES, &ret->btrfs_devid,
				      &ret->btrfs_devices);
	return r;
}

/* In the reader process: every fd it opens is closed before it answers. */
static void answer(const void *question, void *out)
{
	const struct question *q = question;
	struct answer *a = out;

	if (q->stamp)
		a->r = read_stamp(q->dev, q->log_head, &a->stamp);
	else if (q->partno)
		a->r = read_partition(q->dev, q->sector, q->partno, &a->part);
	else
		a->r = probe_device(q->dev, head, &a->id);
}

/*
 * Have the reader process answer @q within devname_probe_ms; a device that
 * does not answer in time is noted as skipped and never read again (its
 * reader is killed, the next question starts another).  0 and *@a, or -errno.
 */
static int ask(const struct question *q, struct answer *a)
{
	pid_t pid = 0;
	int r;

	if (is_slow(q->dev)) {
		devread_skip(q->dev, DEVNAME_SKIP_EARLIER, 0, NULL);
		return -ETIMEDOUT;
	}
	reader.do_fork = devname_fork;
	r = deadline_ask(&reader, q, a, devname_probe_ms, &pid);
	if (r == -ETIMEDOUT) {
		if (nr_slow < SLOW_MAX) {
			slow[nr_slow].dev = q->dev;
			slow[nr_slow++].pid = pid;
		}
		devread_skip(q->dev, DEVNAME_SKIP_TIMEOUT, 0, NULL);
	} else if (r < 0) {
		devread_skip(q->dev, DEVNAME_SKIP_NOREADER, r, NULL);
	}
	return r;
}

/* probe_device(), bounded; kernel-doc in devread.h. */
int devread_probe(dev_t dev, struct probe_id *ret_id)
{
	struct question q = { .dev = dev };
	struct answer a;
	int r;

	r = ask(&q, &a);
	if (r < 0)
		return r;
	if (a.r > 0)
		*ret_id = a.id;
	return a.r;
}

/* Entry @partno of disk @disk's partition table, bounded; kernel-doc in devread.h. */
int devread_partition(dev_t disk, unsigned int sector, unsigned long partno,
		      struct probe_part *ret)
{
	struct question q;
	struct answer a;
	int r;

	memset(&q, 0, sizeof(q));
	q.dev = disk;
	q.sector = sector;
	q.partno = partno;
	r = ask(&q, &a);
	if (r < 0)
		return r;
	if (a.r == 0)
		*ret = a.part;
	return a.r;
}

/* The stamp of the filesystem on @dev, read by the reader; kernel-doc in devname.h. */
int devname_read_stamp(dev_t dev, uint64_t log_head, struct devname_stamp *ret)
{
	struct question q;
	struct answer a;
	int r;

	memset(&q, 0, sizeof(q));
	q.dev = dev;
	q.stamp = 1;
	q.log_head = log_head;
	devread_lookup_start();
	r = ask(&q, &a);
	devread_lookup_end();
	if (r == 0)
		r = a.r;
	if (r == 0)
		*ret = a.stamp;
	return r;
}

int devname_probe(dev_t dev, struct probe_id *ret_id)
{
	struct probe_id id;
	int r;

	memset(&id, 0, sizeof(id));
	devread_lookup_start();
	r = devread_probe(dev, &id);
	devread_lookup_end();
	if (r > 0)
		*ret_id = id;
	return r;
}
