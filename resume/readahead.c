// SPDX-License-Identifier: GPL-2.0-only
/*
 * readahead.c - the worker processes: reading and unpacking overlap the consumer's work
 *
 * klibc has no threads: the workers are processes, forked with the ring
 * already mapped MAP_SHARED, so all see the same slot pages; everything else
 * they have is a copy.  Each worker has two pipes carrying 64-byte tokens
 * (below PIPE_BUF, so each write is atomic): filled (worker to consumer) and
 * free (consumer to worker).  A worker may run its share of the slots ahead
 * and never touches a slot the consumer holds.  Workers need no clean-up of
 * their own: the consumer SIGKILLs and reaps them on every path
 * (readahead_stop), and a consumer that disappears leaves them an end of file
 * or an EPIPE, on which they leave.  SIGPIPE is ignored while they run, in
 * all: a dead peer is an error to handle, not a silent death.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "readahead.h"

/* A worker closes every descriptor below this one but its own three. */
#define FD_SCAN 1024

struct token {
	uint64_t seq;			/* the piece */
	int64_t result;			/* bytes in its slot, or -errno (filled); 0 (free) */
	uint64_t aux[READAHEAD_AUX];	/* the fill function's numbers (filled) */
};

_Static_assert(sizeof(struct token) == 64, "token size");

/*
 * Move exactly @len bytes through a pipe, out of @buf when @out, else into it.
 * Return: 0, -EPIPE at end of file, or -errno.
 */
static int pipe_move(int fd, void *buf, size_t len, int out)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = out ? write(fd, p, len) : read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;	/* end of file: a write to a pipe never takes 0 */
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int pipe_read(int fd, void *buf, size_t len)
{
	return pipe_move(fd, buf, len, 0);
}

static int pipe_write(int fd, const void *buf, size_t len)
{
	return pipe_move(fd, (void *)buf, len, 1);
}

/*
 * Worker @w: nothing but the device and its two pipe ends stays open (not the
 * console, not /dev/snapshot, whose last close would undo the load, not the
 * other workers' pipes).  It never returns: _exit(), so no atexit handler and
 * no stdio flush runs here.
 */
static void worker(struct readahead *ra, uint32_t w, int keep_fd, int filled_w, int free_r,
		   readahead_fill_fn fill, void *ctx)
{
	struct token t;
	uint64_t seq;
	uint8_t *slot;
	int fd;

	for (fd = 0; fd < FD_SCAN; fd++)
		if (fd != keep_fd && fd != filled_w && fd != free_r)
			(void)close(fd);
	for (seq = w;; seq += ra->nr_workers) {
		/* slot seq % nr_slots last held piece seq - nr_slots, ours too: wait until it is back */
		if (seq >= ra->nr_slots &&
		    (pipe_read(free_r, &t, sizeof(t)) < 0 || t.seq != seq - ra->nr_slots))
			_exit(1);
		slot = ra->ring + (size_t)(seq % ra->nr_slots) * ra->slot_bytes;
		memset(&t, 0, sizeof(t));
		t.seq = seq;
		t.result = fill(ctx, seq, slot, ra->slot_bytes, t.aux);
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

/* Fork worker @w with its two pipes; the caller's ends go into @ra. */
static int start_worker(struct readahead *ra, uint32_t w, int keep_fd, readahead_fill_fn fill,
			void *ctx)
{
	pid_t (*do_fork)(void) = ra->do_fork ? ra->do_fork : fork;
	int filled[2] = { -1, -1 }, free_p[2] = { -1, -1 };
	pid_t pid;
	int r;

	/* close-on-exec: no program we run (plymouth's client) may hold them */
	if (pipe2(filled, O_CLOEXEC) < 0 || pipe2(free_p, O_CLOEXEC) < 0) {
		r = -errno;
		goto out_close;
	}
	pid = do_fork();
	if (pid < 0) {
		r = -errno;
		goto out_close;
	}
	if (pid == 0)
		worker(ra, w, keep_fd, filled[1], free_p[0], fill, ctx);
	ra->pid[w] = pid;
	/* the consumer keeps the other ends: a worker's death is then an end of file */
	close_fd(&filled[1]);
	close_fd(&free_p[0]);
	ra->filled_fd[w] = filled[0];
	ra->free_fd[w] = free_p[1];
	return 0;

out_close:
	close_fd(&filled[0]);
	close_fd(&filled[1]);
	close_fd(&free_p[0]);
	close_fd(&free_p[1]);
	return r;
}

/**
 * readahead_start() - map the ring and fork the workers
 * @nr_workers: 1 to READAHEAD_WORKERS_MAX
 * @slots_per_worker, @slot_bytes: the ring (@slot_bytes a page multiple)
 * @keep_fd: the one descriptor the workers keep (the device @fill reads)
 * @fill, @ctx: what a worker runs for each of its pieces (@ctx is its own copy)
 *
 * ra->do_fork may be set before the call (NULL: fork()).
 * Return: 0, every worker running; or -errno with nothing left behind (the
 * caller then works synchronously).
 */
int readahead_start(struct readahead *ra, uint32_t nr_workers, uint32_t slots_per_worker,
		    size_t slot_bytes, int keep_fd, readahead_fill_fn fill, void *ctx)
{
	pid_t (*do_fork)(void) = ra->do_fork;
	struct sigaction ign;
	uint32_t w;
	void *ring;
	int r;

	memset(ra, 0, sizeof(*ra));
	for (w = 0; w < READAHEAD_WORKERS_MAX; w++)
		ra->filled_fd[w] = ra->free_fd[w] = -1;
	if (nr_workers < 1 || nr_workers > READAHEAD_WORKERS_MAX || slots_per_worker < 1)
		return -EINVAL;
	ra->do_fork = do_fork;
	ra->nr_workers = nr_workers;
	ra->nr_slots = nr_workers * slots_per_worker;
	ra->slot_bytes = slot_bytes;
	ring = mmap(NULL, (size_t)ra->nr_slots * slot_bytes, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ring == MAP_FAILED) {
		r = -errno;
		ra->nr_slots = 0;
		return r;
	}
	ra->ring = ring;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGPIPE, &ign, &ra->old_pipe) < 0) {
		r = -errno;
		readahead_stop(ra);
		return r;
	}
	ra->pipe_ignored = 1;
	for (w = 0; w < nr_workers; w++) {
		r = start_worker(ra, w, keep_fd, fill, ctx);
		if (r < 0) {
			readahead_stop(ra);
			return r;
		}
	}
	return 0;
}

