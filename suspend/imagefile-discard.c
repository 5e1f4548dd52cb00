// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-discard.c - discard_after_resume: the image's pages forgotten after
 * the resume, discarded where a read back proves it, else overwritten with zeroes
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <stdint.h>
#include <unistd.h>

#include "decimal.h"
#include "devname.h"
#include "imagefile-activate.h"
#include "imagefile-discard.h"
#include "imagefile-layout.h"
#include "monoclock.h"
#include "msg.h"
#include "util.h"

#ifndef SWAP_FLAG_DISCARD_ONCE
#define SWAP_FLAG_DISCARD_ONCE	0x20000	/* discard the whole area at swapon: linux/swap.h */
#endif

int imagefile_discard_supported(const char *sys_dev_block, dev_t dev)
{
	char path[512], buf[32];
	unsigned long long v;
	struct stat st;
	ssize_t n;
	size_t len;
	int fd;

	/* a partition's queue is its disk's, one directory up */
	snprintf(path, sizeof(path), "%s/%u:%u/partition", sys_dev_block, major(dev),
		 minor(dev));
	if (stat(path, &st) == 0)
		snprintf(path, sizeof(path), "%s/%u:%u/../queue/discard_max_bytes",
			 sys_dev_block, major(dev), minor(dev));
	else
		snprintf(path, sizeof(path), "%s/%u:%u/queue/discard_max_bytes",
			 sys_dev_block, major(dev), minor(dev));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	len = (size_t)n;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	if (decimal_parse(buf, len, UINT64_MAX, &v) < 0)
		return -EINVAL;
	return v > 0;
}

int imagefile_zero(int fd, uint32_t ps, uint64_t bytes)
{
	static const size_t chunk = 1u << 20;
	uint64_t pos = ps, n;
	ssize_t w;
	void *buf;
	int r = 0, fl;

	/* O_DIRECT: gigabytes of zeroes need not go through the page cache */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && fcntl(fd, F_SETFL, fl | O_DIRECT) < 0)
		fl = -1;
	if (posix_memalign(&buf, 4096, chunk))
		return -ENOMEM;
	memset(buf, 0, chunk);
	while (pos < bytes) {
		n = bytes - pos < chunk ? bytes - pos : chunk;
		w = pwrite(fd, buf, (size_t)n, (off_t)pos);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EINVAL && fl >= 0) {
			/* no O_DIRECT for this size or filesystem: buffered then */
			(void)fcntl(fd, F_SETFL, fl);
			fl = -1;
			continue;
		}
		if (w <= 0) {
			r = w < 0 ? -errno : -EIO;
			break;
		}
		pos += (uint64_t)w;
	}
	free(buf);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl);
	if (r == 0 && fdatasync(fd) < 0)
		r = -errno;
	return r;
}

size_t imagefile_sample_pages(uint64_t pages, uint64_t *ret, size_t cap)
{
	uint64_t even = 0, pow = 2, next;
	size_t n = 0, i = 0;

	if (pages < 2)
		return 0;
	/* merge two ascending series: 1 + i * (pages - 2) / 63, and 2, 4, 8, ... */
	while (n < cap) {
		even = i < 64 ? 1 + i * (pages - 2) / 63 : UINT64_MAX;
		next = pow < pages - 1 && pow < even ? pow : even;
		if (next == UINT64_MAX)
			break;
		if (!n || ret[n - 1] != next)
			ret[n++] = next;
		if (next == pow)
			pow *= 2;
		else
			i++;
	}
	return n;
}

int imagefile_pages_zero(int fd, const uint64_t *offs, size_t n, uint32_t ps)
{
	uint64_t *w;
	size_t i, j;
	ssize_t got;
	void *page;
	int r = 1;

	if (posix_memalign(&page, 4096, ps))
		return -ENOMEM;
	w = page;
	for (i = 0; i < n && r == 1; i++) {
		while ((got = pread(fd, page, ps, (off_t)offs[i])) < 0 && errno == EINTR)
			;
		if (got < 0)
			r = -errno;
		else if ((size_t)got != ps)
			r = -EIO;
		for (j = 0; r == 1 && j < ps / sizeof(*w); j++)
			if (w[j])
				r = 0;
	}
	free(page);
	return r;
}

/* Every sampled page of @f's file, read from @f->dev_fd: 1 zeroes, 0 data, -errno */
static int verify_zero(const struct imagefile_forget *f)
{
	uint64_t pages[IMAGEFILE_SAMPLES_MAX];
	size_t n, i;
	int r;

	if (f->dev_fd < 0)
		return -ENODEV;
	n = imagefile_sample_pages(f->loc->bytes / f->ps, pages, IMAGEFILE_SAMPLES_MAX);
	for (i = 0; i < n; i++) {
		r = f->where(f->fd, pages[i] * f->ps, &pages[i]);
		if (r < 0)
			return r;
	}
	return imagefile_pages_zero(f->dev_fd, pages, n, f->ps);
}

/* Is the open file @fd still where @loc says (device, first page, inode)?  0, -ESTALE */
static int still_there(int fd, const struct imagefile_loc *loc)
{
	struct imagefile_loc now;
	int r = imagefile_locate_fd(fd, &now);

	if (r < 0)
		return r;
	if (now.dev != loc->dev || now.offset_pages != loc->offset_pages ||
	    now.st_dev != loc->st_dev || now.st_ino != loc->st_ino)
		return -ESTALE;
	return 0;
}

