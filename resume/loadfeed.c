// SPDX-License-Identifier: GPL-2.0-only
/*
 * loadfeed.c - the image's data blocks, each verified, fed to /dev/snapshot
 *
 * Runs after loader.c has checked the header and the map.  Data blocks are
 * verified one at a time, the hash of their stored bytes before they are
 * decoded, each before any of its pages is fed: a bad block aborts the load,
 * and closing /dev/snapshot then drops everything the kernel had taken.  Where
 * the time went is kept for torpor.debug's profile.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "copy.h"
#include "hash.h"
#include "loader.h"
#include "lz4dec.h"
#include "pageiov.h"
#include "readahead.h"
#include "wallclock.h"

#define FAIL(l, what, err) ((l)->failed = (what), (err))
#define FEED_IOV 256		/* pages per writev(): one system call, the kernel takes a page a call */

/*
 * Hand whole pages to the kernel, FEED_IOV to a writev(): it must take all of
 * them; a refusal of the first comes back as its -errno, of a later one as a
 * short count, and nothing more is written after either.
 */
static int feed_pages(struct loader *l, int snap_fd, const uint8_t *buf, size_t len)
{
	struct iovec iov[FEED_IOV];
	size_t off = 0;
	ssize_t n;
	int cnt;

	while (off < len) {
		cnt = pageiov_fill(iov, FEED_IOV, buf, off, len, l->ps);
		n = l->write_pages(snap_fd, iov, cnt);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return FAIL(l, "the kernel refused a page of the image", -errno);
		if (n % l->ps)
			return FAIL(l, "the kernel took part of a page", -EIO);
		if (n == 0)
			return FAIL(l, "the kernel wanted fewer pages than the image holds", -EFBIG);
		off += (size_t)n;
		l->fed_bytes += (uint64_t)n;
		/*
		 * Fewer than asked: the kernel refused a page after the first (its
		 * errno is lost in writev's count) or wanted no more.  Either way it
		 * is final: after a failure the kernel must not be called again.
		 */
		if ((size_t)n < (size_t)cnt * l->ps)
			return FAIL(l, "the kernel stopped taking the image's pages (its reason "
				    "is in the kernel log)", -EIO);
	}
	return 0;
}

/*
 * After the last page: one more write.  On 6.6+ kernels whose trailing pages
 * were zero pages this makes the kernel place them (snapshot_write_next runs
 * once more); everywhere it must return 0, "nothing more expected".
 */
static int drain(struct loader *l, int snap_fd, uint8_t *zero)
{
	ssize_t n;

	memset(zero, 0, l->ps);
	n = l->write_pages(snap_fd, &(struct iovec){ zero, l->ps }, 1);
	if (n < 0)
		return FAIL(l, "the kernel refused the end of the image", -errno);
	if (n != 0)
		return FAIL(l, "the image is shorter than the kernel expects", -ENODATA);
	return 0;
}

/* a time stamp for the profile, only when it is asked for (a system call a stamp in klibc) */
static uint64_t stamp(const struct loader *l)
{
	return l->profile ? wallclock_ns() : 0;
}

static int timed_feed(struct loader *l, int snap_fd, const uint8_t *pages, size_t len)
{
	uint64_t t0 = stamp(l);
	int r = feed_pages(l, snap_fd, pages, len);

	l->t_feed_ns += stamp(l) - t0;
	return r;
}

/* Every per cent of the stream, once (the callback decides what to show). */
static void progress(struct loader *l, uint64_t *next_step)
{
	uint64_t total = l->img.meta.stream_bytes;

	/* the steps are rounded up: the last one may lie past the end */
	if (l->progress && (l->fed_bytes >= *next_step || l->fed_bytes == total)) {
		l->progress(l->fed_bytes, total);
		*next_step += total / 100 + 1;
	}
}

/* What was wrong with a block (unpack_block), or its piece (a worker's token: aux[PIECE_WHAT]). */
enum { PIECE_READ = 1, PIECE_HASH, PIECE_DECODE };

/*
 * Check block @i's stored bytes (untrusted: the device's) against its hash,
 * then decode them into @dst; *@ret is where its pages are then (@stored
 * itself for a block stored raw).  @ns[0] and @ns[1] add the time spent
 * hashing and decoding, when profiling.
 * Return: 0, or -EBADMSG with *@what PIECE_HASH or PIECE_DECODE.
 */
