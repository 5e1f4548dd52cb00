// SPDX-License-Identifier: GPL-2.0-only
/*
 * lostnote.c - the note of a hibernation that was not resumed, written by the
 * restored process before it resets the machine (lostnote.h)
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blkio.h"
#include "lostnote.h"
#include "monoclock.h"
#include "taskwait.h"

#define STACK_BYTES	(64u << 10)

static int sync_data(int fd)
{
	return fdatasync(fd) < 0 ? -errno : 0;
}

/**
 * lostnote_init() - before the freeze: what writing the note needs
 * @dev_fd, @header_offset, @ps: the swap device (open for writing, kept open
 * until the end) and its header page
 * @created, @release: the image's meta.created and meta.release
 * Return: 0 or -ENOMEM.
 */
int lostnote_init(struct lostnote *ln, int dev_fd, uint64_t header_offset, uint32_t ps,
		  uint64_t created, const char *release)
{
	memset(ln, 0, sizeof(*ln));
	ln->dev_fd = dev_fd;
	ln->header_offset = header_offset;
	ln->ps = ps;
	ln->note.created = created;
	ln->note.cause = TORPOR_LOST_LATE_CHECK;
	strncpy(ln->note.release, release, sizeof(ln->note.release) - 1);
	ln->write_page = blkio_pwrite;
	ln->sync = sync_data;
	ln->stack_bytes = STACK_BYTES;
	ln->page = blkio_alloc(ps);
	ln->stack = blkio_alloc(ln->stack_bytes);
	if (!ln->page || !ln->stack) {
		lostnote_free(ln);
		return -ENOMEM;
	}
	memset(ln->page, 0, ps);
	memset(ln->stack, 0, ln->stack_bytes);
	return 0;
}

static void *write_main(void *arg)
{
	struct lostnote *ln = arg;
	int r;

	r = ln->write_page(ln->dev_fd, ln->page, ln->ps, ln->header_offset);
	if (r == 0)
		r = ln->sync(ln->dev_fd);
	ln->result = r;
	__atomic_store_n(&ln->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/**
 * lostnote_write() - in the restored process, still frozen: write the note,
 * waiting at most @ms for the write and its sync
 * @page_read: the header page as read after the resume, or NULL when it was not
 * @reason: why the session is given up, one line
 * @now: seconds since the epoch, 0 when unknown
 * Return: 0 when written and synced; -ENODATA when @page_read is NULL;
 * -EEXIST when it does not carry mkswap's signature (then nothing is written);
 * -ETIMEDOUT when the thread did not finish in time (it is left behind, in
 * the write or the sync); or the write's, the sync's or task_start()'s -errno.
 * Does not print.
 */
int lostnote_write(struct lostnote *ln, const uint8_t *page_read, const char *reason,
		   uint64_t now, int ms)
{
	struct timespec tick = { 0, 1000000 };
	uint64_t t0 = mono_ns();
	int r;

	if (!page_read || !ln->page)
		return -ENODATA;
	if (image_classify(page_read, ln->ps) != IMAGE_SIG_SWAP)
		return -EEXIST;
	memcpy(ln->page, page_read, ln->ps);
	ln->note.noted = now;
	strncpy(ln->note.reason, reason, sizeof(ln->note.reason) - 1);
	image_lost_encode(&ln->note, ln->page, ln->ps);
	ln->done = 0;
	ln->result = 0;
	r = task_start(&ln->thread, ln->stack, ln->stack_bytes, write_main, ln);
	if (r < 0)
		return r;
	while (!__atomic_load_n(&ln->done, __ATOMIC_ACQUIRE)) {
		if (mono_ns() - t0 >= (uint64_t)ms * 1000000u)
			return -ETIMEDOUT;
		nanosleep(&tick, NULL);
	}
	pthread_join(ln->thread, NULL);
	return ln->result;
}

/* Free what lostnote_init() allocated; safe to call twice. */
void lostnote_free(struct lostnote *ln)
{
	blkio_free(ln->page, ln->ps);
	blkio_free(ln->stack, ln->stack_bytes);
	ln->page = NULL;
	ln->stack = NULL;
}
