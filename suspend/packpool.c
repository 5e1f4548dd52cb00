// SPDX-License-Identifier: GPL-2.0-only
/*
 * packpool.c - the pack stage on worker threads (see packpool.h for the freezer)
 *
 * A ring of nr_jobs jobs.  The caller takes the job after the newest one
 * (pack_pool_get), fills its raw buffer, submits it; workers take submitted
 * jobs in order and pack them; the caller collects the oldest job, which it
 * waits for, and puts it aside (pack_pool_put): its packed bytes stay where
 * they are until the caller has written them and releases the job
 * (pack_pool_release), oldest first.  Sequence numbers only grow, so job k is
 * jobs[k % nr_jobs].  In flight (submitted, not collected) are at most
 * nr_raw jobs, one per raw buffer: job k reads into raws[k % nr_raw], free
 * again once job k - nr_raw was collected.  Held (collected, not released)
 * are at most nr_jobs - nr_raw, so a job that is taken is always free.
 */
#include <errno.h>
#include <lz4.h>
#include <lz4hc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "hash.h"
#include "image.h"
#include "monoclock.h"
#include "packpool.h"
#include "taskwait.h"

#define STACK_BYTES	(256u << 10)	/* LZ4 keeps its state outside: little stack is used */

enum job_state {
	JOB_FREE = 0,
	JOB_QUEUED,
	JOB_PACKING,
	JOB_PACKED,
	JOB_HELD,			/* collected: its packed bytes wait to be written */
};

/**
 * pack_setting_parse() - "lz4", "lz4:ACCEL" (1..65537), "lz4hc", "lz4hc:LEVEL" (1..12), "none"
 * Return: 0, or -EINVAL (nothing written to @ret).
 */
int pack_setting_parse(const char *s, struct pack_setting *ret)
{
	struct pack_setting set;
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	long max;
	char *end;
	long v;

	if (n == 3 && !strncmp(s, "lz4", 3))
		set.kind = PACK_LZ4, set.level = 1, max = 65537;
	else if (n == 5 && !strncmp(s, "lz4hc", 5))
		set.kind = PACK_LZ4HC, set.level = 9, max = LZ4HC_CLEVEL_MAX;
	else if (n == 4 && !strncmp(s, "none", 4) && !colon)
		set.kind = PACK_NONE, set.level = 0, max = 0;
	else
		return -EINVAL;
	if (colon) {
		if (colon[1] < '0' || colon[1] > '9')
			return -EINVAL;
		errno = 0;
		v = strtol(colon + 1, &end, 10);
		if (errno || *end || v < 1 || v > max)
			return -EINVAL;
		set.level = (int)v;
	}
	*ret = set;
	return 0;
}

/* The setting as pack_setting_parse() reads it back. */
void pack_setting_name(const struct pack_setting *s, char *buf, size_t len)
{
	switch (s->kind) {
	case PACK_LZ4:
		snprintf(buf, len, "lz4:%d", s->level);
		break;
	case PACK_LZ4HC:
		snprintf(buf, len, "lz4hc:%d", s->level);
		break;
	default:
		snprintf(buf, len, "none");
	}
}

/* Workers by default: one per online CPU, none (pack on the caller) with one CPU. */
unsigned pack_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n <= 1)
		return 0;
	return n > PACK_THREADS_MAX ? PACK_THREADS_MAX : (unsigned)n;
}

/*
 * Pack one block: compress into a buffer no larger than the block (LZ4 gives
 * up early when the output would not be smaller), store it raw when that did
 * not help, hash the stored bytes, zero the padding.
 */
static void pack_one(const struct pack_setting *s, void *state, struct pack_job *j,
		     size_t cap, uint32_t ps)
{
	int len = (int)j->len, n = 0;

	if (s->kind == PACK_LZ4)
		n = LZ4_compress_fast_extState(state, (const char *)j->raw, (char *)j->out, len,
					       len - 1, s->level);
	else if (s->kind == PACK_LZ4HC)
		n = LZ4_compress_HC_extStateHC(state, (const char *)j->raw, (char *)j->out, len,
					       len - 1, s->level);
	j->flags = 0;
	if (n <= 0 || n >= len) {
		memcpy(j->out, j->raw, j->len);
		n = len;
		j->flags = TORPOR_BLOCK_RAW;
	}
	j->stored_len = (uint32_t)n;
	j->hash = hash64(j->out, (size_t)n);
	j->padded = ((size_t)n + ps - 1) / ps * ps;
	if (j->padded > cap)	/* cannot happen: cap is the block rounded up to pages */
		j->padded = cap;
	memset(j->out + n, 0, j->padded - (size_t)n);
}

static size_t state_bytes(const struct pack_setting *s)
{
	if (s->kind == PACK_LZ4)
		return (size_t)LZ4_sizeofState();
	if (s->kind == PACK_LZ4HC)
		return (size_t)LZ4_sizeofStateHC();
	return 16;
}

