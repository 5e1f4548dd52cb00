// SPDX-License-Identifier: GPL-2.0-only
/* latecheck.c - the restored torpor-suspend reads the stamps again before it thaws (see latecheck.h) */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "blkio.h"
#include "devname.h"
#include "fsstamp.h"
#include "latecheck.h"
#include "monoclock.h"
#include "taskwait.h"

#define STACK_BYTES	(64u << 10)

/**
 * latecheck_init() - before the freeze: what the restored process needs to check
 * @rs: the descriptors and buffer of restamp_open(), kept open until the end
 * @fs, @nr_fs: the filesystem table (its dev, kind and uuid do not change)
 * @created: the image's meta.created, which the note must carry
 * @dev_fd, @header_offset, @ps: the swap device and its header page
 * Return: 0 or -ENOMEM.
 */
int latecheck_init(struct latecheck *lc, const struct restamp *rs,
		   const struct torpor_fsrec *fs, uint32_t nr_fs, uint64_t created, int dev_fd,
		   uint64_t header_offset, uint32_t ps)
{
	memset(lc, 0, sizeof(*lc));
	lc->rs = rs;
	lc->fs = fs;
	lc->nr_fs = nr_fs;
	lc->created = created;
	lc->dev_fd = dev_fd;
	lc->header_offset = header_offset;
	lc->ps = ps;
	lc->read_stamp = fsstamp_read_buf;
	lc->dev_size = devname_size;
	lc->clock_ns = mono_ns;
	lc->stack_bytes = STACK_BYTES;
	lc->page = blkio_alloc(ps);
	lc->stack = blkio_alloc(lc->stack_bytes);
	if (!lc->page || !lc->stack) {
		latecheck_free(lc);
		return -ENOMEM;
	}
	memset(lc->page, 0, ps);
	memset(lc->stack, 0, lc->stack_bytes);
	return 0;
}

/*
 * Is the device behind @fd, whose read failed with @r, gone (unplugged), so
 * that nothing can write it any more?  ENODEV and ENXIO say so.  An EIO (a
 * short read is one too) does only when the kernel shows no capacity left, as
 * it sets on a disk that died or was removed: a device still there may fail
 * reads for a while (a multipath map without queue_if_no_path while its paths
 * come back) and take the resumed system's writes later.
 */
static int is_gone(const struct latecheck *lc, int fd, int r)
{
	unsigned long long bytes = 1;

	if (r == -ENODEV || r == -ENXIO)
		return 1;
	return r == -EIO && lc->dev_size(fd, &bytes) == 0 && bytes == 0;
}

/* A read begins: its own deadline starts now. */
static void read_begins(struct latecheck *lc)
{
	__atomic_store_n(&lc->read_t0, lc->clock_ns(), __ATOMIC_RELEASE);
}

/* Record @i's device is gone (@r): counted, the first one kept for the warning. */
static void count_gone(struct latecheck *lc, uint32_t i, int r)
{
	if (!lc->gone++) {
		lc->gone_at = i;
		lc->gone_err = r;
	}
}

/*
 * Read the stamp on @fd into @now (the superblock stays in rs->buf) and compare
 * it with @then: LATE_SAME, also when the device is gone (*@ret_gone its
 * -errno, else 0), or what decides.
 */
static enum late_outcome read_one(struct latecheck *lc, int fd, const struct torpor_fsrec *then,
				  struct torpor_fsrec *now, int *ret_gone)
{
	int r;

	*ret_gone = 0;
	memset(now, 0, sizeof(*now));
	read_begins(lc);
	r = lc->read_stamp(fd, lc->rs->buf, fsstamp_log_head(then), now);
	if (is_gone(lc, fd, r)) {
		*ret_gone = r;
		return LATE_SAME;
	}
	if (r < 0 && r != -EMEDIUMTYPE && r != -EINVAL) {
		lc->err = r;
		return LATE_UNCHECKABLE;
	}
	/* no filesystem we know there any more: it holds another since, as good as moved */
	if (r < 0 || !fsstamp_same(then, now)) {
		lc->err = r;
		lc->then = *then;
		lc->now = *now;
		return LATE_MOVED;
	}
	return LATE_SAME;
}

/*
 * Device @k of btrfs record @i: 0 its own (fd[i]), then the others the kernel
 * listed before the freeze.  Its fd (or -errno), O_DIRECT, and number; or 0
 * when there is no such device.
 */
static int btrfs_device(const struct latecheck *lc, uint32_t i, uint32_t k, int *ret_fd,
			int *ret_direct, uint32_t *ret_dev)
{
	const struct restamp *rs = lc->rs;
	uint32_t j;

	if (k == 0) {
		*ret_fd = rs->fd[i];
		*ret_direct = rs->direct[i];
		*ret_dev = lc->fs[i].dev;
		return 1;
	}
	for (j = 0; j < rs->nr_more; j++) {
		if (rs->more[j].index == i && --k == 0) {
			*ret_fd = rs->more[j].fd;
			*ret_direct = rs->more[j].direct;
			*ret_dev = rs->more[j].dev;
			return 1;
		}
	}
	return 0;
}

