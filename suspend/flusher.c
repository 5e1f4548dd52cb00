// SPDX-License-Identifier: GPL-2.0-only
/* flusher.c - the writes of the image, on a thread of their own (see flusher.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "blkio.h"
#include "flusher.h"
#include "monoclock.h"
#include "taskwait.h"

#define STACK_BYTES	(64u << 10)
#define WRITE_IOV	64	/* iovecs per pwritev(): a run of blocks is a few */

/**
 * flusher_write_runs() - write @pages pages of @buf to the device offsets @off,
 * one pwrite() per run of contiguous offsets
 * Return: 0 or -errno.
 */
int flusher_write_runs(int fd, const uint8_t *buf, const uint64_t *off, size_t pages,
		       uint32_t page_size)
{
	size_t i, start = 0;
	int r;

	for (i = 1; i <= pages; i++) {
		if (i < pages && off[i] == off[i - 1] + page_size)
			continue;
		r = blkio_pwrite(fd, buf + start * page_size, (i - start) * page_size, off[start]);
		if (r < 0)
			return r;
		start = i;
	}
	return 0;
}

/* pwritev() all of @iov (@cnt entries, @len bytes) at @off; it is consumed. */
static int pwritev_all(int fd, struct iovec *iov, int cnt, size_t len, uint64_t off)
{
	ssize_t n;

	while (len) {
		n = pwritev(fd, iov, cnt, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		len -= (size_t)n;
		off += (uint64_t)n;
		/* a short write: skip what was written */
		while (cnt && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt) {
			iov->iov_base = (uint8_t *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

/**
 * flusher_write_pages() - write @pages pages, page i from @src[i] to the device
 * offset @off[i]: one pwritev() per run of contiguous offsets (more when the run
 * gathers from more than WRITE_IOV places), pages adjacent in memory in one iovec
 * Return: 0 or -errno.
 */
int flusher_write_pages(int fd, const uint8_t *const *src, const uint64_t *off, size_t pages,
			uint32_t page_size)
{
	struct iovec iov[WRITE_IOV];
	uint64_t at = 0;
	size_t i, len = 0;
	int cnt = 0, r;

	for (i = 0; i < pages; i++) {
		int contiguous = len && off[i] == at + len;

		if (contiguous && (const uint8_t *)iov[cnt - 1].iov_base + iov[cnt - 1].iov_len ==
				  src[i]) {
			iov[cnt - 1].iov_len += page_size;
			len += page_size;
			continue;
		}
		if (len && (!contiguous || cnt == WRITE_IOV)) {
			r = pwritev_all(fd, iov, cnt, len, at);
			if (r < 0)
				return r;
			at += len;
			len = 0;
			cnt = 0;
		}
		if (!len)
			at = off[i];
		iov[cnt].iov_base = (void *)src[i];
		iov[cnt].iov_len = page_size;
		cnt++;
		len += page_size;
	}
	return len ? pwritev_all(fd, iov, cnt, len, at) : 0;
}

/**
 * flusher_init() - allocate both batches' tables and the threads' stacks, before the freeze
 * @cap: bytes of each buffer, whole pages; @threaded: write on a thread of our own
 * Return: 0 or -ENOMEM.
 */
int flusher_init(struct flusher *f, int dev_fd, size_t cap, uint32_t page_size, int threaded)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->dev_fd = dev_fd;
	f->ps = page_size;
	f->cap = cap;
	f->threaded = threaded;
	f->stack_bytes = STACK_BYTES;
	f->sync_bytes = FLUSH_SYNC_BYTES;
	for (i = 0; i < 2; i++) {
		f->buf[i].src = blkio_alloc(cap / page_size * sizeof(*f->buf[i].src));
		f->buf[i].off = blkio_alloc(cap / page_size * sizeof(uint64_t));
		if (!f->buf[i].src || !f->buf[i].off)
			goto nomem;
	}
	if (threaded) {
		f->stack = blkio_alloc(f->stack_bytes);
		f->sync_stack = blkio_alloc(f->stack_bytes);
		if (!f->stack || !f->sync_stack)
			goto nomem;
		memset(f->stack, 0, f->stack_bytes);
		memset(f->sync_stack, 0, f->stack_bytes);
	}
	if (pthread_mutex_init(&f->lock, NULL) || pthread_cond_init(&f->cv, NULL) ||
	    pthread_cond_init(&f->sync_cv, NULL))
		goto nomem;
	return 0;
nomem:
	flusher_free(f);
	return -ENOMEM;
}

/* Bytes flusher_init() allocated. */
size_t flusher_bytes(const struct flusher *f)
{
	return 2 * (f->cap / f->ps * (sizeof(uint64_t) + sizeof(uint8_t *))) +
	       (f->stack ? f->stack_bytes : 0) + (f->sync_stack ? f->stack_bytes : 0);
}

/*
 * The syncer: fdatasync() each time the writing thread asks (every
 * FLUSH_SYNC_BYTES), while that thread goes on writing.  An error is the
 * flusher's error: the commit would meet it in its own fdatasync() anyway.
 */
static void *syncer_main(void *arg)
{
	struct flusher *f = arg;
	uint64_t want;
	int r;

	pthread_mutex_lock(&f->lock);
	f->sync_tid = task_self();
	for (;;) {
		while (f->sync_done == f->sync_asked && !f->stop)
			pthread_cond_wait(&f->sync_cv, &f->lock);
		if (f->sync_done == f->sync_asked)
			break;		/* stopping, nothing asked */
		want = f->sync_asked;
		pthread_mutex_unlock(&f->lock);
		while ((r = fdatasync(f->dev_fd)) < 0 && errno == EINTR)
			;
		r = r < 0 ? -errno : 0;
		pthread_mutex_lock(&f->lock);
		if (r < 0 && !f->err)
			f->err = r;
		f->sync_done = want;
		f->syncs++;
	}
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

static void *flusher_main(void *arg)
{
	struct flusher *f = arg;
	struct flush_buf *b;
	size_t unsynced = 0;
	uint64_t t0;
	int r;

	pthread_mutex_lock(&f->lock);
	f->tid = task_self();
	for (;;) {
		while (!f->buf[f->wnext].busy && !f->stop)
			pthread_cond_wait(&f->cv, &f->lock);
		b = &f->buf[f->wnext];
		if (!b->busy)
			break;
		r = f->err;
		pthread_mutex_unlock(&f->lock);
		/* after a failed write the image is lost anyway: the rest is not written */
		t0 = mono_ns();
		if (r == 0)
			r = flusher_write_pages(f->dev_fd, b->src, b->off, b->fill / f->ps, f->ps);
		f->write_ns += mono_ns() - t0;
		pthread_mutex_lock(&f->lock);
		if (r < 0 && !f->err)
			f->err = r;
		f->jobs_written += b->jobs;
		unsynced += b->fill;
		if (f->sync_started && unsynced >= f->sync_bytes) {
			unsynced = 0;
			f->sync_asked++;
			pthread_cond_signal(&f->sync_cv);
		}
		b->busy = 0;
		b->fill = 0;
		b->jobs = 0;
		f->wnext ^= 1;
		pthread_cond_broadcast(&f->cv);
	}
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

/**
 * flusher_start() - start the threads, only after CREATE_IMAGE (see packpool.h)
 * With every signal blocked; when the writing thread cannot start,
 * flusher_submit() writes itself; without the syncer, nothing is flushed early.
 * Return: 0, or -errno from pthread_create() (the writes then happen inline).
 */
int flusher_start(struct flusher *f)
{
	int r;

	if (!f->threaded || f->started)
		return 0;
	f->syncs = 0;
	/* first the syncer: the writing thread reads sync_started */
	if (task_start(&f->sync_thread, f->sync_stack, f->stack_bytes, syncer_main, f) == 0)
		f->sync_started = 1;
	r = task_start(&f->thread, f->stack, f->stack_bytes, flusher_main, f);
	if (r < 0) {
		f->threaded = 0;
		(void)flusher_stop(f);	/* the syncer, if it started */
		return r;
	}
	f->started = 1;
	return 0;
}

/* The batch to fill: its src, off, fill and jobs. */
struct flush_buf *flusher_current(struct flusher *f)
{
	return &f->buf[f->cur];
}

/**
 * flusher_submit() - the current batch, a source and an offset for each staged
 * page, goes to disk; the other one becomes current once it is written
 * Return: 0, or the first write error so far (-errno).
 */
int flusher_submit(struct flusher *f)
{
	struct flush_buf *b = &f->buf[f->cur];
	int r;

	if (!b->fill)
		return 0;
	uint64_t t0;

	if (!f->started) {
		t0 = mono_ns();
		r = flusher_write_pages(f->dev_fd, b->src, b->off, b->fill / f->ps, f->ps);
		f->write_ns += mono_ns() - t0;
		f->jobs_written += b->jobs;
		b->fill = 0;
		b->jobs = 0;
		return r;
	}
	pthread_mutex_lock(&f->lock);
	b->busy = 1;
	f->cur ^= 1;
	pthread_cond_broadcast(&f->cv);
	while (f->buf[f->cur].busy)
		pthread_cond_wait(&f->cv, &f->lock);
	r = f->err;
	pthread_mutex_unlock(&f->lock);
	return r;
}

/* Wait until nothing handed over is still unwritten; 0 or the first write error. */
int flusher_drain(struct flusher *f)
{
	int r;

	if (!f->started)
		return 0;
	pthread_mutex_lock(&f->lock);
	while (f->buf[0].busy || f->buf[1].busy)
		pthread_cond_wait(&f->cv, &f->lock);
	r = f->err;
	pthread_mutex_unlock(&f->lock);
	return r;
}

/* Jobs of the batches written so far (the writer releases them). */
uint64_t flusher_jobs_written(struct flusher *f)
{
	uint64_t n;

	if (!f->started)
		return f->jobs_written;
	pthread_mutex_lock(&f->lock);
	n = f->jobs_written;
	pthread_mutex_unlock(&f->lock);
	return n;
}

/* Tell one of the threads to stop (waking it on @cv), join it, see it released. */
static void end_thread(struct flusher *f, pthread_cond_t *cv, pthread_t thread, pid_t *tid)
{
	pthread_mutex_lock(&f->lock);
	f->stop = 1;
	pthread_cond_broadcast(cv);
	pthread_mutex_unlock(&f->lock);
	pthread_join(thread, NULL);
	if (task_wait_released(*tid, 1000) < 0)
		f->lingering++;
}

/**
 * flusher_stop() - the thread writes what it was handed, then ends; joined,
 * and waited for until the kernel released it (f->lingering says it did not)
 * Return: 0, or the first write error (-errno).
 */
int flusher_stop(struct flusher *f)
{
	int r = 0;

	if (f->started)
		end_thread(f, &f->cv, f->thread, &f->tid);
	/* after the writing thread: it asks for no sync any more */
	if (f->sync_started)
		end_thread(f, &f->sync_cv, f->sync_thread, &f->sync_tid);
	if (f->started || f->sync_started)
		r = f->err;
	/* as after flusher_init(): it can be started again */
	f->started = 0;
	f->sync_started = 0;
	f->sync_asked = f->sync_done = 0;
	f->stop = 0;
	f->err = 0;
	f->cur = f->wnext = 0;
	f->jobs_written = 0;
	f->buf[0].fill = f->buf[1].fill = 0;
	f->buf[0].jobs = f->buf[1].jobs = 0;
	f->buf[0].busy = f->buf[1].busy = 0;
	return r;
}

/* Free what flusher_init() allocated; the thread must be stopped. */
void flusher_free(struct flusher *f)
{
	int i;

	for (i = 0; i < 2; i++) {
		blkio_free(f->buf[i].src, f->cap / f->ps * sizeof(*f->buf[i].src));
		blkio_free(f->buf[i].off, f->cap / f->ps * sizeof(uint64_t));
		f->buf[i].src = NULL;
		f->buf[i].off = NULL;
	}
	blkio_free(f->stack, f->stack_bytes);
	blkio_free(f->sync_stack, f->stack_bytes);
	f->stack = NULL;
	f->sync_stack = NULL;
}
