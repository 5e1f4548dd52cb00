// SPDX-License-Identifier: GPL-2.0-only
/*
 * loader.c - everything torpor-resume reads from disk, checked before use
 *
 * Order of trust: the root record (magic, CRC-32, version, page size), then
 * the meta extents against the device, then the meta blob's hash, then every
 * table inside it (image_meta_decode), all before the image is invalidated and
 * before the first byte goes to /dev/snapshot.  Data blocks are verified one
 * at a time, the hash of their stored bytes before they are decoded, each
 * before any of its pages is fed: a bad block aborts the load, and closing
 * /dev/snapshot then drops everything the kernel had taken.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "hash.h"
#include "loader.h"
#include "lz4dec.h"

#define FAIL(l, what, err) ((l)->failed = (what), (err))

/**
 * loader_init() - set up reading from @dev_fd
 * Return: 0, -ENOMEM, or -ENOSPC when the header page lies beyond the device.
 */
int loader_init(struct loader *l, int dev_fd, uint64_t dev_bytes, uint64_t header_offset,
		uint32_t page_size)
{
	memset(l, 0, sizeof(*l));
	l->dev_fd = dev_fd;
	l->ps = page_size;
	l->dev_bytes = dev_bytes;
	l->header_offset = header_offset;
	l->write_page = write;
	if (header_offset > dev_bytes || dev_bytes - header_offset < page_size)
		return FAIL(l, "resume_offset lies beyond the end of the device", -ENOSPC);
	l->header_page = blkio_alloc(page_size);
	return l->header_page ? 0 : -ENOMEM;
}

/**
 * loader_read_root() - read the swap header page and decode our root record
 * Return: 0; -ENOENT when there is no torpor image (the normal boot case);
 * other -errno with l->failed set when there is one but it cannot be used.
 */
int loader_read_root(struct loader *l)
{
	int r;

	r = blkio_pread(l->dev_fd, l->header_page, l->ps, l->header_offset);
	if (r < 0)
		return FAIL(l, "reading the swap header page", r);
	l->header_read = 1;
	r = image_root_decode(l->header_page, l->ps, &l->img.root);
	switch (r) {
	case 0:
	case -ENOENT:
		return r;
	case -EPROTO:
		l->other_version = image_root_version(l->header_page, l->ps);
		return FAIL(l, "format version (written by another torpor version)", r);
	case -EMEDIUMTYPE:
		return FAIL(l, "page size (written by a kernel with another page size)", r);
	default:
		return FAIL(l, "header record (magic, checksum or fields damaged)", r);
	}
}

/* Read @pages whole pages of a table of extents, starting at logical page @first. */
static int read_extents(int fd, const struct torpor_extent *ext, uint32_t n, uint32_t ps,
			uint64_t first, uint64_t pages, uint8_t *buf)
{
	uint64_t skip = first, take;
	uint32_t i;
	int r;

	for (i = 0; i < n && pages; i++) {
		if (skip >= ext[i].pages) {
			skip -= ext[i].pages;
			continue;
		}
		take = ext[i].pages - skip;
		if (take > pages)
			take = pages;
		r = blkio_pread(fd, buf, take * ps, ext[i].offset + skip * ps);
		if (r < 0)
			return r;
		buf += take * ps;
		pages -= take;
		skip = 0;
	}
	return pages ? -EIO : 0;
}

/**
 * loader_read_meta() - read, checksum and decode the meta blob the root points at
 * Return: 0 or -errno with l->failed set.
 */
