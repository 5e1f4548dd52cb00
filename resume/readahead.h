/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * readahead.h - a reader process that fills a ring of shared buffers ahead of its consumer
 *
 * The ring lives in a MAP_SHARED mapping made before the fork.  The child fills
 * slot after slot, in order, with what its fill function reads, and hands each
 * one over a pipe ("piece n is in slot n % nr_slots: this many bytes, or this
 * -errno"); the parent hands the slot back over a second pipe once it is done
 * with it.  The child only reads: it closes every other descriptor, writes
 * nothing but its tokens and leaves with _exit().  What it read is as
 * untrusted as the disk it came from: the consumer checks it as before.
 */
#ifndef RESUME_READAHEAD_H
#define RESUME_READAHEAD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Runs in the child, once per piece in order: fill @buf (@cap bytes) with the
 * next piece.  Returns the bytes filled (> 0), 0 when there is no more, or -errno.
 */
typedef ssize_t (*readahead_fill_fn)(void *ctx, uint8_t *buf, size_t cap);

struct readahead {
	pid_t pid;			/* the reader, 0 once reaped */
	int filled_fd;			/* read end: "slot filled" tokens */
	int free_fd;			/* write end: "slot free" tokens */
	uint8_t *ring;			/* nr_slots * slot_bytes, shared with the reader */
	size_t slot_bytes;		/* page multiple */
	uint32_t nr_slots;
	uint64_t seq;			/* the piece readahead_next() returns next */
	int held;			/* the parent still holds piece seq - 1 */
	int status;			/* the reader's wait status, once reaped */
	struct sigaction old_pipe;	/* SIGPIPE's disposition before the start */
	pid_t (*do_fork)(void);		/* fork() when NULL; tests make it fail */
};

int readahead_start(struct readahead *ra, uint32_t nr_slots, size_t slot_bytes, int keep_fd,
		    readahead_fill_fn fill, void *ctx);
int readahead_next(struct readahead *ra, const uint8_t **ret_buf, size_t *ret_len);
void readahead_stop(struct readahead *ra);

#endif
