// SPDX-License-Identifier: GPL-2.0-only
/*
 * loader.c - the image's header and map, read from the resume device and checked before use
 *
 * Order of trust: the root record (magic, CRC-32, version, page size), then
 * the meta extents against the device, then the meta blob's hash, then every
 * table inside it (image_meta_decode), all before the image is invalidated and
 * before the first byte goes to /dev/snapshot (loadfeed.c).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "hash.h"
#include "loader.h"

#define FAIL(l, what, err) ((l)->failed = (what), (err))

/*
 * /dev/snapshot takes one page per write; writev() hands it many in one system
 * call (the kernel loops over the iovecs, calling its write for each, and stops
 * at the first one it takes short or refuses).
 */
static ssize_t write_pages(int fd, const struct iovec *iov, int cnt)
{
	return writev(fd, iov, cnt);
}

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
	l->write_pages = write_pages;
	l->fork_reader = fork;
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
int loader_read_extents(int fd, const struct torpor_extent *ext, uint32_t n, uint32_t ps,
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
	r = loader_read_extents(l->dev_fd, root->meta_extents, root->nr_meta_extents, l->ps, 0,
				pages, buf);
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
 * root record is cleared too, so nothing of it is left to mistake; before a
 * restore, l->late's note takes its place (image.h, struct torpor_late).
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
	if (l->late)
		image_late_encode(l->late, l->header_page, l->ps);
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

void loader_release(struct loader *l)
{
	blkio_free(l->header_page, l->ps);
	l->header_page = NULL;
	image_free(&l->img);
}
