// SPDX-License-Identifier: GPL-2.0-only
/*
 * fitcheck.c - the estimate of the swap space a hibernation takes (fitcheck.h)
 *
 * What the kernel does (kernel/power/snapshot.c, hibernate_preallocate_memory()
 * in SNAPSHOT_CREATE_IMAGE): the snapshot copies every saveable page, that is
 * every page not free, reserved ones (the kernel, its page tables, struct
 * pages) included.  It needs a free page for each copy, so it keeps at most
 * max_size, about half of what is in use or free.  When the saveable pages
 * number more than image_size (or max_size), it reclaims memory until they
 * do not, but never below what it cannot reclaim: the saveable pages minus
 * reclaimable slab, anonymous and file LRU pages (minimum_image_size()).
 * Reclaiming drops page cache (synced by then) at no cost to the swap area
 * and swaps anonymous pages out, uncompressed, possibly into the very area
 * the image goes to.  The image then holds what is left, in the stream that
 * SNAPSHOT_GET_IMAGE_SIZE gives: a header page, a page of PFNs for each 512
 * pages, the pages.  torpor compresses that stream block by block and adds
 * its map.
 *
 * The model, in words: everything in use goes into the image unless it is
 * more than image_size; then the kernel shrinks it to image_size or to what
 * cannot be reclaimed, whichever is more, dropping page cache and reclaimable
 * slab first and swapping out anonymous memory for the rest.  It reclaims the
 * cache first while there is much of it (the reclaim's cache-trim mode);
 * where it takes anonymous pages earlier, the late check while writing is
 * still there.  The compressed size is the sample's ratio applied to the
 * stream, the map counted at its largest.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "decimal.h"
#include "fitcheck.h"

enum {
	F_TOTAL = 1 << 0, F_FREE = 1 << 1, F_ACT_ANON = 1 << 2, F_INACT_ANON = 1 << 3,
	F_ACT_FILE = 1 << 4, F_INACT_FILE = 1 << 5, F_SRECL = 1 << 6,
	F_NEEDED = F_TOTAL | F_FREE | F_ACT_ANON | F_INACT_ANON | F_ACT_FILE | F_INACT_FILE,
};

static const struct {
	const char *key;
	unsigned bit;
} keys[] = {
	{ "MemTotal", F_TOTAL }, { "MemFree", F_FREE }, { "Active(anon)", F_ACT_ANON },
	{ "Inactive(anon)", F_INACT_ANON }, { "Active(file)", F_ACT_FILE },
	{ "Inactive(file)", F_INACT_FILE }, { "SReclaimable", F_SRECL },
};

/* "   1234 kB" (the end of a line, without its newline): bytes; -EINVAL otherwise */
static int parse_kib(const char *s, size_t len, uint64_t *ret)
{
	unsigned long long v;
	size_t i = 0, d;

	while (i < len && s[i] == ' ')
		i++;
	for (d = i; d < len && s[d] >= '0' && s[d] <= '9'; d++)
		;
	if (len - d != 3 || memcmp(s + d, " kB", 3))
		return -EINVAL;
	if (decimal_parse(s + i, d - i, UINT64_MAX >> 10, &v) < 0)
		return -EINVAL;
	*ret = (uint64_t)v << 10;
	return 0;
}

/**
 * fitcheck_parse_meminfo() - the fields of a /proc/meminfo text the estimate uses
 * Return: 0; -EINVAL when one of MemTotal, MemFree and the four LRU lines is
 * missing, malformed or given twice (SReclaimable may be missing: 0).
 */
int fitcheck_parse_meminfo(const char *text, struct fit_meminfo *ret)
{
	struct fit_meminfo m;
	const char *line = text, *end, *colon;
	unsigned seen = 0;
	uint64_t v[7] = { 0 };
	size_t i;

	while (*line) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		colon = memchr(line, ':', (size_t)(end - line));
		for (i = 0; colon && i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strlen(keys[i].key) != (size_t)(colon - line) ||
			    memcmp(line, keys[i].key, (size_t)(colon - line)))
				continue;
			if ((seen & keys[i].bit) ||
			    parse_kib(colon + 1, (size_t)(end - colon - 1), &v[i]) < 0)
				return -EINVAL;
			seen |= keys[i].bit;
		}
		line = *end ? end + 1 : end;
	}
	if ((seen & F_NEEDED) != F_NEEDED)
		return -EINVAL;
	m.total = v[0];
	m.free = v[1];
	m.anon = v[2] + v[3];
	m.file = v[4] + v[5];
	m.slab_reclaimable = v[6];
	*ret = m;
	return 0;
}