static int unpack_block(const struct loader *l, uint32_t i, const uint8_t *stored, uint8_t *dst,
			const uint8_t **ret, uint64_t ns[2], uint64_t *what)
{
	const struct torpor_block *b = &l->img.blocks[i];
	size_t raw_len = (size_t)image_block_raw_bytes(&l->img.meta, i);
	uint64_t t0 = stamp(l), t1;
	int bad;
	ssize_t n;

	/* the bytes as written: the decoder never sees a block that was damaged */
	bad = hash64(stored, b->stored_len) != b->hash;
	t1 = stamp(l);
	ns[0] += t1 - t0;
	if (bad) {
		*what = PIECE_HASH;
		return -EBADMSG;
	}
	if (b->flags & TORPOR_BLOCK_RAW) {
		*ret = stored;
		return 0;
	}
	n = lz4dec_block(stored, b->stored_len, dst, raw_len);
	ns[1] += stamp(l) - t1;
	if (n < 0 || (size_t)n != raw_len) {
		*what = PIECE_DECODE;
		return -EBADMSG;
	}
	*ret = dst;
	return 0;
}

/**
 * loader_read_head() - the stream's first page (the kernel's header page) into
 * @page, l->ps bytes: block 0 read, checked against its hash and decoded, as
 * the load will; nothing goes to the kernel
 * Return: 0, or -errno with l->failed set.
 */
int loader_read_head(struct loader *l, uint8_t *page)
{
	uint64_t ns[2] = { 0, 0 }, what = 0;
	uint32_t pages;
	size_t raw_len, stored_len;
	uint8_t *stored = NULL, *raw = NULL;
	const uint8_t *out;
	int r;

	if (!l->img.meta.nr_blocks)
		return FAIL(l, "the image has no data block", -EINVAL);
	pages = image_block_pages_stored(&l->img.blocks[0], l->ps);
	raw_len = (size_t)image_block_raw_bytes(&l->img.meta, 0);
	stored_len = (size_t)pages * l->ps;
	if (raw_len < l->ps)
		return FAIL(l, "the first data block is shorter than a page", -EINVAL);
	stored = blkio_alloc(stored_len);
	raw = blkio_alloc(raw_len);
	if (!stored || !raw) {
		r = FAIL(l, "memory for reading blocks", -ENOMEM);
		goto out;
	}
	l->failed_block = 0;
	r = loader_read_extents(l->dev_fd, l->img.extents, l->img.meta.nr_extents, l->ps, 0,
				pages, stored);
	if (r < 0) {
		r = FAIL(l, "reading a data block", r);
		goto out;
	}
	r = unpack_block(l, 0, stored, raw, &out, ns, &what);
	if (r < 0) {
		r = FAIL(l, what == PIECE_HASH ? "data block checksum" :
			 "data block does not decompress", r);
		goto out;
	}
	memcpy(page, out, l->ps);
out:
	if (stored)
		blkio_free(stored, stored_len);
	if (raw)
		blkio_free(raw, raw_len);
	return r;
}

/* The synchronous path: unpack block @i into @raw and hand its pages to the kernel. */
static int feed_block(struct loader *l, int snap_fd, uint32_t i, const uint8_t *stored,
		      uint8_t *raw)
{
	uint64_t ns[2] = { 0, 0 }, what = 0;
	const uint8_t *pages;
	int r;

	l->failed_block = i;
	r = unpack_block(l, i, stored, raw, &pages, ns, &what);
	l->t_hash_ns += ns[0];
	l->t_decode_ns += ns[1];
	if (r < 0)
		return FAIL(l, what == PIECE_HASH ? "data block checksum" :
			    "data block does not decompress", r);
	return timed_feed(l, snap_fd, pages, (size_t)image_block_raw_bytes(&l->img.meta, i));
}

/*
 * Memory while feeding: the decoded tables (at most 5.3 MiB, image.h) and the
 * buffers.  With workers: a ring of WORKER_SLOTS slots a worker of
 * WORKER_SLOT_BYTES of decoded pages (blocks up to 1 MiB; 2 MiB blocks get one
 * worker with two slots of one block, 4 MiB blocks work synchronously), at most
 * 6 MiB, and in each worker its own buffer for one piece's stored bytes
 * (piece_stored_cap(): 1.0625 MiB, one 2 MiB block's bound with one worker).
 * Under 15 MiB in all with the largest image the format allows (5.3 + 6 +
 * 3 x 1.0625), counting every process.  Synchronously: one raw block (at most
 * TORPOR_BLOCK_BYTES_MAX) and a window of the data area (at most 4 MiB, or one
 * stored 4 MiB block with its LZ4 bound): under 14 MiB.  A worker shares the
 * ring and, copy-on-write, everything else: its own pages are its piece buffer
 * and a few of stack.  The meta blob's read buffer (at most TORPOR_META_MAX)
 * is freed before this.
 */
