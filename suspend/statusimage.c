// SPDX-License-Identifier: GPL-2.0-only
/*
 * statusimage.c - torpor-suspend --status: what the swap area's header page
 * holds now, and of a torpor image its size, age and kernel (its root record
 * and map, checked as torpor-resume checks them: core/image.c)
 *
 * Everything here is read from the disk: untrusted.  The root record is
 * decoded by image_root_decode() (its CRC, bounds), the map's extents are
 * checked against the device before they are read, the map is at most
 * TORPOR_META_MAX bytes, its hash is checked before image_meta_decode() reads
 * it.  Nothing here writes or prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "deadline.h"
#include "devopen.h"
#include "hash.h"
#include "image.h"
#include "status.h"

/* The kernel's own writer (kernel/power/swap.c HIBERNATE_SIG) and uswsusp's */
static int kernel_signature(const uint8_t *page, size_t ps)
{
	const uint8_t *sig = page + ps - TORPOR_SIG_LEN;

	return !memcmp(sig, "S1SUSPEND", 10) || !memcmp(sig, "LINHIB0001", 10) ||
	       !memcmp(sig, "ULSUSPEND", 10);
}

/* The map the root points at, read, hash-checked and decoded into @img; 0 or -errno */
static int read_map(int fd, uint64_t dev_bytes, uint64_t header_offset, uint32_t ps,
		    struct torpor_image *img)
{
	const struct torpor_root *root = &img->root;
	uint64_t pages, at = 0;
	uint8_t *buf;
	uint32_t i;
	int r;

	r = image_extents_check(root->meta_extents, root->nr_meta_extents, ps, dev_bytes,
				header_offset, &pages);
	if (r < 0)
		return r;
	if (root->meta_bytes == 0 || root->meta_bytes > TORPOR_META_MAX ||
	    pages != (root->meta_bytes + ps - 1) / ps)
		return -EBADMSG;
	buf = malloc((size_t)pages * ps);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < root->nr_meta_extents && r == 0; i++) {
		r = blkio_pread(fd, buf + at, (size_t)root->meta_extents[i].pages * ps,
				root->meta_extents[i].offset);
		at += (uint64_t)root->meta_extents[i].pages * ps;
	}
	if (r == 0 && hash64(buf, root->meta_bytes) != root->meta_hash)
		r = -EBADMSG;
	if (r == 0)
		r = image_meta_decode(buf, root->meta_bytes, dev_bytes, header_offset, img);
	free(buf);
	return r;
}

/**
 * status_image_read() - what the header page at @header_offset of @fd holds
 * @fd: the resume device (or a copy of it), open for reading
 * @dev_bytes: its size
 * @header_offset: the swap header page's byte offset
 * @page_size: this kernel's page size
 * @ret: filled in, always
 */
void status_image_read(int fd, uint64_t dev_bytes, uint64_t header_offset, uint32_t page_size,
		       struct status_image_seen *ret)
{
	struct torpor_image img;
	uint8_t *page;
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->state = STATUS_IMAGE_UNREAD;
	page = malloc(page_size);
	if (!page) {
		ret->err = -ENOMEM;
		return;
	}
	r = header_offset > dev_bytes || dev_bytes - header_offset < page_size ? -ENOSPC :
	    blkio_pread(fd, page, page_size, header_offset);
	if (r < 0) {
		ret->err = r;
	} else if (image_classify(page, page_size) == IMAGE_SIG_SWAP) {
		ret->state = STATUS_IMAGE_NONE;
		ret->lost = image_lost_decode(page, page_size, &ret->note) == 0;
	} else if (kernel_signature(page, page_size)) {
		ret->state = STATUS_IMAGE_KERNEL;
	} else if (image_classify(page, page_size) != IMAGE_SIG_TORPOR) {
		ret->state = STATUS_IMAGE_OTHER;
	} else {
		memset(&img, 0, sizeof(img));
		ret->state = STATUS_IMAGE_DAMAGED;
		ret->version = image_root_version(page, page_size);
		r = image_root_decode(page, page_size, &img.root);
		if (r == 0)
			r = img.root.page_size == page_size ? 0 : -EMEDIUMTYPE;
		if (r == 0)
			r = read_map(fd, dev_bytes, header_offset, page_size, &img);
		ret->err = r;
		if (r == 0) {
			ret->state = STATUS_IMAGE_TORPOR;
			ret->bytes = img.meta.stored_bytes + img.root.meta_bytes;
			ret->created = img.meta.created;
			memcpy(ret->release, img.meta.release, sizeof(ret->release));
			ret->release[sizeof(ret->release) - 1] = '\0';
		}
		image_free(&img);
	}
	free(page);
}

/* What the reader process is asked: the area's device and header page */
struct area_question {
	dev_t dev;
	uint64_t offset_pages;
	uint32_t page_size;
};

int (*status_image_open)(dev_t dev, int flags) = devname_open;

/* deadline_worker fn: the area opened, its header page and map read, in the child */
static void read_in_child(const void *question, void *answer)
{
	const struct area_question *q = question;
	struct status_image_seen *ret = answer;
	unsigned long long bytes = 0;
	int fd, r;

	ret->state = STATUS_IMAGE_UNREAD;
	fd = status_image_open(q->dev, O_RDONLY);
	if (fd < 0) {
		ret->err = fd;
		return;
	}
	r = devname_size(fd, &bytes);
	if (r < 0 || q->offset_pages > bytes / q->page_size)
		ret->err = r < 0 ? r : -ENOSPC;
	else
		status_image_read(fd, bytes, q->offset_pages * q->page_size, q->page_size, ret);
	close(fd);
}

/**
 * status_image_read_dev() - status_image_read() of the area on @dev, within @ms
 * @dev: the resume device (a swap partition, or an image file's filesystem)
 * @offset_pages: the header page's page on it
 * @page_size: this kernel's page size
 * @ms: the bound: the device is opened and read in a child process, killed when
 *      it has not answered in time (a dead disk, a multipath map queueing I/O)
 * @ret: filled in, always; UNREAD with -ETIMEDOUT when it did not answer
 */
void status_image_read_dev(dev_t dev, uint64_t offset_pages, uint32_t page_size, unsigned int ms,
			   struct status_image_seen *ret)
{
	struct area_question q;
	struct deadline_worker w;
	pid_t left = 0;
	int r;

	memset(&q, 0, sizeof(q));
	q.dev = dev;
	q.offset_pages = offset_pages;
	q.page_size = page_size;
	memset(&w, 0, sizeof(w));
	w.fn = read_in_child;
	w.qlen = sizeof(q);
	w.alen = sizeof(*ret);
	r = deadline_ask(&w, &q, ret, ms, &left);
	if (r < 0) {
		memset(ret, 0, sizeof(*ret));
		ret->state = STATUS_IMAGE_UNREAD;
		ret->err = r;
	}
	deadline_stop(&w);
}
