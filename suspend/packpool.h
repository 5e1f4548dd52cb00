/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * packpool.h - the pack stage (LZ4, then the hash of what is stored) on worker threads
 *
 * The writer reads a block of the snapshot stream into a free job, submits it,
 * and collects jobs back strictly in submission order, so the image is byte for
 * byte what one thread writes.  With 0 workers a job is packed at submission,
 * on the caller's thread.
 *
 * The freezer: after SNAPSHOT_FREEZE every user task is frozen except the one
 * that froze them, which the kernel marks PF_SUSPEND_TASK; copy_process()
 * passes that flag on to the threads it creates, so threads started after
 * CREATE_IMAGE run (tests/qemu/04-threads.sh proves it on both kernels with two
 * vCPUs).  They are created by pack_pool_start() only after CREATE_IMAGE said
 * "save it", and pack_pool_stop() joins them and waits until the kernel has
 * released them (gone from /proc/self/task) before the writer returns, so no
 * thread of ours is left when the system thaws.  Everything the workers use
 * (jobs, compressor state, stacks) is allocated by pack_pool_init() before the
 * freeze; workers block every signal and never allocate.  pthread_create()
 * itself takes a few hundred bytes of heap per thread (the TLS table): the
 * heap slack hibernate.c keeps locked before the freeze provides them.
 */
#ifndef SUSPEND_PACKPOOL_H
#define SUSPEND_PACKPOOL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PACK_THREADS_MAX	16
#define PACK_JOBS_BYTES_MAX	(28u << 20)	/* raw and packed buffers of the jobs in flight */

enum pack_kind {
	PACK_LZ4 = 0,			/* LZ4 with acceleration level (1 = default) */
	PACK_LZ4HC,			/* LZ4HC at level (1..12): same format, slower, smaller */
	PACK_NONE,			/* every block stored as it is */
};

struct pack_setting {
	enum pack_kind kind;
	int level;
};

struct pack_job {
	uint8_t *raw;			/* the block as read, len bytes */
	size_t len;
	uint8_t *out;			/* what goes to disk, padded to whole pages */
	size_t padded;
	uint32_t stored_len;		/* bytes before the padding */
	uint32_t flags;			/* enum torpor_block_flags */
	uint64_t hash;			/* hash64() of the stored bytes */
	int state;			/* private to packpool.c */
};

struct pack_pool;

struct pack_worker {
	struct pack_pool *pool;
	unsigned index;
	pthread_t thread;
	pid_t tid;			/* the kernel's id, to see it gone */
	uint64_t packed;		/* blocks this worker packed */
	uint64_t busy_ns;		/* time spent packing them */
	void *state;			/* its compressor state */
	uint8_t *stack;			/* its stack, allocated before the freeze */
};

struct pack_pool {
	struct pack_setting set;
	uint32_t ps;
	unsigned nr_threads;		/* workers; 0 = pack on the caller's thread */
	unsigned nr_workers;		/* allocated worker records, at least one */
	unsigned nr_jobs;
	size_t block_bytes;		/* bytes of each job's raw and out buffers */
	size_t stack_bytes;
	size_t state_bytes;
	struct pack_job *jobs;
	unsigned nr_raw;		/* raw buffers: the most jobs in flight */
	uint8_t **raws;
	struct pack_worker *workers;	/* nr_threads entries, at least one (its state packs inline) */
	unsigned started;		/* workers running */
	unsigned lingering;		/* workers the kernel had not released after the join */
	uint64_t next_submit, next_take, next_collect, next_release;
	int stop;
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a job was submitted, or stop */
	pthread_cond_t done;		/* a job was packed */
};

int pack_setting_parse(const char *s, struct pack_setting *ret);
void pack_setting_name(const struct pack_setting *s, char *buf, size_t len);
unsigned pack_default_threads(void);
int pack_pool_init(struct pack_pool *p, const struct pack_setting *s, unsigned threads,
		   size_t block_bytes, uint32_t page_size, unsigned hold);
size_t pack_pool_bytes(const struct pack_pool *p);
size_t pack_pool_trial(struct pack_pool *p, const uint8_t *raw, size_t len);
int pack_pool_start(struct pack_pool *p);
struct pack_job *pack_pool_get(struct pack_pool *p);
void pack_pool_submit(struct pack_pool *p, struct pack_job *j);
struct pack_job *pack_pool_collect(struct pack_pool *p);
void pack_pool_put(struct pack_pool *p, struct pack_job *j);
void pack_pool_release(struct pack_pool *p, unsigned n);
int pack_pool_stop(struct pack_pool *p);
void pack_pool_free(struct pack_pool *p);

#endif
