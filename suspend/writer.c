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
#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "hash.h"
#include "snapshot.h"
#include "writer.h"

#define OUT_BYTES	(8u << 20)	/* staging buffer: large sequential writes */

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
	w->out_cap = OUT_BYTES;
	w->blocks_cap = (uint32_t)(mem_bytes / w->raw_cap + 2);
	w->ext_cap = TORPOR_EXTENTS_MAX;
	w->meta_cap = image_meta_bytes(w->ext_cap, w->blocks_cap, TORPOR_FS_MAX);
	w->meta_cap = (w->meta_cap + page_size - 1) / page_size * page_size;
	w->header_page = blkio_alloc(page_size);
	w->raw = blkio_alloc(w->raw_cap);
	w->out = blkio_alloc(w->out_cap);
	w->meta_buf = blkio_alloc(w->meta_cap);
	w->img.blocks = calloc(w->blocks_cap, sizeof(*w->img.blocks));
	w->img.extents = calloc(w->ext_cap, sizeof(*w->img.extents));
	w->img.fs = calloc(1, sizeof(*w->img.fs));
	if (!w->header_page || !w->raw || !w->out || !w->meta_buf || !w->img.blocks ||
	    !w->img.extents || !w->img.fs) {
		writer_release(w);
		return -ENOMEM;
	}
	return 0;
}

/* Bytes of buffers and tables writer_init() allocated (what the write holds locked). */
size_t writer_buffer_bytes(const struct writer *w)
{
	return w->ps + w->raw_cap + w->out_cap + w->meta_cap +
	       (size_t)w->blocks_cap * sizeof(struct torpor_block) +
	       (size_t)w->ext_cap * sizeof(struct torpor_extent) + sizeof(struct torpor_fsrec);
}

/**
 * writer_check_header() - read the swap header page and remember it
 * @ret_orig_sig: the signature to put back when the image is consumed
 *
 * Return: 0; -EMEDIUMTYPE when the page is not a swap header (or carries
 * another tool's hibernation image); -E2BIG when its bad-page list would run
 * under the root record; -errno on I/O errors.
 */
int writer_check_header(struct writer *w, char ret_orig_sig[10])
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
			return -E2BIG;
		memcpy(ret_orig_sig, w->header_page + w->ps - TORPOR_SIG_LEN, 10);
		return 0;
	case IMAGE_SIG_TORPOR:
		/* an old image of ours that nobody consumed: replace it */
		if (image_root_decode(w->header_page, w->ps, &root) == 0)
			memcpy(ret_orig_sig, root.orig_sig, 10);
		else
			memcpy(ret_orig_sig, SWAP_SIG, 10);
		return 0;
	default:
		return -EMEDIUMTYPE;
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
 * Put @len bytes (whole pages) of @buf into freshly allocated swap slots, in
 * one write per run of contiguous slots, and record the runs as extents.
 */
static int place(struct writer *w, const uint8_t *buf, size_t len, struct torpor_extent *tab,
		 uint32_t *n, uint32_t cap)
{
	size_t pages = len / w->ps, i, start = 0;
	uint64_t *off = malloc((pages ? pages : 1) * sizeof(*off));
	int r = 0;

	if (!off)
		return -ENOMEM;
	for (i = 0; i < pages && r == 0; i++) {
		r = w->alloc_slot(w->snap_fd, &off[i]);
		if (r == 0)
			w->slots++;
	}
	for (i = 1; i <= pages && r == 0; i++) {
		if (i < pages && off[i] == off[i - 1] + w->ps)
			continue;
		r = blkio_pwrite(w->dev_fd, buf + start * w->ps, (i - start) * w->ps, off[start]);
		if (r == 0)
			r = add_extent(tab, n, cap, off[start], (uint32_t)(i - start), w->ps);
		start = i;
	}
	free(off);
	return r;
}

