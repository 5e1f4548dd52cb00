// SPDX-License-Identifier: GPL-2.0-only
/*
 * fitgate.c - will the image fit the swap area: estimated before the freeze
 * (fitcheck.h) with a sample of memory compressed as the writer will
 * (fitsample.h), refused with the numbers when it cannot, compared with what
 * was written after the save
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksay.h"
#include "fitcheck.h"
#include "fitgate.h"
#include "fitsample.h"
#include "imagesize.h"
#include "monoclock.h"
#include "msg.h"
#include "swaps.h"
#include "sysmem.h"
#include "testhook.h"
#include "util.h"

#define FIT_BUDGET_NS	(40 * 1000000ull)	/* no sample window starts after 40 ms of CPU */

/* the estimate made before the freeze, compared with what was written */
static struct fit_estimate fit;

static size_t trial_pack(void *ctx, const uint8_t *raw, size_t len)
{
	return pack_pool_trial(ctx, raw, len);
}

/* "swap file '/swapfile'" or "/dev/vdb", for messages */
static const char *area_name(const struct hib_target *t, char *buf, size_t len)
{
	if (t->is_file)
		snprintf(buf, len, "swap file '%s'", t->swap_path);
	else
		snprintf(buf, len, "%s", t->dev_name);
	return buf;
}

/*
 * The swap areas the kernel's shrinking swaps out to before @t (zram) or in
 * turn with it, into @in; without /proc/swaps' priorities @t takes it all.
 */
static void set_areas(struct fit_input *in, const struct hib_target *t)
{
	struct swap_entry *sw = NULL;
	size_t n = 0, i;
	int r;

	r = swaps_read("/proc/swaps", &sw, &n);
	if (r == 0)
		r = fitcheck_set_areas(in, sw, n, t->swap_path);
	for (i = 0; r == 0 && i < n; i++)
		msg_debug("swap area '%s': priority %d, %llu MiB free", sw[i].path, sw[i].prio,
			  (sw[i].kib - (sw[i].used_kib < sw[i].kib ? sw[i].used_kib : sw[i].kib)) >>
			  10);
	free(sw);
	if (r < 0)
		msg_debug("no priorities of the swap areas (/proc/swaps: %s): what the kernel "
			  "swaps out counts as %s's", msg_errname(r), t->swap_path);
}

/*
 * A sample of memory in use, packed as @w will pack it, into @in; without one
 * memory counts as incompressible (debug lines say which).
 */
static void take_sample(struct writer *w, struct fit_input *in)
{
	struct fit_sample s;
	int r;

	r = fitsample_take(FITSAMPLE_KCORE, FITSAMPLE_KPAGEFLAGS, w->block_pages, w->ps,
			   FIT_BUDGET_NS, trial_pack, &w->pool, &s);
	if (r == FITSAMPLE_TAKEN) {
		in->sample_raw = s.raw;
		in->sample_stored = s.stored;
		msg_debug("compression sample: %u blocks of memory in use in %u windows, %llu KiB "
			  "stored in %llu KiB, in %.1f ms (%.1f ms of CPU)", s.blocks, s.windows,
			  (unsigned long long)(s.stored >> 10), (unsigned long long)(s.raw >> 10),
			  s.ns / 1e6, s.cpu_ns / 1e6);
	} else if (r == FITSAMPLE_TOO_FEW) {
		msg_debug("no compression sample (%u blocks of memory in use in %u windows, fewer "
			  "than %d, in %.1f ms of CPU): counting memory as incompressible", s.blocks,
			  s.windows, FITSAMPLE_MIN_BLOCKS, s.cpu_ns / 1e6);
	} else {
		msg_debug("no compression sample (%s or %s: %s): counting memory as "
			  "incompressible", FITSAMPLE_KCORE, FITSAMPLE_KPAGEFLAGS, msg_errname(r));
	}
}

/**
 * fitgate_check() - will the image fit the swap area @t?
 * @o: the options (image_size, --check)
 * @w: the writer, its buffers allocated: they are locked into the snapshot
 *
 * Estimated before the freeze (fitcheck.h), with a sample of memory
 * compressed as the writer will (fitsample.h); refused with the numbers when
 * it cannot, with the margin.  Writing still stops at a full
 * area (the late check): this spares a freeze that cannot succeed.  What
 * cannot be read does not refuse: without /proc/meminfo there is no estimate,
 * without a sample memory counts as incompressible.
 * Return: 0, or -ENOSPC (reported).
 */
int fitgate_check(const struct hib_opts *o, struct writer *w, const struct hib_target *t)
{
	struct fit_input in;
	char where[PATH_MAX + 16];
	uint64_t avail = t->swap_bytes > t->swap_used ? t->swap_bytes - t->swap_used : 0;
	double ratio, t0 = mono_s();
	int r;

	memset(&in, 0, sizeof(in));
	r = fitcheck_read_meminfo(FITCHECK_MEMINFO_PATH, &in.mem);
	if (r < 0) {
		msg_debug("cannot read %s: %s; the image's size is not estimated",
			  FITCHECK_MEMINFO_PATH, msg_errname(r));
		return 0;
	}
	in.page_size = w->ps;
	if (sysmem_present_pages(&in.present) == 0)
		in.present *= w->ps;
	else
		in.present = 0;
	/* locked by mlockall() before the snapshot, so in it */
	in.extra = writer_buffer_bytes(w);
	in.map_bytes = w->meta_cap;
	if (o->has_image_size)
		in.image_size = o->image_size;
	else if (imagesize_read(IMAGESIZE_PATH, &in.image_size) < 0)
		in.image_size = UINT64_MAX;
	take_sample(w, &in);
	set_areas(&in, t);
	fitcheck_estimate(&in, &fit);
	ratio = fit.ratio_permille / 1000.0;
	msg_debug("image estimate: %llu MiB in use, %llu MiB in the snapshot (image_size %llu "
		  "MiB), %llu MiB swapped out to shrink it (%llu MiB to this area, %llu MiB of "
		  "zram's copies in the snapshot), ratio %.3f: %llu MiB to write, %llu MiB of swap "
		  "with the swapped, margin %llu MiB; %llu MiB free of %llu MiB; estimated in %.1f "
		  "ms",
		  MIB(fit.in_use), MIB(fit.image), MIB(in.image_size), MIB(fit.swapped),
		  MIB(fit.swapped_here), MIB(fit.pool), ratio, MIB_UP(fit.stored), MIB_UP(fit.need),
		  MIB_UP(fit.margin), MIB(avail), MIB(t->swap_bytes), (mono_s() - t0) * 1000);
	area_name(t, where, sizeof(where));
	if (fitcheck_fits(&fit, avail)) {
		if (o->check_only)
			msg_info("the image needs about %llu MiB of the %llu MiB free on %s",
				 MIB_UP(fit.need), MIB(avail), where);
		return 0;
	}
	checksay_no_fit(&in, &fit, t, avail, where);
	if (testhook_no_fitcheck())
		return 0;
	return -ENOSPC;
}

/**
 * fitgate_say_written() - the estimate made before the freeze beside what @w
 * wrote (a debug line)
 */
void fitgate_say_written(const struct writer *w)
{
	msg_debug("estimated before the freeze: %llu MiB of data and map at most %llu MiB; "
		  "written: %llu MiB of data, %llu KiB of map", MIB_UP(fit.stored - w->meta_cap),
		  MIB_UP(w->meta_cap), MIB_UP(w->img.meta.data_pages * w->ps),
		  (unsigned long long)(image_meta_bytes(w->img.meta.nr_extents,
							w->img.meta.nr_blocks,
							w->img.meta.nr_fs) >> 10));
}
