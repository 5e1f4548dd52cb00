// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagechoice.c - image_size = auto (imagechoice.h)
 *
 * The kernel shrinks the snapshot to image_size, two fifths of RAM by default,
 * dropping page cache and swapping out anonymous memory that every program
 * then faults back after the resume.  It can never keep more than max_size,
 * about half of memory: the snapshot needs a free page for each page it
 * copies.  Auto asks for the largest image that the area's free space takes
 * compressed, as fitcheck.h estimates it, with two margins:
 *
 * - the ratio assumed is the sample's plus IMAGECHOICE_RATIO_PAD: a sample of a
 *   few MiB misjudged the rest by up to 0.03 in the QEMU tests, and a larger
 *   image holds more of what the sample did not see;
 * - the image is counted as large as the chosen size, not as memory in use
 *   now: what programs allocate until the snapshot only makes the kernel
 *   shrink to that size, the bound this choice is made for.
 *
 * Nor larger than the next boot can restore (bootroom.h): it needs a free page
 * for every page of the image while its kernel and initramfs hold the rest, and
 * an image that does not fit fails the load after it was invalidated.
 *
 * The result is never below the kernel's value, and is the kernel's value in
 * every doubt: when that does not fit either (the gate then refuses, as
 * without auto), when it cannot be read, or when a larger one would need the
 * kernel to swap out (below the size its cache drop reaches, the need is not
 * monotonic in the size).  The late check while writing stays the backstop.
 */
#include "fitcheck.h"
#include "imagechoice.h"

#define MIB_BYTES	(1ull << 20)

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* @in with the sample's ratio raised by IMAGECHOICE_RATIO_PAD, at most 1 */
static void pad_ratio(struct fit_input *in)
{
	if (!in->sample_raw || in->sample_stored > in->sample_raw) {
		in->sample_raw = 0;	/* no sample: incompressible */
		in->sample_stored = 0;
		return;
	}
	in->sample_stored = min_u64(in->sample_raw, in->sample_stored +
				    in->sample_raw / 1000 * IMAGECHOICE_RATIO_PAD);
}

/*
 * What @in (ratio padded) needs with image_size @size when the image is as
 * large as the kernel lets it be, not as memory in use now
 */
static uint64_t need_at(const struct fit_input *in, uint64_t size)
{
	struct fit_input t = *in;
	struct fit_estimate e;
	uint64_t full;

	t.image_size = size;
	fitcheck_estimate(&t, &e);
	full = fitcheck_stored(&t, min_u64(size, fitcheck_max_size(&t))) + e.swapped_here;
	return max_u64(e.need, full);
}

static int fits(uint64_t need, uint64_t free_bytes)
{
	uint64_t margin = fitcheck_margin(need);

	return need <= free_bytes && margin <= free_bytes - need;
}

/* the kernel's value kept, for @why */
static void keep(const struct fit_input *in, enum imagechoice_why why, struct image_choice *c)
{
	c->why = why;
	c->bytes = in->image_size;
	c->image = min_u64(in->image_size, fitcheck_max_size(in));
}

/*
 * The largest size in whole MiB from @lo (that fits) to @hi (that does not)
 * that fits; the need grows with the size there (no swapping out)
 */
static uint64_t largest_fit(const struct fit_input *in, uint64_t free_bytes, uint64_t lo,
			    uint64_t hi)
{
	uint64_t mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (fits(need_at(in, mid * MIB_BYTES), free_bytes))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * @c, larger than @boot_max, brought down to it in whole MiB when that still
 * fits (@p the padded input), else to the kernel's value
 */
static void cap_to_boot(const struct fit_input *in, const struct fit_input *p,
			uint64_t free_bytes, uint64_t boot_max, struct image_choice *c)
{
	uint64_t size = boot_max / MIB_BYTES * MIB_BYTES;

	if (size <= in->image_size || !fits(need_at(p, size), free_bytes)) {
		keep(in, IMAGECHOICE_KEEP_BOOT, c);
		return;
	}
	c->why = IMAGECHOICE_BOOT;
	c->bytes = size;
	c->image = size;
}

/**
 * imagechoice_auto() - image_size = auto for @in, @free_bytes free in the area
 * @in: as for fitcheck_estimate(), its image_size the kernel's value
 *      (UINT64_MAX: unknown)
 * @boot_max: the largest image the next boot restores (bootroom.h), UINT64_MAX
 *            when it does not matter
 * @ret: the choice; ret->bytes is the kernel's value when ret->why is a KEEP
 *
 * IMAGECHOICE_ALL asks for all of RAM (the kernel caps it at max_size),
 * IMAGECHOICE_FITS for the largest whole MiB that fits, IMAGECHOICE_BOOT for
 * the largest whole MiB the next boot restores, when either would be larger.
 */
void imagechoice_auto(const struct fit_input *in, uint64_t free_bytes, uint64_t boot_max,
		      struct image_choice *ret)
{
	struct fit_input p = *in;
	struct fit_estimate e;
	struct image_choice c = { 0 };
	uint64_t max_size, lo, hi;

	pad_ratio(&p);
	c.ratio_permille = p.sample_raw ?
		(uint32_t)((p.sample_stored * 1000 + p.sample_raw - 1) / p.sample_raw) : 1000;
	max_size = fitcheck_max_size(in);
	fitcheck_estimate(in, &e);
	if (in->image_size == UINT64_MAX)
		keep(in, IMAGECHOICE_KEEP_UNKNOWN, &c);
	else if (!fitcheck_fits(&e, free_bytes))
		keep(in, IMAGECHOICE_KEEP_NO_FIT, &c);
	else if (fits(need_at(&p, max_size), free_bytes)) {
		c.why = IMAGECHOICE_ALL;
		c.bytes = max_u64(max_u64(in->present, in->mem.total), in->image_size);
		c.image = max_size;
	} else {
		/* from where the kernel only drops cache, never below its own value */
		lo = max_u64(in->image_size, fitcheck_cache_floor(in));
		lo = (lo + MIB_BYTES - 1) / MIB_BYTES;
		hi = max_size / MIB_BYTES;
		if (lo >= hi || !fits(need_at(&p, lo * MIB_BYTES), free_bytes)) {
			keep(in, IMAGECHOICE_KEEP, &c);
		} else {
			c.why = IMAGECHOICE_FITS;
			c.bytes = largest_fit(&p, free_bytes, lo, hi) * MIB_BYTES;
			c.image = c.bytes;
		}
	}
	if ((c.why == IMAGECHOICE_ALL || c.why == IMAGECHOICE_FITS) && c.image > boot_max)
		cap_to_boot(in, &p, free_bytes, boot_max, &c);
	c.need = need_at(&p, c.bytes);
	*ret = c;
}