#define WINDOW_BYTES (4u << 20)
#define WORKER_SLOT_BYTES (1u << 20)
#define WORKER_SLOTS 2
#define WORKER_RING_BYTES (6u << 20)

/* Bytes one stored block may need on disk: its LZ4 bound, whole pages. */
static size_t stored_cap(const struct loader *l)
{
	size_t bb = (size_t)l->img.meta.block_pages * l->ps;

	return (bb + bb / 255 + 16 + l->ps - 1) / l->ps * l->ps;
}

/*
 * The synchronous path: a window of the data area, read in large sequential
 * requests (WINDOW_BYTES, or one stored block when that is larger), not one
 * request per block, and sliced from the window.  Used when the workers cannot
 * be started (no fork, no shared mapping) or the blocks are too large for it.
 */
struct window {
	uint8_t *buf;
	size_t cap;			/* bytes */
	uint64_t first, pages;		/* logical pages it holds */
};

/* Make logical pages [@first, @first + @pages) available; returns a pointer to them. */
static int window_get(struct loader *l, struct window *w, uint64_t first, uint32_t pages,
		      uint8_t **ret)
{
	uint64_t n;
	int r;

	if (first < w->first || first + pages > w->first + w->pages) {
		n = w->cap / l->ps;
		if (n > l->img.meta.data_pages - first)
			n = l->img.meta.data_pages - first;
		if (n < pages)
			return -EIO;
		r = loader_read_extents(l->dev_fd, l->img.extents, l->img.meta.nr_extents, l->ps,
					first, n, w->buf);
		if (r < 0) {
			w->pages = 0;
			return r;
		}
		w->first = first;
		w->pages = n;
	}
	*ret = w->buf + (first - w->first) * l->ps;
	return 0;
}

static int feed_sync(struct loader *l, int snap_fd, uint8_t *raw)
{
	const struct torpor_meta *m = &l->img.meta;
	size_t cap = stored_cap(l);
	struct window w = { NULL, cap > WINDOW_BYTES ? cap : WINDOW_BYTES, 0, 0 };
	uint64_t logical = 0, next_step = m->stream_bytes / 100 + 1, t0;
	uint8_t *stored = NULL;
	uint32_t i, pages;
	int r = 0;

	w.buf = blkio_alloc(w.cap);
	if (!w.buf)
		return FAIL(l, "memory for reading blocks", -ENOMEM);
	for (i = 0; i < m->nr_blocks; i++) {
		pages = image_block_pages_stored(&l->img.blocks[i], l->ps);
		l->failed_block = i;
		t0 = stamp(l);
		r = window_get(l, &w, logical, pages, &stored);
		l->t_read_ns += stamp(l) - t0;
		if (r < 0) {
			r = FAIL(l, "reading a data block", r);
			break;
		}
		r = feed_block(l, snap_fd, i, stored, raw);
		if (r < 0)
			break;
		logical += pages;
		progress(l, &next_step);
	}
	blkio_free(w.buf, w.cap);
	return r;
}

/*
 * The workers' path.  A piece is a run of whole blocks, as many as fit one slot
 * decoded (at least one); the workers and the consumer cut the same pieces
 * from the same block table, piece n going to worker n % workers.
 */
struct piece {
	uint32_t first, end;		/* blocks [first, end) */
	uint64_t stored_pages;		/* the logical data pages they take */
	uint64_t raw_bytes;		/* what they decode to */
};

/*
 * A piece's stored bytes are bounded too, so that a worker's read buffer has
 * one size whatever the block table says: the slot and a sixteenth, which
 * holds the LZ4 bound, in whole pages, of a slot's worth of blocks of 16 pages
 * or more (256 KiB blocks: 4 x 260 KiB), or one block's bound when that is
 * more; smaller blocks only make smaller pieces.
 */
static size_t piece_stored_cap(const struct loader *l, size_t slot)
{
	size_t cap = slot + slot / 16;

	return cap > stored_cap(l) ? cap : stored_cap(l);
}

static void piece_at(const struct loader *l, uint32_t first, size_t slot, struct piece *p)
{
	uint64_t raw, stored, stored_max = piece_stored_cap(l, slot) / l->ps;
	uint32_t i;

	p->first = first;
	p->stored_pages = 0;
	p->raw_bytes = 0;
	for (i = first; i < l->img.meta.nr_blocks; i++) {
		raw = image_block_raw_bytes(&l->img.meta, i);
		stored = image_block_pages_stored(&l->img.blocks[i], l->ps);
		if (i > first && (p->raw_bytes + raw > slot || p->stored_pages + stored > stored_max))
			break;
		p->raw_bytes += raw;
		p->stored_pages += stored;
	}
	p->end = i;
}