/*
 * Record @i, a btrfs the boot did not see: every device the kernel listed for
 * it before the freeze is read, as torpor-resume reads them at boot
 * (check_btrfs()): each must show the recorded stamp @then, no two the same
 * device id (a copy of a disk), and as many as the filesystem has (a degraded
 * mount elsewhere writes to the devices it has).  All of them gone is gone;
 * some gone and others there is a doubt: the gone ones cannot be proven
 * unchanged, and might come back.
 */
static enum late_outcome check_btrfs(struct latecheck *lc, uint32_t i,
				     const struct torpor_fsrec *then)
{
	uint64_t ids[RESTAMP_BTRFS_MAX], id, num = 0, num_dev;
	struct torpor_fsrec now;
	uint32_t k, read = 0, gone = 0, dev, gone_dev = 0;
	int fd, direct, g, first_gone = 0;
	enum late_outcome o;

	for (k = 0; btrfs_device(lc, i, k, &fd, &direct, &dev); k++) {
		__atomic_store_n(&lc->at_dev, dev, __ATOMIC_RELEASE);
		lc->err = fd < 0 ? fd : !direct ? -EOPNOTSUPP : k >= RESTAMP_BTRFS_MAX ? -E2BIG : 0;
		if (lc->err)
			return LATE_UNCHECKABLE;
		o = read_one(lc, fd, then, &now, &g);
		if (o != LATE_SAME)
			return o;
		if (g) {
			if (!gone++) {
				first_gone = g;
				gone_dev = dev;
			}
			continue;
		}
		(void)fsstamp_btrfs_dev(lc->rs->buf, FSSTAMP_READ_BYTES, &id, &num_dev);
		lc->err = 0;
		for (g = 0; (uint32_t)g < read; g++)
			if (ids[g] == id)
				lc->err = -ENOTUNIQ;
		if (read && num_dev != num)
			lc->err = -EXDEV;
		if (lc->err) {
			lc->num_devices = num_dev;
			lc->devices_read = read;
			return LATE_UNCHECKABLE;
		}
		ids[read++] = id;
		num = num_dev;
	}
	lc->num_devices = num;
	lc->devices_read = read;
	if (gone && !read) {
		count_gone(lc, i, first_gone);
		return LATE_SAME;
	}
	if (gone) {
		__atomic_store_n(&lc->at_dev, gone_dev, __ATOMIC_RELEASE);
		lc->err = first_gone;
		lc->member_gone = gone;
		return LATE_UNCHECKABLE;
	}
	if (read != num) {
		__atomic_store_n(&lc->at_dev, lc->fs[i].dev, __ATOMIC_RELEASE);
		lc->err = -EXDEV;
		return LATE_UNCHECKABLE;
	}
	return LATE_SAME;
}

/* Entry @e of the note: LATE_SAME (also when gone, counted), or what decides. */
static enum late_outcome check_entry(struct latecheck *lc, const struct torpor_late_fs *e)
{
	const struct restamp *rs = lc->rs;
	struct torpor_fsrec then, now;
	enum late_outcome o;
	int fd, gone;

	__atomic_store_n(&lc->at, (int)e->index, __ATOMIC_RELEASE);
	__atomic_store_n(&lc->at_dev, lc->fs[e->index].dev, __ATOMIC_RELEASE);
	then = lc->fs[e->index];
	then.mount_count = e->mount_count;
	then.mount_time = e->mount_time;
	then.write_time = e->write_time;
	fd = e->index < rs->n ? rs->fd[e->index] : -EBADF;
	if (fd < 0) {
		lc->err = fd;
		return LATE_UNCHECKABLE;
	}
	/*
	 * Read through the page cache, the restored kernel's own copy of the
	 * superblock would answer (ext4 keeps it there): no proof.  The boot read
	 * the disk of one it saw; one it did not see cannot be checked.
	 */
	if (!rs->direct[e->index]) {
		if (!(e->flags & TORPOR_LATE_UNSEEN))
			return LATE_SAME;
		lc->err = -EOPNOTSUPP;
		return LATE_UNCHECKABLE;
	}
	lc->checked++;
	lc->unseen += (e->flags & TORPOR_LATE_UNSEEN) != 0;
	if (then.kind == TORPOR_FS_BTRFS && (e->flags & TORPOR_LATE_UNSEEN))
		return check_btrfs(lc, e->index, &then);
	o = read_one(lc, fd, &then, &now, &gone);
	if (gone)
		count_gone(lc, e->index, gone);
	return o;
}