/**
 * pack_pool_init() - allocate jobs, compressor states and stacks, before the freeze
 * @threads: workers (0: pack on the caller's thread), at most PACK_THREADS_MAX
 * @block_bytes: the largest block, whole pages
 *
 * @hold: jobs the caller keeps after collecting them, until it releases them
 *
 * Jobs in flight: two per worker (one being packed, one waiting), fewer when
 * their raw and packed buffers would pass PACK_JOBS_BYTES_MAX, at least two;
 * one without workers.  Each has a raw buffer; @hold more jobs have only their
 * packed buffer.
 * Return: 0, -EINVAL for a thread count out of range, -ENOMEM.
 */
int pack_pool_init(struct pack_pool *p, const struct pack_setting *s, unsigned threads,
		   size_t block_bytes, uint32_t page_size, unsigned hold)
{
	unsigned i, nw = threads ? threads : 1;
	size_t per_job = 2 * block_bytes;

	memset(p, 0, sizeof(*p));
	if (threads > PACK_THREADS_MAX)
		return -EINVAL;
	p->set = *s;
	p->ps = page_size;
	p->nr_threads = threads;
	p->nr_workers = nw;
	p->block_bytes = block_bytes;
	p->stack_bytes = STACK_BYTES;
	p->state_bytes = (state_bytes(s) + 4095) & ~(size_t)4095;
	p->nr_raw = threads ? 2 * threads : 1;
	if (threads && p->nr_raw * per_job > PACK_JOBS_BYTES_MAX)
		p->nr_raw = (unsigned)(PACK_JOBS_BYTES_MAX / per_job);
	if (threads && p->nr_raw < 2)
		p->nr_raw = 2;
	p->nr_jobs = p->nr_raw + hold;
	p->jobs = calloc(p->nr_jobs, sizeof(*p->jobs));
	p->raws = calloc(p->nr_raw, sizeof(*p->raws));
	p->workers = calloc(nw, sizeof(*p->workers));
	if (!p->jobs || !p->raws || !p->workers)
		goto nomem;
	for (i = 0; i < p->nr_raw; i++)
		if (!(p->raws[i] = blkio_alloc(block_bytes)))
			goto nomem;
	for (i = 0; i < p->nr_jobs; i++)
		if (!(p->jobs[i].out = blkio_alloc(block_bytes)))
			goto nomem;
	for (i = 0; i < nw; i++) {
		p->workers[i].pool = p;
		p->workers[i].index = i;
		p->workers[i].state = blkio_alloc(p->state_bytes);
		p->workers[i].stack = threads ? blkio_alloc(p->stack_bytes) : NULL;
		if (!p->workers[i].state || (threads && !p->workers[i].stack))
			goto nomem;
		/* touch them now: mlockall() then holds them, no fault after the snapshot */
		memset(p->workers[i].state, 0, p->state_bytes);
		if (threads)
			memset(p->workers[i].stack, 0, p->stack_bytes);
	}
	if (pthread_mutex_init(&p->lock, NULL) || pthread_cond_init(&p->work, NULL) ||
	    pthread_cond_init(&p->done, NULL))
		goto nomem;
	return 0;
nomem:
	pack_pool_free(p);
	return -ENOMEM;
}

/* Bytes pack_pool_init() allocated. */
size_t pack_pool_bytes(const struct pack_pool *p)
{
	return ((size_t)p->nr_raw + p->nr_jobs) * p->block_bytes +
	       p->nr_workers * (p->state_bytes + (p->nr_threads ? p->stack_bytes : 0));
}

/**
 * pack_pool_trial() - the bytes @len bytes at @raw would take on disk as a block
 * (compressed or stored raw, page-padded), packed as a worker packs, with the
 * first job's buffer and the first worker's state: before pack_pool_start()
 * only, for the estimate before the freeze (fitsample.h).  @len is at most a block.
 * Return: the padded size; 0 when @len is too large.
 */
size_t pack_pool_trial(struct pack_pool *p, const uint8_t *raw, size_t len)
{
	struct pack_job j;

	if (!p->nr_jobs || !len || len > p->block_bytes)
		return 0;
	memset(&j, 0, sizeof(j));
	j.raw = (uint8_t *)raw;
	j.len = len;
	j.out = p->jobs[0].out;
	pack_one(&p->set, p->workers[0].state, &j, p->block_bytes, p->ps);
	return j.padded;
}