/* the token's numbers: the failed block, what failed, ns reading, hashing, decoding */
enum { PIECE_BLOCK, PIECE_WHAT, PIECE_T_READ, PIECE_T_HASH, PIECE_T_DECODE };
/* unpack_block() adds its two times to &aux[PIECE_T_HASH] */
_Static_assert(PIECE_T_DECODE == PIECE_T_HASH + 1 && PIECE_T_DECODE < READAHEAD_AUX, "aux layout");

/* A worker's own state: a copy in each worker after the fork. */
struct piece_worker {
	const struct loader *l;
	uint64_t seq;			/* the piece at next */
	uint32_t next;			/* its first block */
	uint64_t logical;		/* its first logical data page */
	uint8_t *stored;		/* one piece's stored bytes, the worker's own */
	size_t stored_cap;
};

/*
 * In a worker: read piece @seq's stored bytes in one request, then check and
 * decode its blocks one by one into @buf (a readahead_fill_fn).
 */
static ssize_t fill_piece(void *ctx, uint64_t seq, uint8_t *buf, size_t cap,
			  uint64_t aux[READAHEAD_AUX])
{
	struct piece_worker *pw = ctx;
	const struct loader *l = pw->l;
	const uint8_t *pages;
	struct piece p;
	size_t off = 0, soff = 0, raw_len;
	uint64_t t0;
	uint32_t i;
	int r;

	/* the pieces of the other workers in between */
	for (; pw->seq < seq && pw->next < l->img.meta.nr_blocks; pw->seq++) {
		piece_at(l, pw->next, cap, &p);
		pw->next = p.end;
		pw->logical += p.stored_pages;
	}
	if (pw->next >= l->img.meta.nr_blocks)
		return 0;
	if (!pw->stored) {
		/* here, not before the fork: the parent never has it */
		pw->stored = blkio_alloc(pw->stored_cap);
		if (!pw->stored)
			return -ENOMEM;
	}
	piece_at(l, pw->next, cap, &p);
	aux[PIECE_BLOCK] = p.first;
	aux[PIECE_WHAT] = PIECE_READ;
	if (p.raw_bytes > cap || p.stored_pages * l->ps > pw->stored_cap)
		return -EIO;
	/* the piece's stored bytes in one request: they are consecutive on the data area */
	t0 = stamp(l);
	r = loader_read_extents(l->dev_fd, l->img.extents, l->img.meta.nr_extents, l->ps,
				pw->logical, p.stored_pages, pw->stored);
	aux[PIECE_T_READ] += stamp(l) - t0;
	if (r < 0)
		return r;
	for (i = p.first; i < p.end; i++) {
		raw_len = (size_t)image_block_raw_bytes(&l->img.meta, i);
		aux[PIECE_BLOCK] = i;
		r = unpack_block(l, i, pw->stored + soff, buf + off, &pages,
				 &aux[PIECE_T_HASH], &aux[PIECE_WHAT]);
		if (r < 0)
			return r;
		if (pages != buf + off)
			copy_bytes(buf + off, pages, raw_len);	/* a raw block */
		off += raw_len;
		soff += (size_t)image_block_pages_stored(&l->img.blocks[i], l->ps) * l->ps;
	}
	aux[PIECE_WHAT] = 0;
	pw->next = p.end;
	pw->logical += p.stored_pages;
	pw->seq++;
	return (ssize_t)off;
}

static int feed_workers(struct loader *l, struct readahead *ra, int snap_fd)
{
	uint64_t next_step = l->img.meta.stream_bytes / 100 + 1, t0;
	const uint8_t *buf;
	struct piece p;
	uint32_t i = 0;
	size_t len;
	int r;

	while (i < l->img.meta.nr_blocks) {
		piece_at(l, i, ra->slot_bytes, &p);
		l->failed_block = i;
		t0 = stamp(l);
		r = readahead_next(ra, &buf, &len);
		l->t_wait_ns += stamp(l) - t0;
		l->t_read_ns += ra->aux[PIECE_T_READ];
		l->t_hash_ns += ra->aux[PIECE_T_HASH];
		l->t_decode_ns += ra->aux[PIECE_T_DECODE];
		if (r == -ECHILD) {
			/* not the image's fault: no block to name */
			l->failed_block = 0;
			return FAIL(l, "a worker process ended before the last block", -EIO);
		}
		if (r == -ENOMEM) {
			/* the worker's buffer: not the image's fault */
			l->failed_block = 0;
			return FAIL(l, "memory for reading blocks", r);
		}
		if (r < 0) {
			if (ra->aux[PIECE_BLOCK] >= p.first && ra->aux[PIECE_BLOCK] < p.end)
				l->failed_block = (uint32_t)ra->aux[PIECE_BLOCK];
			if (ra->aux[PIECE_WHAT] == PIECE_HASH)
				return FAIL(l, "data block checksum", -EBADMSG);
			if (ra->aux[PIECE_WHAT] == PIECE_DECODE)
				return FAIL(l, "data block does not decompress", -EBADMSG);
			return FAIL(l, "reading a data block", r);
		}
		if (len != p.raw_bytes)
			return FAIL(l, "reading a data block", -EIO);
		r = timed_feed(l, snap_fd, buf, len);
		if (r < 0)
			return r;
		i = p.end;
		progress(l, &next_step);
	}
	return 0;
}

