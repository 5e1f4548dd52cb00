/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * flusher.h - the writes of the image, on a thread of their own
 *
 * Two batches: the writer gathers packed blocks in one (where each page is,
 * and the swap slot it goes to) while a thread writes the other, one pwritev()
 * per run of contiguous slots, straight from the pack jobs' buffers: nothing is
 * copied.  The writer allocates the slots and records the extents itself
 * (SNAPSHOT_ALLOC_SWAP_PAGE stays on its thread); the thread only writes, and
 * counts the jobs it has written, which the writer then releases.  Batches go
 * to disk in the order they were handed over.  Without the thread (or when it
 * cannot start) flusher_submit() writes at once.  A second thread, the syncer,
 * flushes the device's write cache (fdatasync) after each FLUSH_SYNC_BYTES
 * written, while the writing goes on, so that the commit's own fdatasync() finds
 * little left to drain: in QEMU, with 563 MiB written, the commit took 0.36-0.53 s
 * of a 3.1-3.9 s write phase, nearly all of it in fdatasync().  The thread starts after CREATE_IMAGE and is joined before the
 * writer returns, as the pack workers are (see packpool.h).
 */
#ifndef SUSPEND_FLUSHER_H
#define SUSPEND_FLUSHER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FLUSH_BUF_BYTES	(4u << 20)	/* each batch, at least one block */
#define FLUSH_SYNC_BYTES	(64u << 20)	/* the syncer's step */

struct flush_buf {
	const uint8_t **src;		/* where each staged page is */
	size_t fill;			/* bytes staged, whole pages */
	uint64_t *off;			/* device offset of each staged page */
	unsigned jobs;			/* pack jobs whose pages these are */
	int busy;			/* handed to the thread, not yet written */
};

struct flusher {
	int dev_fd;
	uint32_t ps;
	size_t cap;			/* bytes of each buffer */
	struct flush_buf buf[2];
	unsigned cur;			/* the buffer being filled */
	unsigned wnext;			/* the buffer the thread writes next */
	int threaded;			/* asked for a thread */
	int started;			/* the thread runs */
	int stop;
	int err;			/* the first write error */
	int lingering;			/* threads not released after the join */
	int sync_started;		/* the syncer runs */
	uint64_t sync_asked, sync_done;	/* fdatasync() calls asked for, and done */
	uint64_t syncs;			/* fdatasync() calls of the syncer */
	size_t sync_bytes;		/* its step: FLUSH_SYNC_BYTES (tests set less) */
	pid_t sync_tid;
	uint8_t *sync_stack;
	pthread_t sync_thread;
	pthread_cond_t sync_cv;
	uint64_t jobs_written;		/* jobs of the batches written, failed ones too */
	uint64_t write_ns;		/* time spent in the writes */
	pid_t tid;
	size_t stack_bytes;
	uint8_t *stack;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cv;
};

int flusher_init(struct flusher *f, int dev_fd, size_t cap, uint32_t page_size, int threaded);
size_t flusher_bytes(const struct flusher *f);
int flusher_start(struct flusher *f);
struct flush_buf *flusher_current(struct flusher *f);
int flusher_submit(struct flusher *f);
int flusher_drain(struct flusher *f);
uint64_t flusher_jobs_written(struct flusher *f);
int flusher_stop(struct flusher *f);
void flusher_free(struct flusher *f);
int flusher_write_runs(int fd, const uint8_t *buf, const uint64_t *off, size_t pages,
		       uint32_t page_size);
int flusher_write_pages(int fd, const uint8_t *const *src, const uint64_t *off, size_t pages,
			uint32_t page_size);

#endif
