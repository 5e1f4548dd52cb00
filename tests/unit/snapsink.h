/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snapsink.h - a fake /dev/snapshot write side, where the loader feeds the image
 *
 * The loader's write_pages hook, for the writer and loader tests and the host
 * benchmark: it takes pages as the kernel's writev() does (a page at a time,
 * stopping at the first one not taken) and answers 0 once the whole stream is in.
 * What it takes is copied into a buffer, or compared with the stream on the fly
 * (a stream too large to keep twice), or both.  A test sets the fields it uses
 * and clears @off (and @bad) before each load.
 */
#ifndef TESTS_SNAPSINK_H
#define TESTS_SNAPSINK_H

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

static struct {
	size_t len;			/* the stream's length: no page is taken past it */
	size_t off;			/* bytes taken so far */
	uint8_t *copy;			/* gets what was taken, or NULL */
	const uint8_t *want;		/* what must be taken, or NULL */
	int bad;			/* a page differed from @want */
	void (*first)(void);		/* called before the first page is taken, or NULL */
} sink;

static inline ssize_t sink_write(int fd, const void *buf, size_t len)
{
	(void)fd;
	if (sink.off == 0 && sink.first)
		sink.first();
	if (sink.off >= sink.len)
		return 0;
	if (sink.copy)
		memcpy(sink.copy + sink.off, buf, len);
	if (sink.want && memcmp(sink.want + sink.off, buf, len))
		sink.bad = 1;
	sink.off += len;
	return (ssize_t)len;
}

/* writev() as /dev/snapshot's: a page at a time, stopping at the first one not taken */
static inline ssize_t sink_writev(int fd, const struct iovec *iov, int cnt)
{
	ssize_t done = 0, n;
	int i;

	for (i = 0; i < cnt; i++) {
		n = sink_write(fd, iov[i].iov_base, iov[i].iov_len);
		if (n < 0)
			return done ? done : n;
		done += n;
		if ((size_t)n != iov[i].iov_len)
			break;
	}
	return done;
}

#endif