/**
 * fitcheck_read_meminfo() - fitcheck_parse_meminfo() of the file at @path
 * Return: 0, -errno, -EINVAL (as the parser), -EFBIG past 64 KiB.
 */
int fitcheck_read_meminfo(const char *path, struct fit_meminfo *ret)
{
	char buf[65536];
	size_t len = 0;
	ssize_t n;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < sizeof(buf) - 1) {
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (r == 0 && len == sizeof(buf) - 1)
		r = -EFBIG;
	if (r < 0)
		return r;
	buf[len] = '\0';
	return fitcheck_parse_meminfo(buf, ret);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t sub_sat(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* bytes rounded up to whole pages of @ps */
static uint64_t page_up(uint64_t bytes, uint64_t ps)
{
	return (bytes + ps - 1) / ps * ps;
}

/**
 * fitcheck_estimate() - the swap space a hibernation takes (see the model above)
 *
 * The margin is a sixteenth of the need and 4 MiB: memory still changes
 * between the estimate and the snapshot (programs run on; the filesystems'
 * sync), and a sample of a few MiB misjudges the ratio of the rest by a few
 * hundredths (in the QEMU tests 0.42 for 0.44, 0.35 for 0.36, 0.38 for 0.35).
 * Present memory less MemFree is a few per cent more than the kernel saves.
 */
void fitcheck_estimate(const struct fit_input *in, struct fit_estimate *ret)
{
	const struct fit_meminfo *m = &in->mem;
	uint64_t ps = in->page_size ? in->page_size : 4096;
	uint64_t present = in->present > m->total ? in->present : m->total;
	uint64_t free_now = sub_sat(m->free, in->extra);
	uint64_t saveable = sub_sat(present, m->free) + in->extra;
	uint64_t max_size = (saveable + free_now) / 2;
	uint64_t size = min_u64(in->image_size, max_size);
	uint64_t image = saveable, swapped = 0, floor, stream, stored;
	struct fit_estimate e;

	memset(&e, 0, sizeof(e));
	if (size < saveable) {
		/* the kernel's minimum_image_size(), bounded by max_size */
		floor = sub_sat(saveable, m->slab_reclaimable + m->anon + m->file);
		image = size > floor ? size : min_u64(floor, max_size);
		/* the cache goes first, for free; anonymous pages go to swap */
		swapped = min_u64(sub_sat(saveable - image, m->file + m->slab_reclaimable),
				  m->anon);
	}
	image = page_up(image, ps);
	/* the stream: a header page and a page of 8-byte PFNs for each ps / 8 pages */
	stream = ps + page_up(image / ps * 8, ps) + image;
	e.ratio_permille = 1000;
	stored = stream;
	if (in->sample_raw && in->sample_stored <= in->sample_raw) {
		stored = page_up((uint64_t)((double)stream * (double)in->sample_stored /
					    (double)in->sample_raw + 0.5), ps);
		e.ratio_permille = (uint32_t)(in->sample_stored * 1000 / in->sample_raw);
	}
	e.in_use = saveable;
	e.image = image;
	e.swapped = page_up(swapped, ps);
	e.stored = stored + page_up(in->map_bytes, ps);
	e.need = e.stored + e.swapped;
	e.margin = e.need / 16 + (4u << 20);
	*ret = e;
}

/**
 * fitcheck_fits() - does @e's need, with its margin, fit in @free_bytes?
 * Return: 1 or 0.
 */
int fitcheck_fits(const struct fit_estimate *e, uint64_t free_bytes)
{
	return e->need <= free_bytes && e->margin <= free_bytes - e->need;
}
