// SPDX-License-Identifier: GPL-2.0-only
/*
 * writer.c - the image writer (see writer.h for the pipeline)
 *
 * Ordering is the data-safety rule: data blocks first, then the meta blob,
 * fdatasync(), and only then the root record in the swap header page, then
 * fdatasync() again.  Until the root lands the area still says SWAPSPACE2,
 * so a crash at any earlier moment leaves plain swap behind.
 *
 * Everything here runs after CREATE_IMAGE: no mounted filesystem is touched,
 * only the snapshot device and the resume block device opened beforehand.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "blkio.h"
#include "hash.h"
#include "monoclock.h"
#include "pageiov.h"
#include "snapshot.h"
#include "taskwait.h"
#include "writer.h"

#define READ_IOV	256	/* pages per readv() */


/**
 * writer_block_pages() - pages per block on a machine with @mem_bytes of memory
 *
 * The smallest power of two from TORPOR_BLOCK_PAGES up whose block table, for
 * a stream as large as memory, fits TORPOR_BLOCKS_MAX: 256 KiB blocks up to
 * 64 GiB, 4 MiB blocks at 1 TiB.  The tables then stay a few MiB.
 * Return: pages per block, or 0 when no block size up to TORPOR_BLOCK_BYTES_MAX fits.
 */
uint32_t writer_block_pages(uint64_t mem_bytes, uint32_t page_size)
{
	uint64_t bb;
	uint32_t bp;

	for (bp = TORPOR_BLOCK_PAGES; (bb = (uint64_t)bp * page_size) <= TORPOR_BLOCK_BYTES_MAX;
	     bp *= 2)
		if (mem_bytes / bb + 2 <= TORPOR_BLOCKS_MAX)
			return bp;
	return 0;
}

/**
 * writer_init() - allocate everything the write needs, before anything is frozen
 * @dev_fd: resume device, @header_offset: byte offset of the swap header page
 * @mem_bytes: RAM size, bounds the block table (the stream is never larger)
 *
 * Every table has its final size here (nothing grows after the freeze): the
 * block table for @mem_bytes, TORPOR_EXTENTS_MAX data extents, and a meta
 * buffer for all of them with TORPOR_FS_MAX filesystems.
 * Return: 0, -EFBIG when @mem_bytes is beyond what the format can describe, or -ENOMEM.
 */