int loader_read_meta(struct loader *l)
{
	const struct torpor_root *root = &l->img.root;
	uint64_t pages, need;
	uint8_t *buf;
	size_t cap;
	int r;

	r = image_extents_check(root->meta_extents, root->nr_meta_extents, l->ps, l->dev_bytes,
				l->header_offset, &pages);
	if (r < 0)
		return FAIL(l, "meta extents (outside the device or overlapping)", r);
	need = (root->meta_bytes + l->ps - 1) / l->ps;
	if (pages != need)
		return FAIL(l, "meta extents (length does not match the header)", -EBADMSG);
	cap = (size_t)pages * l->ps;
	buf = blkio_alloc(cap);
	if (!buf)
		return FAIL(l, "memory for the image map", -ENOMEM);
	r = read_extents(l->dev_fd, root->meta_extents, root->nr_meta_extents, l->ps, 0, pages,
			 buf);
	if (r < 0) {
		r = FAIL(l, "reading the image map", r);
		goto out;
	}
	if (hash64(buf, root->meta_bytes) != root->meta_hash) {
		r = FAIL(l, "image map checksum", -EBADMSG);
		goto out;
	}
	r = image_meta_decode(buf, root->meta_bytes, l->dev_bytes, l->header_offset, &l->img);
	if (r == -EPROTO)
		r = FAIL(l, "image map version", r);
	else if (r < 0)
		r = FAIL(l, "image map (inconsistent sizes, counts or extents)", r);
	else if (l->img.meta.page_size != l->ps)
		r = FAIL(l, "image map page size", -EMEDIUMTYPE);
	else
		l->have_meta = 1;
out:
	blkio_free(buf, cap);
	return r;
}

/**
 * loader_invalidate() - put the original swap signature back, synchronously
 *
 * Done before the first page goes to the kernel: whatever happens next, this
 * image is never tried again (the kernel's swsusp_check does the same).  The
 * root record is cleared too, so nothing of it is left to mistake.
 * Only a header page that was read is written back: a page that could not be
 * read is not known, and writing zeroes there would destroy mkswap's header
 * (the swap area's UUID, its size) without knowing that an image was there.
 * Return: 0 or -errno; on failure the image must not be restored.
 */
int loader_invalidate(struct loader *l)
{
	const char *sig = l->img.root.orig_sig;
	int r;

	if (!l->header_read)
		return FAIL(l, "invalidating the image (the swap header page was not read)",
			    -ENODATA);
	if (memcmp(sig, SWAP_SIG, 10) && memcmp(sig, SWAP_SIG_OLD, 10))
		sig = SWAP_SIG;
	memset(l->header_page + TORPOR_ROOT_OFFSET, 0, sizeof(struct torpor_root));
	memcpy(l->header_page + l->ps - TORPOR_SIG_LEN, sig, 10);
	r = blkio_pwrite(l->dev_fd, l->header_page, l->ps, l->header_offset);
	if (r == 0 && fsync(l->dev_fd) < 0)
		r = -errno;
	return r < 0 ? FAIL(l, "invalidating the image (restoring the swap signature)", r) : 0;
}

/* Byte offset on the device where block @block's stored bytes begin (for --dump). */
uint64_t loader_block_offset(const struct loader *l, uint32_t block)
{
	const struct torpor_meta *m = &l->img.meta;
	uint64_t logical = 0, skip;
	uint32_t i;

	for (i = 0; i < block && i < m->nr_blocks; i++)
		logical += image_block_pages_stored(&l->img.blocks[i], l->ps);
	skip = logical;
	for (i = 0; i < m->nr_extents; i++) {
		if (skip < l->img.extents[i].pages)
			return l->img.extents[i].offset + skip * l->ps;
		skip -= l->img.extents[i].pages;
	}
	return 0;
}

