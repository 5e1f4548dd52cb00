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
 *
 * Where the swapped-out pages go: the kernel takes a slot in the active area
 * of the highest priority that has room, in turn among areas of equal
 * priority (/proc/swaps' Priority); only the image's own slots come from the
 * target, whatever its priority (SNAPSHOT_ALLOC_SWAP_PAGE).  So the target
 * takes what the areas ahead of it cannot, and its share of a turn.  zram
 * (priority 100 on Fedora, beside a disk area for hibernation) takes pages
 * up to its free size as /proc/swaps gives it, uncompressed, but keeps their
 * compressed copies in memory: a page frees only 1 - the sample's ratio, so
 * more pages go out, and the copies are in the image, counted there as
 * incompressible.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
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
 * fitcheck_set_areas() - the swap areas of @sw (swaps_read()) that the kernel
 * swaps out to before the one at @target_path, or in turn with it, into @in
 * Return: 0; -ENOENT when @target_path is not listed or has no priority: then
 * none is set, and every page swapped out counts as the target's.
 */
int fitcheck_set_areas(struct fit_input *in, const struct swap_entry *sw, size_t n,
		       const char *target_path)
{
	const struct swap_entry *t = NULL;
	struct fit_area *a;
	size_t i;

	in->nr_areas = 0;
	for (i = 0; i < n && !t; i++)
		if (!strcmp(sw[i].path, target_path))
			t = &sw[i];
	if (!t || !t->has_prio)
		return -ENOENT;
	in->target_prio = t->prio;
	for (i = 0; i < n && in->nr_areas < FIT_MAX_AREAS; i++) {
		if (&sw[i] == t || !sw[i].has_prio || sw[i].prio < t->prio ||
		    sw[i].used_kib >= sw[i].kib)
			continue;
		a = &in->areas[in->nr_areas++];
		a->free = sw[i].kib - sw[i].used_kib > UINT64_MAX >> 10 ? UINT64_MAX :
			  (uint64_t)(sw[i].kib - sw[i].used_kib) << 10;
		a->prio = sw[i].prio;
		a->in_memory = !strncmp(sw[i].path, "/dev/zram", 9);
	}
	return 0;
}

/* where the kernel's swap-out goes, in pages */
struct charge {
	uint64_t cap[FIT_MAX_AREAS];	/* room left in each of the input's areas */
	uint64_t rem;			/* memory still to free */
	uint64_t anon;			/* anonymous pages left to swap out */
	uint64_t swapped;		/* pages swapped out */
	uint64_t here;			/* of them, into the target */
	uint64_t pool;			/* zram's compressed copies of its pages */
};

/*
 * The areas of priority @prio, with the target when @with_target, take a page
 * each in turn until the memory is freed, the anonymous pages are all out, or
 * they are full (the target never is: what it cannot hold does not fit).  A
 * page freed by zram frees 1000 - @zcost permille of one.
 */
static void charge_group(const struct fit_input *in, int prio, int with_target, uint32_t zcost,
			 struct charge *c)
{
	uint64_t per_round, rounds, low, freed;
	size_t i, nr;

	while (c->rem && c->anon) {
		nr = with_target ? 1 : 0;
		per_round = with_target ? 1000 : 0;
		low = UINT64_MAX;
		for (i = 0; i < in->nr_areas; i++) {
			if (in->areas[i].prio != prio || !c->cap[i])
				continue;
			nr++;
			per_round += in->areas[i].in_memory ? 1000 - zcost : 1000;
			low = min_u64(low, c->cap[i]);
		}
		if (!nr)
			return;
		rounds = per_round ? (c->rem * 1000 + per_round - 1) / per_round : UINT64_MAX;
		rounds = min_u64(min_u64(rounds, low), c->anon / nr);
		if (!rounds) {
			/* fewer pages left than takers: say the target takes them */
			if (with_target) {
				c->here += c->anon;
				c->swapped += c->anon;
				c->rem = sub_sat(c->rem, c->anon);
			}
			c->anon = 0;
			return;
		}
		for (i = 0; i < in->nr_areas; i++) {
			if (in->areas[i].prio != prio || !c->cap[i])
				continue;
			c->cap[i] -= rounds;
			if (in->areas[i].in_memory)
				c->pool += (rounds * zcost + 999) / 1000;
		}
		if (with_target)
			c->here += rounds;
		freed = rounds * per_round / 1000;
		c->rem = sub_sat(c->rem, freed);
		c->anon -= rounds * nr;
		c->swapped += rounds * nr;
	}
}

/* the areas of priority above the target's, highest first */
static void charge_ahead(const struct fit_input *in, uint32_t zcost, struct charge *c)
{
	int prio, next, found;
	size_t i;

	for (prio = INT_MAX;; prio = next) {
		found = 0;
		next = INT_MIN;
		for (i = 0; i < in->nr_areas; i++) {
			if (in->areas[i].prio > in->target_prio && in->areas[i].prio < prio &&
			    in->areas[i].prio >= next) {
				next = in->areas[i].prio;
				found = 1;
			}
		}
		if (!found)
			return;
		charge_group(in, next, 0, zcost, c);
	}
}

/* @c from @rem pages to free and @anon anonymous pages */
static void charge_init(const struct fit_input *in, uint64_t rem, uint64_t anon, uint64_t ps,
			struct charge *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < in->nr_areas && i < FIT_MAX_AREAS; i++)
		c->cap[i] = in->areas[i].free / ps;
	c->rem = rem;
	c->anon = anon;
}