int writer_init(struct writer *w, int dev_fd, uint64_t header_offset, uint32_t page_size,
		uint64_t mem_bytes)
{
	struct pack_setting lz4 = { PACK_LZ4, 1 };

	memset(w, 0, sizeof(*w));
	w->snap_fd = -1;
	w->dev_fd = dev_fd;
	w->ps = page_size;
	w->header_offset = header_offset;
	w->alloc_slot = snap_alloc_swap_page;
	w->block_pages = writer_block_pages(mem_bytes, page_size);
	if (!w->block_pages)
		return -EFBIG;
	w->raw_cap = (size_t)w->block_pages * page_size;
	w->blocks_cap = (uint32_t)(mem_bytes / w->raw_cap + 2);
	w->ext_cap = TORPOR_EXTENTS_MAX;
	w->meta_cap = image_meta_bytes(w->ext_cap, w->blocks_cap, TORPOR_FS_MAX);
	w->meta_cap = (w->meta_cap + page_size - 1) / page_size * page_size;
	w->header_page = blkio_alloc(page_size);
	w->meta_buf = blkio_alloc(w->meta_cap);
	w->meta_off = blkio_alloc(w->meta_cap / page_size * sizeof(*w->meta_off));
	w->img.blocks = calloc(w->blocks_cap, sizeof(*w->img.blocks));
	w->img.extents = calloc(w->ext_cap, sizeof(*w->img.extents));
	w->img.fs = calloc(1, sizeof(*w->img.fs));
	if (!w->header_page || !w->meta_buf || !w->meta_off || !w->img.blocks ||
	    !w->img.extents || !w->img.fs ||
	    flusher_init(&w->fl, dev_fd, w->raw_cap > FLUSH_BUF_BYTES ? w->raw_cap : FLUSH_BUF_BYTES,
			 page_size, 1) < 0 ||
	    writer_setup_pack(w, &lz4, 0) < 0) {
		writer_release(w);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Blocks a batch of the flusher holds at most: as many as fill it when none
 * compresses; two batches' worth of jobs are held (one filling, one being written).
 */
static unsigned batch_jobs(const struct writer *w)
{
	return (unsigned)(w->fl.cap / w->raw_cap);
}

/**
 * writer_setup_pack() - compression setting and pack workers, before the freeze
 * @threads: workers, 0 to pack on the writer's thread, at most PACK_THREADS_MAX
 * writer_init() set up LZ4 with no workers; this replaces it.
 * Return: 0; -EINVAL or -ENOMEM, and then the writer packs with LZ4 on its own
 * thread (writer_save() says -ENOMEM if even that could not be allocated).
 */
int writer_setup_pack(struct writer *w, const struct pack_setting *s, unsigned threads)
{
	int r;

	struct pack_setting lz4 = { PACK_LZ4, 1 };

	pack_pool_free(&w->pool);
	r = pack_pool_init(&w->pool, s, threads, w->raw_cap, w->ps, 2 * batch_jobs(w));
	if (r < 0) {
		if (pack_pool_init(&w->pool, &lz4, 0, w->raw_cap, w->ps, 2 * batch_jobs(w)) == 0) {
			w->pack = lz4;
			w->threads = 0;
		}
		return r;
	}
	w->pack = *s;
	w->threads = threads;
	return 0;
}

/* Bytes of buffers and tables writer_init() allocated (what the write holds locked). */
size_t writer_buffer_bytes(const struct writer *w)
{
	return w->ps + w->meta_cap + w->meta_cap / w->ps * sizeof(*w->meta_off) +
	       pack_pool_bytes(&w->pool) + flusher_bytes(&w->fl) +
	       (size_t)w->blocks_cap * sizeof(struct torpor_block) +
	       (size_t)w->ext_cap * sizeof(struct torpor_extent) + sizeof(struct torpor_fsrec);
}

/* fdatasync(), again when a signal interrupts it */
static int sync_dev(int fd)
{
	while (fdatasync(fd) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/**
 * writer_check_header() - read the swap header page and remember it
 * @ret_orig_sig: the signature to put back when the image is consumed
 *
 * An old image of ours found there (one nobody consumed) is invalidated on
 * the disk at once when @invalidate is set (not for --check, which changes
 * nothing).
 *
 * Return: WRITER_HEADER_SWAP (0), with @ret_orig_sig; WRITER_HEADER_NOT_SWAP
 * when the page is not a swap header (or carries another tool's hibernation
 * image); WRITER_HEADER_BAD_PAGES when its bad-page list would run under the
 * root record; -errno on I/O errors.
 */
int writer_check_header(struct writer *w, char ret_orig_sig[10], int invalidate)
{
	struct torpor_root root;
	uint32_t nr_bad;
	int r;

	r = blkio_pread(w->dev_fd, w->header_page, w->ps, w->header_offset);
	if (r < 0)
		return r;
	switch (image_classify(w->header_page, w->ps)) {
	case IMAGE_SIG_SWAP:
		/* mkswap -c's bad-page list runs from 1536: past 128 entries, into our root */
		memcpy(&nr_bad, w->header_page + 1032, sizeof(nr_bad));
		if (nr_bad > (TORPOR_ROOT_OFFSET - 1536) / 4)
			return WRITER_HEADER_BAD_PAGES;
		memcpy(ret_orig_sig, w->header_page + w->ps - TORPOR_SIG_LEN, 10);
		return WRITER_HEADER_SWAP;
	case IMAGE_SIG_TORPOR:
		/*
		 * an old image of ours that nobody consumed: replace it.  The page kept
		 * is cleaned of it, so that no failure path writes its root back
		 */
		if (image_root_decode(w->header_page, w->ps, &root) == 0 &&
		    (!memcmp(root.orig_sig, SWAP_SIG, 10) || !memcmp(root.orig_sig, SWAP_SIG_OLD, 10)))
			memcpy(ret_orig_sig, root.orig_sig, 10);
		else
			memcpy(ret_orig_sig, SWAP_SIG, 10);
		memset(w->header_page + TORPOR_ROOT_OFFSET, 0, sizeof(struct torpor_root));
		memcpy(w->header_page + w->ps - TORPOR_SIG_LEN, ret_orig_sig, TORPOR_SIG_LEN);
		/*
		 * and off the disk now, before anything is frozen: its pages have been
		 * swap since, and a hibernation that stops before its own commit must
		 * not leave that root for a later boot to find
		 */
		if (!invalidate)
			return WRITER_HEADER_SWAP;
		r = blkio_pwrite(w->dev_fd, w->header_page, w->ps, w->header_offset);
		return r < 0 ? r : sync_dev(w->dev_fd);
	default:
		return WRITER_HEADER_NOT_SWAP;
	}
}

/*
 * Append a run of pages at device offset @off to an extent table of @cap
 * entries; -E2BIG when it is full (tables never grow after the freeze).
 */
static int add_extent(struct torpor_extent *tab, uint32_t *n, uint32_t cap, uint64_t off,
		      uint32_t pages, uint32_t ps)
{
	struct torpor_extent *e;

	if (*n && tab[*n - 1].offset + (uint64_t)tab[*n - 1].pages * ps == off &&
	    tab[*n - 1].pages <= UINT32_MAX - pages) {
		tab[*n - 1].pages += pages;
		return 0;
	}
	if (*n == cap)
		return -E2BIG;
	e = &tab[(*n)++];
	e->offset = off;
	e->pages = pages;
	e->reserved = 0;
	return 0;
}

/*
 * Allocate a swap slot for each of @pages pages into @off (no memory is
 * allocated: this runs after the snapshot) and record them, in order, as
 * extents of @tab.
 */
static int alloc_slots(struct writer *w, uint64_t *off, size_t pages, struct torpor_extent *tab,
		       uint32_t *n, uint32_t cap)
{
	size_t i;
	int r;

	for (i = 0; i < pages; i++) {
		r = w->alloc_slot(w->snap_fd, &off[i]);
		if (r < 0)
			return r;
		w->slots++;
		r = add_extent(tab, n, cap, off[i], 1, w->ps);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * Stage 1: one block of the stream.  /dev/snapshot gives one page per read();
 * readv() asks for many in one system call (the kernel calls its read once per
 * iovec and stops at the first short one).  A partial page is an error.
 */
static int read_block(struct writer *w, uint8_t *raw, size_t len)
{
	struct iovec iov[READ_IOV];
	size_t off = 0;
	ssize_t n;
	int cnt;

	while (off < len) {
		cnt = pageiov_fill(iov, READ_IOV, raw, off, len, w->ps);
		n = readv(w->snap_fd, iov, cnt);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0 || n % w->ps)
			return -EIO;	/* the stream ended early, or a partial page */
		off += (size_t)n;
	}
	return 0;
}

/* The jobs of the batches the flusher has written are free again. */
static void release_written(struct writer *w)
{
	uint64_t n = flusher_jobs_written(&w->fl);

	pack_pool_release(&w->pool, (unsigned)(n - w->jobs_released));
	w->jobs_released = n;
}

/* Stage 3: the batch gets its slots and goes to the flusher. */
static int flush_out(struct writer *w)
{
	struct torpor_meta *m = &w->img.meta;
	struct flush_buf *b = flusher_current(&w->fl);
	size_t pages = b->fill / w->ps;
	int r;

	uint64_t t0 = mono_ns(), t1;

	if (!pages)
		return 0;
	r = alloc_slots(w, b->off, pages, w->img.extents, &m->nr_extents, w->ext_cap);
	t1 = mono_ns();
	w->t_alloc += t1 - t0;
	if (r < 0)
		return r;
	m->data_pages += pages;
	r = flusher_submit(&w->fl);
	w->t_wait_write += mono_ns() - t1;
	release_written(w);
	return r;
}

/*
 * A packed block, the oldest in flight, joins the batch (where its pages are;
 * they stay in the job until written) and the block table.
 */
static int stage_block(struct writer *w, struct pack_job *j)
{
	struct torpor_block *b = &w->img.blocks[w->consumed / w->raw_cap];
	struct flush_buf *fb = flusher_current(&w->fl);
	size_t i, first;
	uint64_t t0;
	int r;

	if (w->fl.cap - fb->fill < j->padded || fb->jobs == batch_jobs(w)) {
		r = flush_out(w);
		if (r < 0)
			return r;
		fb = flusher_current(&w->fl);
	}
	t0 = mono_ns();
	first = fb->fill / w->ps;
	for (i = 0; i < j->padded / w->ps; i++)
		fb->src[first + i] = j->out + i * w->ps;
	fb->jobs++;
	w->t_copy += mono_ns() - t0;
	fb->fill += j->padded;
	b->stored_len = j->stored_len;
	b->flags = j->flags;
	b->hash = j->hash;
	w->img.meta.stored_bytes += j->stored_len;
	w->consumed += j->len;
	return 0;
}

/* Read blocks into free jobs and submit them, while there are both; *@read advances. */
static int fill_jobs(struct writer *w, uint64_t *read_bytes, uint64_t stream_bytes)
{
	struct pack_job *j;
	uint64_t bb = w->raw_cap, t0;
	int r;

	while (*read_bytes < stream_bytes && (j = pack_pool_get(&w->pool))) {
		if (w->poll && w->poll(*read_bytes, stream_bytes))
			return -ECANCELED;
		j->len = stream_bytes - *read_bytes < bb ? stream_bytes - *read_bytes : bb;
		t0 = mono_ns();
		r = read_block(w, j->raw, j->len);
		w->t_read += mono_ns() - t0;
		if (r < 0)
			return r;
		pack_pool_submit(&w->pool, j);
		*read_bytes += j->len;
	}
	return 0;
}

/* Start the threads (after CREATE_IMAGE only); without them everything runs here. */
static void start_threads(struct writer *w)
{
	(void)pack_pool_start(&w->pool);
	(void)flusher_start(&w->fl);
}

/* Join them, and see them released by the kernel; the first write error, or 0. */
static int stop_threads(struct writer *w)
{
	unsigned i;
	int r;

	unsigned n = w->pool.nr_threads;

	(void)pack_pool_stop(&w->pool);
	/* read after the join: the workers wrote them */
	for (i = 0, w->threads_used = 0; i < n; i++)
		w->threads_used += w->pool.workers[i].packed > 0;
	for (i = 0, w->t_pack = 0; i < w->pool.nr_workers; i++)
		w->t_pack += w->pool.workers[i].busy_ns;
	r = flusher_stop(&w->fl);
	w->t_write = w->fl.write_ns;
	w->lingering = w->pool.lingering + (unsigned)w->fl.lingering;
	return r;
}

/**
 * writer_save() - stream the snapshot into the swap area (data and meta, not the root)
 * @snap_fd: /dev/snapshot after CREATE_IMAGE returned 1
 * @stream_bytes: from SNAPSHOT_GET_IMAGE_SIZE
 *
 * The caller fills w->img.meta's identity fields (release, mem_pages, ...)
 * beforehand.  The pack workers and the flusher run only inside this call.
 * Return: 0; -ENOSPC when the swap area is full (w->consumed and
 * meta.stored_bytes say how far it got); -E2BIG when the image needs more
 * extents than the tables hold; -ECANCELED when w->poll said stop; -errno.
 */
int writer_save(struct writer *w, int snap_fd, uint64_t stream_bytes)
{
	struct torpor_meta *m = &w->img.meta;
	uint64_t read_bytes = 0, step = stream_bytes / 100 + 1, next_step = step, t0;
	struct pack_job *j;
	int r, r2;

	w->snap_fd = snap_fd;
	m->page_size = w->ps;
	m->algorithm = TORPOR_ALG_LZ4;
	m->block_pages = w->block_pages;
	m->stream_bytes = stream_bytes;
	m->nr_blocks = (uint32_t)((stream_bytes + w->raw_cap - 1) / w->raw_cap);
	if (m->nr_blocks > w->blocks_cap)
		return -EFBIG;
	if (!w->pool.nr_jobs)
		return -ENOMEM;
	start_threads(w);
	if (w->progress)
		w->progress(0, stream_bytes);
	for (;;) {
		r = fill_jobs(w, &read_bytes, stream_bytes);
		if (r < 0)
			break;
		t0 = mono_ns();
		j = pack_pool_collect(&w->pool);
		w->t_wait_pack += mono_ns() - t0;
		if (!j) {
			if (read_bytes == stream_bytes)
				break;
			/*
			 * nothing in flight and no job free: all are held by the two
			 * batches (it cannot happen with 2 batches' worth of jobs held,
			 * but never loop): write both, which frees their jobs
			 */
			r = flush_out(w);
			if (r == 0)
				r = flusher_drain(&w->fl);
			release_written(w);
			if (r < 0)
				break;
			continue;
		}
		r = stage_block(w, j);
		pack_pool_put(&w->pool, j);
		if (r < 0)
			break;
		/* the steps are rounded up: the last one may lie past the end */
		if (w->progress && (w->consumed >= next_step || w->consumed == stream_bytes)) {
			w->progress(w->consumed, stream_bytes);
			next_step += step;
		}
	}
	if (r == 0 && w->consumed != stream_bytes)
		r = -EIO;	/* cannot happen: every block read was staged */
	if (r == 0)
		r = flush_out(w);
	t0 = mono_ns();
	if (r == 0)
		r = flusher_drain(&w->fl);
	w->t_wait_write += mono_ns() - t0;
	/* what the batch being filled held: stopping empties it (writer_estimate_bytes) */
	w->staged = flusher_current(&w->fl)->fill;
	r2 = stop_threads(w);
	w->jobs_released = 0;
	return r < 0 ? r : r2;
}

/* The meta blob goes into its own slots; the root will point at them. */
static int write_meta(struct writer *w, struct torpor_root *root)
{
	struct torpor_meta *m = &w->img.meta;
	size_t bytes = image_meta_bytes(m->nr_extents, m->nr_blocks, m->nr_fs);
	size_t padded = (bytes + w->ps - 1) / w->ps * w->ps;
	uint32_t n = 0;
	int r;

	if (m->nr_fs > TORPOR_FS_MAX || padded > w->meta_cap)
		return -E2BIG;
	r = image_meta_encode(&w->img, w->meta_buf, bytes);
	if (r < 0)
		return r;
	memset(w->meta_buf + bytes, 0, padded - bytes);
	/* the root names at most TORPOR_ROOT_EXTENTS runs: -E2BIG past that */
	r = alloc_slots(w, w->meta_off, padded / w->ps, root->meta_extents, &n,
			TORPOR_ROOT_EXTENTS);
	if (r == 0)
		r = flusher_write_runs(w->dev_fd, w->meta_buf, w->meta_off, padded / w->ps, w->ps);
	if (r < 0)
		return r;
	root->meta_bytes = bytes;
	root->meta_hash = hash64(w->meta_buf, bytes);
	root->nr_meta_extents = n;
	return 0;
}

/**
 * writer_commit() - write the meta blob, flush, then the root record: the commit
 * @orig_sig: the swap signature the root records for restoring
 * Return: 0; -ECANCELED when w->before_root said stop (the root is not
 * written); -errno.  On failure the caller runs writer_abort().
 */
int writer_commit(struct writer *w, const char orig_sig[10])
{
	struct torpor_root root;
	uint8_t *page;
	int r;

	memset(&root, 0, sizeof(root));
	root.version = TORPOR_FORMAT_VERSION;
	root.page_size = w->ps;
	memcpy(root.orig_sig, orig_sig, 10);
	uint64_t t0 = mono_ns(), t1;

	w->t_sync = 0;
	r = write_meta(w, &root);
	if (r < 0)
		return r;
	/* data and meta must be on stable storage before the root says they exist */
	t1 = mono_ns();
	r = sync_dev(w->dev_fd);
	w->t_sync += mono_ns() - t1;
	if (r < 0)
		return r;
	page = blkio_alloc(w->ps);
	if (!page)
		return -ENOMEM;
	if (w->before_root && w->before_root()) {
		blkio_free(page, w->ps);
		return -ECANCELED;
	}
	memcpy(page, w->header_page, w->ps);
	image_root_encode(&root, page, w->ps);
	w->header_written = 1;
	r = blkio_pwrite(w->dev_fd, page, w->ps, w->header_offset);
	t1 = mono_ns();
	if (r == 0)
		r = sync_dev(w->dev_fd);
	w->t_sync += mono_ns() - t1;
	blkio_free(page, w->ps);
	w->t_commit = mono_ns() - t0;
	return r;
}

/**
 * writer_estimate_bytes() - swap space the whole image would take, after -ENOSPC
 * What was written so far (page-padded blocks, staged ones too), scaled by the
 * share of the stream that was read; the stream's size before anything was read.
 */
uint64_t writer_estimate_bytes(const struct writer *w)
{
	uint64_t done = w->img.meta.data_pages * w->ps + w->staged;
	uint64_t stream = w->img.meta.stream_bytes;

	if (!w->consumed)
		return stream;
	return (uint64_t)((double)done * ((double)stream / (double)w->consumed));
}

/**
 * writer_abort() - undo a failed write: the header page goes back as it was
 * (only if we may have touched it) and the swap slots are returned.
 * Return: 0 or the first -errno (the caller says the area may need mkswap).
 */
int writer_abort(struct writer *w)
{
	int r = 0;

	if (w->header_written) {
		r = blkio_pwrite(w->dev_fd, w->header_page, w->ps, w->header_offset);
		if (r == 0)
			r = sync_dev(w->dev_fd);
		if (r == 0)
			w->header_written = 0;
	}
	if (w->snap_fd >= 0 && w->slots)
		(void)snap_free_swap_pages(w->snap_fd);
	w->slots = 0;
	return r;
}

/**
 * writer_forget_image() - make the header page writer_abort() puts back a plain
 * swap header: the root record area cleared and @orig_sig at the signature, so
 * that neither this image nor an older one of ours that was in the page can be
 * seen as valid again.  Call it before writer_abort() when a committed image
 * is to be discarded (a wake-up from suspend to RAM).
 */
void writer_forget_image(struct writer *w, const char orig_sig[10])
{
	memset(w->header_page + TORPOR_ROOT_OFFSET, 0, sizeof(struct torpor_root));
	memcpy(w->header_page + w->ps - TORPOR_SIG_LEN, orig_sig, TORPOR_SIG_LEN);
	w->header_written = 1;
}

/* Free the buffers (not the fds, which belong to the caller). */
void writer_release(struct writer *w)
{
	blkio_free(w->header_page, w->ps);
	blkio_free(w->meta_buf, w->meta_cap);
	if (w->ps)
		blkio_free(w->meta_off, w->meta_cap / w->ps * sizeof(*w->meta_off));
	pack_pool_free(&w->pool);
	if (w->fl.ps)
		flusher_free(&w->fl);
	image_free(&w->img);
	w->header_page = w->meta_buf = NULL;
	w->meta_off = NULL;
}