/* Hand whole pages to the kernel; each write() must take exactly one page. */
static int feed_pages(struct loader *l, int snap_fd, const uint8_t *buf, size_t len)
{
	size_t off;
	ssize_t n;

	for (off = 0; off < len; off += l->ps) {
		n = l->write_page(snap_fd, buf + off, l->ps);
		if (n < 0 && errno == EINTR) {
			off -= l->ps;
			continue;
		}
		if (n < 0)
			return FAIL(l, "the kernel refused a page of the image", -errno);
		if ((size_t)n != l->ps)
			return FAIL(l, "the kernel wanted fewer pages than the image holds", -EFBIG);
		l->fed_bytes += l->ps;
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
	n = l->write_page(snap_fd, zero, l->ps);
	if (n < 0)
		return FAIL(l, "the kernel refused the end of the image", -errno);
	if (n != 0)
		return FAIL(l, "the image is shorter than the kernel expects", -ENODATA);
	return 0;
}

/*
 * A window of the data area: blocks are read in large sequential requests
 * (WINDOW_BYTES, or one stored block when that is larger), not one request
 * per block, and sliced from the window.
 *
 * Memory: the window (at most 4 MiB, or one stored 4 MiB block with its LZ4
 * bound), one raw block (at most TORPOR_BLOCK_BYTES_MAX) and the decoded tables
 * (at most 5.3 MiB, image.h) are all torpor-resume holds while feeding: under
 * 14 MiB with the largest image the format allows.  The meta blob's read buffer
 * (at most TORPOR_META_MAX) is freed before this.
 */
#define WINDOW_BYTES (4u << 20)

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
		r = read_extents(l->dev_fd, l->img.extents, l->img.meta.nr_extents, l->ps, first,
				 n, w->buf);
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

/* Get block @i's bytes from disk, check them, then unpack them into @raw. */
static int load_block(struct loader *l, struct window *w, uint32_t i, uint64_t logical,
		      uint8_t *raw, size_t raw_len, const uint8_t **ret)
{
	const struct torpor_block *b = &l->img.blocks[i];
	uint8_t *stored;
	ssize_t n;
	int r;

	l->failed_block = i;
	r = window_get(l, w, logical, image_block_pages_stored(b, l->ps), &stored);
	if (r < 0)
		return FAIL(l, "reading a data block", r);
	/* the bytes as written: the decoder never sees a block that was damaged */
	if (hash64(stored, b->stored_len) != b->hash)
		return FAIL(l, "data block checksum", -EBADMSG);
	if (b->flags & TORPOR_BLOCK_RAW) {
		*ret = stored;
		return 0;
	}
	n = lz4dec_block(stored, b->stored_len, raw, raw_len);
	if (n < 0 || (size_t)n != raw_len)
		return FAIL(l, "data block does not decompress", -EBADMSG);
	*ret = raw;
	return 0;
}

/**
 * loader_feed() - verify every block and write the stream to /dev/snapshot
 * @snap_fd: /dev/snapshot opened O_WRONLY
 * Return: 0 when the kernel took the whole image; -errno with l->failed set.
 */
int loader_feed(struct loader *l, int snap_fd)
{
	const struct torpor_meta *m = &l->img.meta;
	size_t bb = (size_t)m->block_pages * l->ps;
	size_t stored_cap = (bb + bb / 255 + 16 + l->ps - 1) / l->ps * l->ps;
	uint64_t logical = 0, step = m->stream_bytes / 10 + 1, next_step = step;
	struct window w = { NULL, stored_cap > WINDOW_BYTES ? stored_cap : WINDOW_BYTES, 0, 0 };
	uint8_t *raw;
	const uint8_t *data;
	uint32_t i;
	int r = 0;

	w.buf = blkio_alloc(w.cap);
	raw = blkio_alloc(bb);
	if (!w.buf || !raw) {
		r = FAIL(l, "memory for reading blocks", -ENOMEM);
		goto out;
	}
	for (i = 0; i < m->nr_blocks; i++) {
		size_t raw_len = (size_t)image_block_raw_bytes(m, i);

		r = load_block(l, &w, i, logical, raw, raw_len, &data);
		if (r == 0)
			r = feed_pages(l, snap_fd, data, raw_len);
		if (r < 0)
			goto out;
		logical += image_block_pages_stored(&l->img.blocks[i], l->ps);
		if (l->progress && l->fed_bytes >= next_step) {
			l->progress(l->fed_bytes, m->stream_bytes);
			next_step += step;
		}
	}
	r = drain(l, snap_fd, raw);
out:
	blkio_free(w.buf, w.cap);
	blkio_free(raw, bb);
	return r;
}

void loader_release(struct loader *l)
{
	blkio_free(l->header_page, l->ps);
	l->header_page = NULL;
	image_free(&l->img);
}