/* fdatasync(), again when a signal interrupts it */
static int sync_dev(int fd)
{
	while (fdatasync(fd) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* Stage 1: one block of the stream, one whole page per read() (kernel rule). */
static int read_block(struct writer *w, size_t len)
{
	size_t off;
	ssize_t n;

	for (off = 0; off < len; off += w->ps) {
		n = read(w->snap_fd, w->raw + off, w->ps);
		if (n < 0 && errno == EINTR) {
			off -= w->ps;
			continue;
		}
		if (n < 0)
			return -errno;
		if ((size_t)n != w->ps)
			return -EIO;	/* the stream ended early, or a partial page */
	}
	return 0;
}

/* Stage 2: compress one block into the staging buffer, page padded, and hash what is stored. */
static void pack_block(struct writer *w, struct torpor_block *b, size_t len)
{
	uint8_t *dst = w->out + w->out_fill;
	int room = (int)(w->out_cap - w->out_fill);
	int n;
	size_t padded;

	b->flags = 0;
	n = LZ4_compress_default((const char *)w->raw, (char *)dst, (int)len, room);
	if (n <= 0 || (size_t)n >= len) {
		memcpy(dst, w->raw, len);
		n = (int)len;
		b->flags = TORPOR_BLOCK_RAW;
	}
	b->stored_len = (uint32_t)n;
	b->hash = hash64(dst, (size_t)n);
	padded = ((size_t)n + w->ps - 1) / w->ps * w->ps;
	memset(dst + n, 0, padded - (size_t)n);
	w->out_fill += padded;
}

/* Stage 3: the staging buffer goes to disk. */
static int flush_out(struct writer *w)
{
	struct torpor_meta *m = &w->img.meta;
	int r;

	if (!w->out_fill)
		return 0;
	r = place(w, w->out, w->out_fill, w->img.extents, &m->nr_extents, w->ext_cap);
	if (r < 0)
		return r;
	m->data_pages += w->out_fill / w->ps;
	w->out_fill = 0;
	return 0;
}

/**
 * writer_save() - stream the snapshot into the swap area (data and meta, not the root)
 * @snap_fd: /dev/snapshot after CREATE_IMAGE returned 1
 * @stream_bytes: from SNAPSHOT_GET_IMAGE_SIZE
 *
 * The caller fills w->img.meta's identity fields (release, mem_pages, ...)
 * beforehand.  Return: 0; -ENOSPC when the swap area is full (w->consumed and
 * meta.stored_bytes say how far it got); -E2BIG when the meta blob needs more
 * extents than the root can name; -ECANCELED when w->poll said stop; -errno.
 */
int writer_save(struct writer *w, int snap_fd, uint64_t stream_bytes)
{
	struct torpor_meta *m = &w->img.meta;
	size_t bound = (size_t)LZ4_compressBound((int)w->raw_cap) + w->ps;
	uint64_t bb = w->raw_cap, step = stream_bytes / 10 + 1, next_step = step;
	size_t len;
	int r;

	w->snap_fd = snap_fd;
	m->page_size = w->ps;
	m->algorithm = TORPOR_ALG_LZ4;
	m->block_pages = w->block_pages;
	m->stream_bytes = stream_bytes;
	m->nr_blocks = (uint32_t)((stream_bytes + bb - 1) / bb);
	if (m->nr_blocks > w->blocks_cap)
		return -EFBIG;
	while (w->consumed < stream_bytes) {
		if (w->poll && w->poll(w->consumed, stream_bytes))
			return -ECANCELED;
		len = stream_bytes - w->consumed < bb ? stream_bytes - w->consumed : bb;
		r = read_block(w, len);
		if (r < 0)
			return r;
		if (w->out_cap - w->out_fill < bound) {
			r = flush_out(w);
			if (r < 0)
				return r;
		}
		pack_block(w, &w->img.blocks[w->consumed / bb], len);
		m->stored_bytes += w->img.blocks[w->consumed / bb].stored_len;
		w->consumed += len;
		if (w->progress && w->consumed >= next_step) {
			w->progress(w->consumed, stream_bytes);
			next_step += step;
		}
	}
	r = flush_out(w);
	if (r < 0)
		return r;
	return 0;
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
	/* the root names at most TORPOR_ROOT_EXTENTS runs: place() says -E2BIG past that */
	r = place(w, w->meta_buf, padded, root->meta_extents, &n, TORPOR_ROOT_EXTENTS);
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
	r = write_meta(w, &root);
	if (r < 0)
		return r;
	/* data and meta must be on stable storage before the root says they exist */
	r = sync_dev(w->dev_fd);
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
	if (r == 0)
		r = sync_dev(w->dev_fd);
	blkio_free(page, w->ps);
	return r;
}

/**
 * writer_estimate_bytes() - swap space the whole image would take, after -ENOSPC
 * What was written so far (page-padded blocks, staged ones too), scaled by the
 * share of the stream that was read; the stream's size before anything was read.
 */
uint64_t writer_estimate_bytes(const struct writer *w)
{
	uint64_t done = w->img.meta.data_pages * w->ps + w->out_fill;
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

/* Free the buffers (not the fds, which belong to the caller). */
void writer_release(struct writer *w)
{
	blkio_free(w->header_page, w->ps);
	blkio_free(w->raw, w->raw_cap);
	blkio_free(w->out, w->out_cap);
	blkio_free(w->meta_buf, w->meta_cap);
	image_free(&w->img);
	w->header_page = w->raw = w->out = w->meta_buf = NULL;
}