/* the sample's stored / raw in permille, rounded up; 1000 without one */
static uint32_t sample_cost(const struct fit_input *in)
{
	if (!in->sample_raw || in->sample_stored > in->sample_raw)
		return 1000;
	return (uint32_t)((in->sample_stored * 1000 + in->sample_raw - 1) / in->sample_raw);
}

/* the memory the snapshot saves now, and the most it keeps (@ret_max_size) */
static uint64_t saveable_of(const struct fit_input *in, uint64_t *ret_max_size)
{
	const struct fit_meminfo *m = &in->mem;
	uint64_t present = in->present > m->total ? in->present : m->total;
	uint64_t free_now = sub_sat(m->free, in->extra);
	uint64_t saveable = sub_sat(present, m->free) + in->extra;

	*ret_max_size = (saveable + free_now) / 2;
	return saveable;
}

/*
 * The snapshot stream of an @image bytes big (@pool of it zram's copies, as
 * they are), compressed at the sample's ratio, with the map at its largest
 */
static uint64_t stored_of(const struct fit_input *in, uint64_t image, uint64_t pool)
{
	uint64_t ps = in->page_size ? in->page_size : 4096;
	uint64_t stream, stored;

	image = page_up(image, ps);
	pool = min_u64(pool, image);
	/* the stream: a header page and a page of 8-byte PFNs for each ps / 8 pages */
	stream = ps + page_up(image / ps * 8, ps) + image;
	stored = stream;
	if (in->sample_raw && in->sample_stored <= in->sample_raw)
		stored = page_up((uint64_t)((double)(stream - pool) * (double)in->sample_stored /
					    (double)in->sample_raw + 0.5), ps) + pool;
	return stored + page_up(in->map_bytes, ps);
}

/**
 * fitcheck_stored() - the bytes an image of @image bytes of memory takes in
 * the area: its stream compressed at @in's sample's ratio, with the map
 */
uint64_t fitcheck_stored(const struct fit_input *in, uint64_t image)
{
	return stored_of(in, image, 0);
}

/**
 * fitcheck_max_size() - the most memory the kernel keeps in an image, about
 * half of @in's present memory (its max_size, a little less in truth)
 */
uint64_t fitcheck_max_size(const struct fit_input *in)
{
	uint64_t max_size;

	(void)saveable_of(in, &max_size);
	return max_size;
}

/**
 * fitcheck_cache_floor() - the image size below which the kernel must swap
 * out: @in's memory in use less its page cache and reclaimable slab
 */