/* Zeroes over pages 1.. of @f's file, in place: -EBUSY (a shared extent), -ESTALE (moved) */
static int zero_in_place(const struct imagefile_forget *f)
{
	int r;

	r = imagefile_extents_shared(f->fd, f->loc->bytes);
	if (r > 0)
		return -EBUSY;
	r = r < 0 ? r : still_there(f->fd, f->loc);
	r = r < 0 ? r : imagefile_zero(f->fd, f->ps, f->loc->bytes);
	return r < 0 ? r : still_there(f->fd, f->loc);
}

int imagefile_forget(const struct imagefile_forget *f, struct imagefile_forgot *ret)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	if (f->discard) {
		r = f->discard(f->ctx);
		ret->discard_err = r < 0 ? r : 0;
		if (r == -EBUSY)
			return r;	/* the file stays active: no writing to it */
		if (r == 0) {
			ret->verify = verify_zero(f);
			if (ret->verify == 1) {
				ret->how = IMAGEFILE_DISCARDED;
				return 0;
			}
		}
	}
	r = zero_in_place(f);
	if (r < 0)
		return r;
	ret->how = f->discard ? IMAGEFILE_ZEROED_AFTER_DISCARD : IMAGEFILE_ZEROED;
	return 0;
}

struct discard_ctx {
	const char *kpath;		/* /proc/self/fd/N */
	const char *path;		/* for messages */
};

/*
 * The kernel's discard: swapon() with SWAP_FLAG_DISCARD_ONCE discards every
 * extent of the area but its header, through the very extent map the image was
 * written through; then swapoff().  0 or -errno (a swapoff failure reported).
 */
static int kernel_discard(void *ctx)
{
	const struct discard_ctx *c = ctx;

	if (swapon(c->kpath, SWAP_FLAG_DISCARD | SWAP_FLAG_DISCARD_ONCE) < 0)
		return -errno;
	return imagefile_deactivate(c->kpath, c->path) < 0 ? -EBUSY : 0;
}

/* Say how imagefile_forget() went, or why it failed with @r */
static void say_forgot(const char *path, const struct imagefile_loc *loc,
		       const struct imagefile_forgot *h, int r, double t0)
{
	if (h->discard_err && h->discard_err != -EBUSY)
		msg_warn("cannot discard image file '%s': swapon: %s; zeroing it instead",
			 path, msg_errname(h->discard_err));
	else if (!h->discard_err && h->how != IMAGEFILE_DISCARDED && h->verify == 0)
		msg_warn("the discard of image file '%s' left data in it (the device ignores "
			 "discards or does not read them back as zeroes): zeroing it instead",
			 path);
	else if (!h->discard_err && h->how != IMAGEFILE_DISCARDED && h->verify < 0)
		msg_warn("cannot read back image file '%s' after the discard (%s): zeroing it "
			 "instead", path, msg_errname(h->verify));
	if (r == -EBUSY && h->discard_err == -EBUSY)
		return;		/* the file stays active: deactivate() said so */
	if (r == -EBUSY) {
		msg_error("image file '%s' shares blocks with another file (a snapshot or a "
			  "copy): zeroing it would move it; the image's pages stay", path);
		msg_hint("delete the snapshot or copy, then make the file again with "
			 "'torpor-suspend --setup-image-file'");
	} else if (r == -ESTALE) {
		msg_error("image file '%s' is no longer where the image was written", path);
		msg_hint("run 'torpor-suspend --print-cmdline' and correct resume_offset=");
	} else if (r < 0) {
		msg_error("cannot zero image file '%s': %s; some of the image's pages stay",
			  path, msg_errname(r));
	} else if (h->how == IMAGEFILE_DISCARDED) {
		msg_info("discarded the image's pages in '%s' (%.1f s)", path, mono_s() - t0);
	} else {
		msg_info("zeroed the image's pages in '%s' (%llu MiB, %.1f s; the device does "
			 "not discard%s)", path, MIB(loc->bytes), mono_s() - t0,
			 h->how == IMAGEFILE_ZEROED ? "" : " reliably");
	}
}

int imagefile_forget_pages(const char *path, const char *kpath, int fd,
			   const struct imagefile_loc *loc)
{
	struct discard_ctx c = { kpath, path };
	struct imagefile_forget f;
	struct imagefile_forgot h;
	double t0 = mono_s();
	int r;

	memset(&f, 0, sizeof(f));
	f.fd = fd;
	f.loc = loc;
	f.ps = (uint32_t)sysconf(_SC_PAGESIZE);
	f.where = imagefile_where;
	f.ctx = &c;
	r = imagefile_discard_supported("/sys/dev/block", loc->dev);
	if (r > 0) {
		f.discard = kernel_discard;
		f.dev_fd = devname_open(loc->dev, O_RDONLY | O_DIRECT);
		if (f.dev_fd == -EINVAL)
			f.dev_fd = devname_open(loc->dev, O_RDONLY);
	} else {
		f.dev_fd = -1;
		if (r < 0)
			msg_debug("cannot tell whether %u:%u discards (%s): zeroing instead",
				  major(loc->dev), minor(loc->dev), msg_errname(r));
	}
	r = imagefile_forget(&f, &h);
	if (f.dev_fd >= 0)
		close(f.dev_fd);
	say_forgot(path, loc, &h, r, t0);
	return r;
}
