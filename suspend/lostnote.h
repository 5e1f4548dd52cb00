/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lostnote.h - the restored torpor-suspend, still frozen and about to reset the
 * machine without thawing, writes why into the swap header page (image.h,
 * struct torpor_lost), so that the next boot can say it
 *
 * Everything is set up before the freeze: the swap device's descriptor (the
 * writer's, O_DIRECT), an aligned page, a thread stack.  The write and its
 * fdatasync run on a thread of their own and the caller waits at most @ms for
 * them: the reset must never wait on a device that does not answer.  Only a
 * header page that was read after the resume (the late check's) is written
 * back, and only while it carries mkswap's signature: a page not known is
 * never written.
 */
#ifndef SUSPEND_LOSTNOTE_H
#define SUSPEND_LOSTNOTE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "image.h"

#define LOSTNOTE_MS	3000	/* the write and its sync, at most, before the reset */

struct lostnote {
	int dev_fd;			/* the swap device, and where its header page is */
	uint64_t header_offset;
	uint32_t ps;
	uint8_t *page;			/* ps bytes, aligned, touched */
	void *stack;			/* the thread's, touched */
	size_t stack_bytes;
	struct torpor_lost note;	/* created and release set before the freeze */
	/* the writer and its sync, blkio_pwrite() and fdatasync(); tests replace them */
	int (*write_page)(int fd, const void *buf, size_t len, uint64_t off);
	int (*sync)(int fd);
	int result;			/* the thread's answer, 0 or -errno */
	int done;			/* the thread finished (atomic) */
	pthread_t thread;
};

int lostnote_init(struct lostnote *ln, int dev_fd, uint64_t header_offset, uint32_t ps,
		  uint64_t created, const char *release);
int lostnote_write(struct lostnote *ln, const uint8_t *page_read, const char *reason,
		   uint64_t now, int ms);
void lostnote_free(struct lostnote *ln);

#endif