uint64_t fitcheck_cache_floor(const struct fit_input *in)
{
	uint64_t max_size, saveable = saveable_of(in, &max_size);

	return sub_sat(saveable, in->mem.file + in->mem.slab_reclaimable);
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
	uint64_t saveable, max_size, size, image, reduce = 0, floor;
	struct fit_estimate e;
	struct charge c;

	saveable = saveable_of(in, &max_size);
	size = min_u64(in->image_size, max_size);
	image = saveable;
	memset(&e, 0, sizeof(e));
	memset(&c, 0, sizeof(c));
	if (size < saveable) {
		/* the kernel's minimum_image_size(), bounded by max_size */
		floor = sub_sat(saveable, m->slab_reclaimable + m->anon + m->file);
		image = size > floor ? size : min_u64(floor, max_size);
		/* the cache goes first, for free; anonymous pages go to swap */
		reduce = min_u64(sub_sat(saveable - image, m->file + m->slab_reclaimable), m->anon);
	}
	if (reduce) {
		charge_init(in, (reduce + ps - 1) / ps, m->anon / ps, ps, &c);
		charge_ahead(in, sample_cost(in), &c);
		charge_group(in, in->target_prio, 1, sample_cost(in), &c);
		/* what zram's copies and too few anonymous pages left in memory */
		image = min_u64(image + c.rem * ps, max_u64(image, max_size));
	}
	image = page_up(image, ps);
	e.pool = min_u64(c.pool * ps, image);
	e.ratio_permille = 1000;
	if (in->sample_raw && in->sample_stored <= in->sample_raw)
		e.ratio_permille = (uint32_t)(in->sample_stored * 1000 / in->sample_raw);
	e.in_use = saveable;
	e.image = image;
	e.swapped = c.swapped * ps;
	e.swapped_here = c.here * ps;
	e.stored = stored_of(in, image, e.pool);
	e.need = e.stored + e.swapped_here;
	e.margin = fitcheck_margin(e.need);
	*ret = e;
}

/**
 * fitcheck_margin() - the free space asked for beyond a @need (see
 * fitcheck_estimate())
 */
uint64_t fitcheck_margin(uint64_t need)
{
	return need / 16 + (4u << 20);
}

/**
 * fitcheck_fits() - does @e's need, with its margin, fit in @free_bytes?
 * Return: 1 or 0.
 */
int fitcheck_fits(const struct fit_estimate *e, uint64_t free_bytes)
{
	return e->need <= free_bytes && e->margin <= free_bytes - e->need;
}

/*
 * The memory the areas ahead of the target free when they take all they can
 * of @in's anonymous pages.
 */
static uint64_t freed_ahead(const struct fit_input *in, uint64_t ps)
{
	struct charge c;
	uint64_t all = in->mem.anon / ps;

	charge_init(in, all, all, ps, &c);
	charge_ahead(in, sample_cost(in), &c);
	return (all - c.rem) * ps;
}

/**
 * fitcheck_advise() - an image_size with which @in's image fits @free_bytes
 *
 * The target's need is a sum of straight pieces in the size the kernel
 * shrinks to: from no shrinking down to the page cache dropped it falls by
 * the ratio for each byte less; then, while the areas ahead of the target take
 * the pages swapped out, by the ratio for a disk area's and by about nothing
 * for zram's (its copies, as large as the compressed pages, stay in the
 * image); past them it grows by 1 - the ratio, each byte now swapped out to
 * the target as it is.  So the least need is at one of those ends, or at the
 * smallest image, or the largest: each is tried, in whole MiB.  A lower
 * image_size helps while the kernel drops cache or swaps out to zram, a
 * higher one when the target takes what is swapped out.
 * Return: 1 and @ret_image_size (bytes) for the fitting one that needs the
 * least (the nearest to @in's when needs are equal); 0 when none fits.
 */
int fitcheck_advise(const struct fit_input *in, uint64_t free_bytes, uint64_t *ret_image_size)
{
	uint64_t ps = in->page_size ? in->page_size : 4096, mib = 1u << 20;
	uint64_t saveable, max_size, cache, best = 0, best_need = UINT64_MAX, d, bd = 0;
	uint64_t cand[4];
	struct fit_input t = *in;
	struct fit_estimate e;
	size_t i;

	saveable = saveable_of(in, &max_size);
	cache = sub_sat(saveable, in->mem.file + in->mem.slab_reclaimable);
	cand[0] = 0;
	cand[1] = min_u64(saveable, max_size);
	cand[2] = cache;
	cand[3] = sub_sat(cache, freed_ahead(in, ps));
	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		t.image_size = (cand[i] + mib - 1) / mib * mib;
		fitcheck_estimate(&t, &e);
		if (!fitcheck_fits(&e, free_bytes))
			continue;
		d = t.image_size > in->image_size ? t.image_size - in->image_size :
			in->image_size - t.image_size;
		if (e.need < best_need || (e.need == best_need && d < bd)) {
			best = t.image_size;
			best_need = e.need;
			bd = d;
		}
	}
	if (best_need == UINT64_MAX)
		return 0;
	*ret_image_size = best;
	return 1;
}
