/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * readahead.h - worker processes that fill a ring of shared buffers ahead of their consumer
 *
 * The ring lives in a MAP_SHARED mapping made before the forks.  Pieces are
 * numbered from 0; worker w (of n) fills pieces w, w + n, w + 2n, ... in that
 * order, piece s always in slot s % nr_slots (nr_slots is a multiple of n, so
 * a worker only ever touches its own slots), and hands each one over its own
 * pipe ("piece s is in its slot: this many bytes, or this -errno", with a few
 * numbers of the fill function's); the consumer takes the pieces in order and
 * hands each slot back over a second pipe of that worker's once it is done
 * with it.  A worker only reads what it is given and writes its slots and its
 * tokens: it closes every other descriptor and leaves with _exit().  What it
 * fills is what its fill function made of untrusted input: the fill function
 * checks it (tokens are checked against the protocol).
 */
#ifndef RESUME_READAHEAD_H
#define RESUME_READAHEAD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define READAHEAD_WORKERS_MAX	4
#define READAHEAD_AUX		6	/* numbers a piece's token carries for the caller */

/*
 * Runs in a worker, once per piece of its own, @seq increasing: fill @buf (@cap
 * bytes) with piece @seq.  @aux (zeroed) carries numbers back with the token.
 * Returns the bytes filled (> 0), 0 when there is no such piece, or -errno.
 */
typedef ssize_t (*readahead_fill_fn)(void *ctx, uint64_t seq, uint8_t *buf, size_t cap,
				     uint64_t aux[READAHEAD_AUX]);

struct readahead {
	uint32_t nr_workers;
	pid_t pid[READAHEAD_WORKERS_MAX];	/* 0 once reaped (or never started) */
	int filled_fd[READAHEAD_WORKERS_MAX];	/* read ends: "slot filled" tokens */
	int free_fd[READAHEAD_WORKERS_MAX];	/* write ends: "slot free" tokens */
	int status[READAHEAD_WORKERS_MAX];	/* wait statuses, once reaped */
	uint8_t *ring;			/* nr_slots * slot_bytes, shared with the workers */
	size_t slot_bytes;		/* page multiple */
	uint32_t nr_slots;
	uint64_t seq;			/* the piece readahead_next() returns next */
	int held;			/* the consumer still holds piece seq - 1 */
	uint64_t aux[READAHEAD_AUX];	/* the last token's numbers (also for an -errno) */
	struct sigaction old_pipe;	/* SIGPIPE's disposition before the start */
	int pipe_ignored;		/* old_pipe is to be put back */
	pid_t (*do_fork)(void);		/* fork() when NULL; tests make it fail */
};

int readahead_start(struct readahead *ra, uint32_t nr_workers, uint32_t slots_per_worker,
		    size_t slot_bytes, int keep_fd, readahead_fill_fn fill, void *ctx);
int readahead_next(struct readahead *ra, const uint8_t **ret_buf, size_t *ret_len);
void readahead_stop(struct readahead *ra);

#endif