/**
 * readahead_next() - give back the piece held, wait for the next one
 * @ret_buf, @ret_len: where the next piece is, and its length (0: there is no
 * more); valid until the next call or readahead_stop()
 *
 * ra->aux holds the token's numbers afterwards, for an -errno too.
 * Return: 0; the -errno the fill function returned for this piece; or -ECHILD
 * when its worker is gone (killed, or the pipe closed) or broke the protocol.
 */
int readahead_next(struct readahead *ra, const uint8_t **ret_buf, size_t *ret_len)
{
	struct token t = { 0 };
	uint32_t w;

	if (ra->held) {
		t.seq = ra->seq - 1;
		/* EPIPE: that worker has finished or died; what it filled is still in the pipe */
		(void)pipe_write(ra->free_fd[t.seq % ra->nr_workers], &t, sizeof(t));
		ra->held = 0;
	}
	memset(ra->aux, 0, sizeof(ra->aux));
	w = (uint32_t)(ra->seq % ra->nr_workers);
	if (pipe_read(ra->filled_fd[w], &t, sizeof(t)) < 0 || t.seq != ra->seq ||
	    t.result > (int64_t)ra->slot_bytes || t.result < -4095)
		return -ECHILD;
	memcpy(ra->aux, t.aux, sizeof(ra->aux));
	if (t.result < 0)
		return (int)t.result;
	ra->held = 1;
	*ret_buf = ra->ring + (size_t)(ra->seq % ra->nr_slots) * ra->slot_bytes;
	*ret_len = (size_t)t.result;
	ra->seq++;
	return 0;
}

/*
 * readahead_stop() - kill and reap the workers, unmap the ring, restore SIGPIPE
 *
 * For every path, success or not: when it returns no worker is left, so
 * nothing of this process is left to be frozen.  Safe to call twice.
 */
void readahead_stop(struct readahead *ra)
{
	int status;
	uint32_t w;
	pid_t p;

	if (ra->nr_workers == 0)
		return;			/* never started (a zeroed struct) or stopped */
	/* all killed first, then reaped: none waits for another's end */
	for (w = 0; w < READAHEAD_WORKERS_MAX; w++)
		if (ra->pid[w] > 0)
			(void)kill(ra->pid[w], SIGKILL);
	for (w = 0; w < READAHEAD_WORKERS_MAX; w++) {
		if (ra->pid[w] > 0) {
			/* a worker that has exited is a zombie until reaped: the pid is still its own */
			do
				p = waitpid(ra->pid[w], &status, 0);
			while (p < 0 && errno == EINTR);
			if (p == ra->pid[w])
				ra->status[w] = status;
			ra->pid[w] = 0;
		}
		close_fd(&ra->filled_fd[w]);
		close_fd(&ra->free_fd[w]);
	}
	if (ra->pipe_ignored)
		(void)sigaction(SIGPIPE, &ra->old_pipe, NULL);
	ra->pipe_ignored = 0;
	if (ra->ring)
		munmap(ra->ring, (size_t)ra->nr_slots * ra->slot_bytes);
	ra->ring = NULL;
	ra->nr_workers = 0;
}