/* The CPUs this process may run on (at least 1). */
static uint32_t usable_cpus(void)
{
	unsigned long mask[16];
	uint32_t n = 0;
	size_t i;
	int r;

	memset(mask, 0, sizeof(mask));
#ifdef __KLIBC__
	r = sched_getaffinity(0, sizeof(mask), mask);	/* the system call: bytes written */
#else
	r = sched_getaffinity(0, sizeof(mask), (cpu_set_t *)mask);
#endif
	if (r < 0)
		return 1;
	for (i = 0; i < sizeof(mask) / sizeof(mask[0]); i++)
		n += (uint32_t)__builtin_popcountl(mask[i]);
	return n ? n : 1;
}

/*
 * Start the workers when the blocks fit their slots: one per CPU we may run on
 * and one more, whose reads overlap the others' decoding (a worker reads a
 * piece, then checks and decodes its blocks), up to LOADER_WORKERS_MAX and the ring's
 * room.  Returns 0 (running), or -errno: work synchronously then.
 */
static int start_workers(struct loader *l, struct readahead *ra, struct piece_worker *pw)
{
	size_t bb = (size_t)l->img.meta.block_pages * l->ps;
	size_t slot = bb > WORKER_SLOT_BYTES ? bb : WORKER_SLOT_BYTES;
	uint32_t n = l->max_workers ? l->max_workers : usable_cpus() + 1;

	if (n > LOADER_WORKERS_MAX)
		n = LOADER_WORKERS_MAX;
	if (n > WORKER_RING_BYTES / (WORKER_SLOTS * slot))
		n = (uint32_t)(WORKER_RING_BYTES / (WORKER_SLOTS * slot));
	if (n == 0)
		return -EFBIG;
	memset(pw, 0, sizeof(*pw));
	pw->l = l;
	pw->stored_cap = piece_stored_cap(l, slot);
	ra->do_fork = l->fork_reader;
	return readahead_start(ra, n, WORKER_SLOTS, slot, l->dev_fd, fill_piece, pw);
}

/**
 * loader_feed() - verify every block and write the stream to /dev/snapshot
 * @snap_fd: /dev/snapshot opened O_WRONLY
 *
 * Reads, checks and decodes in worker processes when they can be started,
 * else in this process; either way they are killed and reaped before this
 * returns.  Every block's hash is checked before it is decoded, and no page
 * of a block reaches the kernel before that.
 * Return: 0 when the kernel took the whole image; -errno with l->failed set.
 */
int loader_feed(struct loader *l, int snap_fd)
{
	size_t bb = (size_t)l->img.meta.block_pages * l->ps;
	struct readahead ra = { 0 };
	struct piece_worker pw;
	size_t raw_bytes;
	uint8_t *raw;
	int r;

	l->workers = l->readahead_slots = 0;
	l->worker_buffer = 0;
	/*
	 * Fork first, then allocate: mlockall(MCL_FUTURE) has faulted in every new
	 * mapping, and a page the parent writes after the fork would be copied.
	 */
	if (start_workers(l, &ra, &pw) == 0) {
		l->workers = ra.nr_workers;
		l->readahead_slots = ra.nr_slots;
		l->worker_buffer = pw.stored_cap;
		l->reader_pid = ra.pid[0];
	}
	/* the synchronous path's block, and the drain's zero page */
	raw_bytes = l->workers ? l->ps : bb;
	raw = blkio_alloc(raw_bytes);
	if (!raw)
		r = FAIL(l, "memory for reading blocks", -ENOMEM);
	else if (l->workers)
		r = feed_workers(l, &ra, snap_fd);
	else
		r = feed_sync(l, snap_fd, raw);
	readahead_stop(&ra);
	l->reader_pid = 0;
	if (r == 0)
		r = drain(l, snap_fd, raw);
	blkio_free(raw, raw_bytes);
	return r;
}