static void *worker_main(void *arg)
{
	struct pack_worker *me = arg;
	struct pack_pool *p = me->pool;
	struct pack_job *j;
	uint64_t t0;

	pthread_mutex_lock(&p->lock);
	me->tid = task_self();
	for (;;) {
		while (!p->stop && p->next_take == p->next_submit)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->stop)
			break;
		j = &p->jobs[p->next_take++ % p->nr_jobs];
		j->state = JOB_PACKING;
		pthread_mutex_unlock(&p->lock);
		t0 = mono_ns();
		pack_one(&p->set, me->state, j, p->block_bytes, p->ps);
		me->busy_ns += mono_ns() - t0;
		pthread_mutex_lock(&p->lock);
		j->state = JOB_PACKED;
		me->packed++;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/**
 * pack_pool_start() - start the workers; only after CREATE_IMAGE (see packpool.h)
 *
 * They start with every signal blocked: the abort signals reach the writer's
 * thread only.  When the kernel refuses to create a thread, the ones created
 * carry on alone; with none, blocks are packed on the caller's thread.
 * Return: 0, or -errno from pthread_create() when no worker started (packing
 * then happens inline: the caller may go on).
 */
int pack_pool_start(struct pack_pool *p)
{
	unsigned i;
	int r = 0;

	if (!p->nr_threads)
		return 0;
	for (i = 0; i < p->nr_threads && !r; i++) {
		r = task_start(&p->workers[i].thread, p->workers[i].stack, p->stack_bytes,
			       worker_main, &p->workers[i]);
		if (!r)
			p->started++;
	}
	if (!p->started) {
		p->nr_threads = 0;	/* jobs stay in the ring: inline, one at a time */
		return r;
	}
	p->nr_threads = p->started;
	return 0;
}

/*
 * The next free job to fill, its raw buffer set; NULL when the raw buffers are
 * all in flight (collect one first) or the job is still held (release first).
 */
struct pack_job *pack_pool_get(struct pack_pool *p)
{
	unsigned depth = p->nr_threads ? p->nr_raw : 1;
	struct pack_job *j;

	if (p->next_submit - p->next_collect >= depth)
		return NULL;
	j = &p->jobs[p->next_submit % p->nr_jobs];
	if (j->state != JOB_FREE)
		return NULL;
	j->raw = p->raws[p->next_submit % p->nr_raw];
	return j;
}

/* Hand over a job whose raw and len are set; without workers it is packed now. */
void pack_pool_submit(struct pack_pool *p, struct pack_job *j)
{
	uint64_t t0;

	if (!p->nr_threads) {
		t0 = mono_ns();
		pack_one(&p->set, p->workers[0].state, j, p->block_bytes, p->ps);
		p->workers[0].busy_ns += mono_ns() - t0;
		j->state = JOB_PACKED;
		p->workers[0].packed++;
		p->next_submit++;
		p->next_take = p->next_submit;
		return;
	}
	pthread_mutex_lock(&p->lock);
	j->state = JOB_QUEUED;
	p->next_submit++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
}

/* The oldest job in flight, once packed (waits for it); NULL when none is in flight. */
struct pack_job *pack_pool_collect(struct pack_pool *p)
{
	struct pack_job *j;

	if (p->next_collect == p->next_submit)
		return NULL;
	j = &p->jobs[p->next_collect % p->nr_jobs];
	if (!p->nr_threads)
		return j;
	pthread_mutex_lock(&p->lock);
	while (j->state != JOB_PACKED)
		pthread_cond_wait(&p->done, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return j;
}

/* The collected job is out of flight; its packed bytes stay until pack_pool_release(). */
void pack_pool_put(struct pack_pool *p, struct pack_job *j)
{
	j->state = JOB_HELD;
	j->raw = NULL;
	p->next_collect++;
}

/* The @n oldest jobs put aside are free again (their bytes are written). */
void pack_pool_release(struct pack_pool *p, unsigned n)
{
	for (; n && p->next_release < p->next_collect; n--)
		p->jobs[p->next_release++ % p->nr_jobs].state = JOB_FREE;
}

/**
 * pack_pool_stop() - stop and join the workers, whatever is still in flight
 * Jobs not collected are dropped (the caller is done with them or failing).
 * After the join, each worker's task must be gone (taskwait.h): p->lingering
 * counts the ones still there after a second.
 * Return: 0.
 */
int pack_pool_stop(struct pack_pool *p)
{
	unsigned i;

	if (p->started) {
		pthread_mutex_lock(&p->lock);
		p->stop = 1;
		pthread_cond_broadcast(&p->work);
		pthread_mutex_unlock(&p->lock);
		for (i = 0; i < p->started; i++)
			pthread_join(p->workers[i].thread, NULL);
		for (i = 0; i < p->started; i++)
			if (task_wait_released(p->workers[i].tid, 1000) < 0)
				p->lingering++;
	}
	/* as after pack_pool_init(): the pool can be started again */
	p->started = 0;
	p->stop = 0;
	p->next_submit = p->next_take = p->next_collect = p->next_release = 0;
	for (i = 0; i < p->nr_jobs; i++)
		p->jobs[i].state = JOB_FREE;
	return 0;
}

/* Free what pack_pool_init() allocated; the workers must be stopped. */
void pack_pool_free(struct pack_pool *p)
{
	unsigned i;

	if (p->jobs)
		for (i = 0; i < p->nr_jobs; i++)
			blkio_free(p->jobs[i].out, p->block_bytes);
	if (p->raws)
		for (i = 0; i < p->nr_raw; i++)
			blkio_free(p->raws[i], p->block_bytes);
	if (p->workers)
		for (i = 0; i < p->nr_workers; i++) {
			blkio_free(p->workers[i].state, p->state_bytes);
			blkio_free(p->workers[i].stack, p->stack_bytes);
		}
	free(p->jobs);
	free(p->raws);
	free(p->workers);
	p->jobs = NULL;
	p->raws = NULL;
	p->nr_jobs = p->nr_raw = 0;	/* writer_save() refuses a pool without jobs */
	p->workers = NULL;
}
