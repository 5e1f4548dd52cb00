// SPDX-License-Identifier: GPL-2.0-only
/*
 * readahead.c - the reader process: disk reads overlap the consumer's work
 *
 * One child, forked with the ring already mapped MAP_SHARED, so both see the
 * same pages; everything else it has is a copy.  Two pipes carry 16-byte
 * tokens (below PIPE_BUF, so each write is atomic): filled (child to parent)
 * and free (parent to child).  The child may run nr_slots pieces ahead and
 * never touches a slot the parent holds.  It needs no clean-up of its own:
 * the parent SIGKILLs and reaps it on every path (readahead_stop), and a
 * parent that disappears leaves it an end of file or an EPIPE, on which it
 * leaves.  SIGPIPE is ignored while the reader runs, in both: a dead peer is
 * an error to handle, not a silent death.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "readahead.h"

/* The reader closes every descriptor below this one but its own three. */
#define FD_SCAN 1024

struct token {
	uint64_t seq;			/* the piece */
	int64_t result;			/* bytes in its slot, or -errno (filled); 0 (free) */
};

/* Move exactly @len bytes through a pipe.  Return: 0, -EPIPE at end of file, or -errno. */
static int pipe_read(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int pipe_write(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The child: nothing but the device and its two pipe ends stays open (not the
 * console, not /dev/snapshot, whose last close would undo the load).  It never
 * returns: _exit(), so no atexit handler and no stdio flush runs here.
 */
static void reader(struct readahead *ra, int keep_fd, int filled_w, int free_r,
		   readahead_fill_fn fill, void *ctx)
{
	struct token t;
	uint64_t seq;
	uint8_t *slot;
	int fd;

	for (fd = 0; fd < FD_SCAN; fd++)
		if (fd != keep_fd && fd != filled_w && fd != free_r)
			(void)close(fd);
	for (seq = 0;; seq++) {
		/* slot seq % nr_slots last held piece seq - nr_slots: wait until it is back */
		if (seq >= ra->nr_slots &&
		    (pipe_read(free_r, &t, sizeof(t)) < 0 || t.seq != seq - ra->nr_slots))
			_exit(1);
		slot = ra->ring + (size_t)(seq % ra->nr_slots) * ra->slot_bytes;
		t.seq = seq;
		t.result = fill(ctx, slot, ra->slot_bytes);
		if (pipe_write(filled_w, &t, sizeof(t)) < 0)
			_exit(1);
		if (t.result <= 0)
			_exit(0);
	}
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
	*fd = -1;
}

/**
 * readahead_start() - map the ring and fork the reader
 * @nr_slots, @slot_bytes: the ring (@slot_bytes a page multiple)
 * @keep_fd: the one descriptor the reader keeps (the device @fill reads)
 * @fill, @ctx: what the reader runs for each piece, in the child
 *
 * ra->do_fork may be set before the call (NULL: fork()).
 * Return: 0, the reader running; or -errno with nothing left behind (the
 * caller then reads synchronously).
 */
int readahead_start(struct readahead *ra, uint32_t nr_slots, size_t slot_bytes, int keep_fd,
		    readahead_fill_fn fill, void *ctx)
{
	pid_t (*do_fork)(void) = ra->do_fork ? ra->do_fork : fork;
	struct sigaction ign;
	int filled[2] = { -1, -1 }, free_p[2] = { -1, -1 };
	void *ring;
	int r;

	memset(ra, 0, sizeof(*ra));
	ra->filled_fd = ra->free_fd = -1;
	ra->nr_slots = nr_slots;
	ra->slot_bytes = slot_bytes;
	ring = mmap(NULL, (size_t)nr_slots * slot_bytes, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ring == MAP_FAILED)
		return -errno;
	ra->ring = ring;
	/* close-on-exec: no program we run (plymouth's client) may hold them */
	if (pipe2(filled, O_CLOEXEC) < 0 || pipe2(free_p, O_CLOEXEC) < 0) {
		r = -errno;
		goto out_close;
	}
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGPIPE, &ign, &ra->old_pipe) < 0) {
		r = -errno;
		goto out_close;
	}
	ra->pid = do_fork();
	if (ra->pid < 0) {
		r = -errno;
		ra->pid = 0;
		(void)sigaction(SIGPIPE, &ra->old_pipe, NULL);
		goto out_close;
	}
	if (ra->pid == 0)
		reader(ra, keep_fd, filled[1], free_p[0], fill, ctx);
	/* the parent keeps the other ends: the reader's death is then an end of file */
	close_fd(&filled[1]);
	close_fd(&free_p[0]);
	ra->filled_fd = filled[0];
	ra->free_fd = free_p[1];
	return 0;

out_close:
	close_fd(&filled[0]);
	close_fd(&filled[1]);
	close_fd(&free_p[0]);
	close_fd(&free_p[1]);
	munmap(ra->ring, (size_t)nr_slots * slot_bytes);
	ra->ring = NULL;
	return r;
}

/**
 * readahead_next() - give back the piece held, wait for the next one
 * @ret_buf, @ret_len: where the next piece is, and its length (0: the reader
 * had nothing more); valid until the next call or readahead_stop()
 *
 * Return: 0; the -errno the reader's fill function returned for this piece;
 * or -ECHILD when the reader is gone (killed, or the pipe closed) or broke
 * the protocol.
 */
int readahead_next(struct readahead *ra, const uint8_t **ret_buf, size_t *ret_len)
{
	struct token t = { 0, 0 };

	if (ra->held) {
		t.seq = ra->seq - 1;
		/* EPIPE: the reader has finished or died; what it filled is still in the pipe */
		(void)pipe_write(ra->free_fd, &t, sizeof(t));
		ra->held = 0;
	}
	if (pipe_read(ra->filled_fd, &t, sizeof(t)) < 0 || t.seq != ra->seq ||
	    t.result > (int64_t)ra->slot_bytes || t.result < -4095)
		return -ECHILD;
	if (t.result < 0)
		return (int)t.result;
	ra->held = 1;
	*ret_buf = ra->ring + (size_t)(ra->seq % ra->nr_slots) * ra->slot_bytes;
	*ret_len = (size_t)t.result;
	ra->seq++;
	return 0;
}

/*
 * readahead_stop() - kill and reap the reader, unmap the ring, restore SIGPIPE
 *
 * For every path, success or not: when it returns the reader is gone, so
 * nothing of this process is left to be frozen.  Safe to call twice.
 */
void readahead_stop(struct readahead *ra)
{
	int status;
	pid_t p;

	if (ra->pid > 0) {
		/* a reader that has exited is a zombie until reaped: the pid is still its own */
		(void)kill(ra->pid, SIGKILL);
		do
			p = waitpid(ra->pid, &status, 0);
		while (p < 0 && errno == EINTR);
		if (p == ra->pid)
			ra->status = status;
		ra->pid = 0;
		(void)sigaction(SIGPIPE, &ra->old_pipe, NULL);
	}
	close_fd(&ra->filled_fd);
	close_fd(&ra->free_fd);
	if (ra->ring)
		munmap(ra->ring, (size_t)ra->nr_slots * ra->slot_bytes);
	ra->ring = NULL;
}