/* Read the note, then every stamp it names; the first that decides ends it. */
static enum late_outcome check_all(struct latecheck *lc)
{
	enum late_outcome o;
	uint32_t i;
	int r;

	uint64_t t0 = mono_ns();

	__atomic_store_n(&lc->at, -1, __ATOMIC_RELEASE);
	read_begins(lc);
	r = blkio_pread(lc->dev_fd, lc->page, lc->ps, lc->header_offset);
	if (r == 0) {
		/* known now, and never read into again: the lost note may build on it */
		__atomic_store_n(&lc->page_read, 1, __ATOMIC_RELEASE);
		r = image_late_decode(lc->page, lc->ps, &lc->note);
	}
	lc->t_note_ns = mono_ns() - t0;
	if (r == -ENOENT)
		return LATE_NO_NOTE;
	/* another image's note cannot be: torpor-resume writes it before every restore */
	if (r == 0 && (lc->note.hdr.created != lc->created || lc->note.hdr.nr_fs != lc->nr_fs))
		r = -ESTALE;
	if (r < 0) {
		lc->err = r;
		return LATE_UNCHECKABLE;
	}
	t0 = mono_ns();
	for (i = 0, o = LATE_SAME; i < lc->note.hdr.nr && o == LATE_SAME; i++)
		o = check_entry(lc, &lc->note.fs[i]);
	lc->t_read_ns = mono_ns() - t0;
	if (o != LATE_SAME)
		return o;
	return lc->gone ? LATE_GONE : LATE_SAME;
}

static void *late_main(void *arg)
{
	struct latecheck *lc = arg;

	lc->tid = task_self();
	lc->result = check_all(lc);
	__atomic_store_n(&lc->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Has the read under way, or the whole check begun at @t0, run past its
 * deadline?  The read's start is taken on both sides of the clock, so that a
 * read which ended (and the next began) meanwhile is not judged by the time of
 * the next: the answer is always about one read.
 */
static int past_deadline(struct latecheck *lc, uint64_t t0, uint64_t read_ns, uint64_t total_ns)
{
	uint64_t r0, r1, now;

	do {
		r0 = __atomic_load_n(&lc->read_t0, __ATOMIC_ACQUIRE);
		now = lc->clock_ns();
		r1 = __atomic_load_n(&lc->read_t0, __ATOMIC_ACQUIRE);
	} while (r0 != r1);
	lc->ns = now - t0;
	lc->over_total = now - t0 >= total_ns;
	return lc->over_total || (now > r0 && now - r0 >= read_ns);
}

/**
 * latecheck_run() - in the restored process, still frozen: check, giving each
 * read at most @read_ms and the whole check at most @total_ms
 * Return: the outcome (also in lc->outcome); LATE_TIMEOUT leaves the thread
 * behind, in a read that did not return (lc->over_total: the whole check's
 * bound ended it).  Does not print.
 */
enum late_outcome latecheck_run(struct latecheck *lc, int read_ms, int total_ms)
{
	struct timespec tick = { 0, 1000000 };
	uint64_t t0 = lc->clock_ns();
	int r;

	lc->checked = lc->unseen = lc->gone = 0;
	lc->devices_read = lc->member_gone = 0;
	lc->num_devices = 0;
	lc->at_dev = 0;
	lc->t_note_ns = lc->t_read_ns = 0;
	lc->err = 0;
	lc->at = -1;
	lc->done = 0;
	lc->page_read = 0;
	lc->over_total = 0;
	lc->read_t0 = t0;
	r = task_start(&lc->thread, lc->stack, lc->stack_bytes, late_main, lc);
	if (r < 0) {
		/* unbounded on this thread: not at all */
		lc->err = r;
		lc->outcome = LATE_UNCHECKABLE;
		return lc->outcome;
	}
	while (!__atomic_load_n(&lc->done, __ATOMIC_ACQUIRE)) {
		if (past_deadline(lc, t0, (uint64_t)read_ms * 1000000u,
				  (uint64_t)total_ms * 1000000u)) {
			lc->outcome = LATE_TIMEOUT;
			return lc->outcome;
		}
		nanosleep(&tick, NULL);
	}
	pthread_join(lc->thread, NULL);
	lc->lingering = task_wait_released(lc->tid, 1000) < 0;
	lc->ns = lc->clock_ns() - t0;
	lc->outcome = lc->result;
	return lc->outcome;
}

/* Free what latecheck_init() allocated; safe to call twice. */
void latecheck_free(struct latecheck *lc)
{
	blkio_free(lc->page, lc->ps);
	blkio_free(lc->stack, lc->stack_bytes);
	lc->page = NULL;
	lc->stack = NULL;
}
