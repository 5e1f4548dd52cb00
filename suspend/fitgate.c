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
#include <sys/sysinfo.h>

#include "bootroom.h"
#include "checksay.h"
#include "fitcheck.h"
#include "fitgate.h"
#include "fitsample.h"
#include "hibernate.h"
#include "imagechoice.h"
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

/* all of RAM, for image_size = max: the kernel keeps at most about half */
static uint64_t ram_bytes(uint32_t ps)
{
	struct sysinfo si;
	uint64_t pages, ram = 0;

	if (sysinfo(&si) == 0)
		ram = (uint64_t)si.totalram * si.mem_unit;
	if (sysmem_present_pages(&pages) == 0 && pages * ps > ram)
		ram = pages * ps;
	return ram ? ram : UINT64_MAX;
}

/* what image_size = max, kernel or BYTES of @o writes; UINT64_MAX: none */
static uint64_t fixed_size(const struct hib_opts *o, uint32_t ps)
{
	switch (o->image_size_mode) {
	case CONFIG_IMAGE_SIZE_MAX:
		return ram_bytes(ps);
	case CONFIG_IMAGE_SIZE_BYTES:
		return o->image_size;
	default:
		return UINT64_MAX;
	}
}

/*
 * The one line that says which image_size the hibernation takes and why:
 * info under --check, else debug.  @size is what is written (UINT64_MAX:
 * nothing), @kernel the knob's value, @c auto's choice (NULL: no estimate).
 */
static void say_size(const struct hib_opts *o, uint64_t size, uint64_t kernel,
		     const struct image_choice *c, uint64_t avail)
{
	void (*say)(const char *, ...) __attribute__((format(printf, 1, 2))) =
		o->check_only ? msg_info : msg_debug;
	double ratio = c ? c->ratio_permille / 1000.0 : 1;

	if (o->image_size_mode == CONFIG_IMAGE_SIZE_MAX)
		say("image_size %llu MiB (max): the kernel keeps up to about half of memory",
		    MIB(size));
	else if (o->image_size_mode == CONFIG_IMAGE_SIZE_BYTES)
		say("image_size %llu MiB, as set (torpor.conf or --image-size)", MIB(size));
	else if (kernel == UINT64_MAX)
		say("image_size left as it is: cannot read %s", IMAGESIZE_PATH);
	else if (o->image_size_mode == CONFIG_IMAGE_SIZE_KERNEL || !c)
		say("image_size left as it is, %llu MiB (%s)", MIB(kernel),
		    o->image_size_mode == CONFIG_IMAGE_SIZE_KERNEL ? "kernel" :
		    "auto: no estimate of the image");
	else if (c->why == IMAGECHOICE_ALL)
		say("image_size %llu MiB (auto, not the kernel's %llu MiB): the largest image "
		    "the kernel keeps, %llu MiB, fits compressed in the %llu MiB free (at the "
		    "sampled ratio plus %.3f, %.2f)", MIB(size), MIB(kernel), MIB(c->image),
		    MIB(avail), IMAGECHOICE_RATIO_PAD / 1000.0, ratio);
	else if (c->why == IMAGECHOICE_FITS)
		say("image_size %llu MiB (auto, not the kernel's %llu MiB): the largest image "
		    "that fits compressed in the %llu MiB free (at the sampled ratio plus %.3f, "
		    "%.2f)", MIB(size), MIB(kernel), MIB(avail), IMAGECHOICE_RATIO_PAD / 1000.0,
		    ratio);
	else if (c->why == IMAGECHOICE_BOOT)
		say("image_size %llu MiB (auto, not the kernel's %llu MiB): the largest image the "
		    "next boot can restore beside its initramfs", MIB(size), MIB(kernel));
	else if (c->why == IMAGECHOICE_KEEP_BOOT)
		say("image_size left as it is, %llu MiB (auto): %s", MIB(kernel),
		    hibernate_next_initramfs_bytes() == UINT64_MAX ?
		    "the next boot's initramfs was not read, so not how much memory it leaves" :
		    "the next boot cannot restore a larger image beside its initramfs");
	else
		say("image_size left as it is, %llu MiB (auto): %s", MIB(kernel),
		    c->why == IMAGECHOICE_KEEP_NO_FIT ? "not even that image fits" :
		    "no larger image fits compressed without swapping out more");
}

/*
 * The largest image the next boot restores beside its initramfs (bootroom.h),
 * for @in; the kernel's value when that initramfs was not read (initramfs =
 * none): auto then asks for nothing the kernel would not keep by itself
 */
static uint64_t boot_max(const struct fit_input *in)
{
	uint64_t unpacked = hibernate_next_initramfs_bytes(), max;

	if (unpacked == UINT64_MAX) {
		msg_debug("the next boot's initramfs was not read: image_size = auto asks for "
			  "no larger image than the kernel's value");
		return in->image_size;
	}
	max = bootroom_image_max(in->mem.total, in->present ? in->present : in->mem.total,
				 unpacked, in->page_size);
	msg_debug("the next boot restores an image of %llu MiB at most: %llu MiB of memory, less "
		  "its initramfs (%llu MiB unpacked) and a sixteenth, %llu MiB for its kernel, "
		  "%llu MiB for its programs and what the restore takes", MIB(max),
		  MIB(in->mem.total), MIB_UP(unpacked), MIB(BOOTROOM_KERNEL_BYTES),
		  MIB(BOOTROOM_PROGRAMS_BYTES));
	return max;
}

/*
 * image_size = auto for @in, @avail bytes free: the value to write, or
 * UINT64_MAX to leave the kernel's; @in's image_size set to what the kernel
 * will use
 */
static uint64_t choose_auto(const struct hib_opts *o, struct fit_input *in, uint64_t avail)
{
	struct image_choice c;
	uint64_t kernel = in->image_size;

	imagechoice_auto(in, avail, in->image_size == UINT64_MAX ? UINT64_MAX : boot_max(in), &c);
	if (c.why != IMAGECHOICE_ALL && c.why != IMAGECHOICE_FITS && c.why != IMAGECHOICE_BOOT) {
		say_size(o, UINT64_MAX, kernel, &c, avail);
		return UINT64_MAX;
	}
	in->image_size = c.bytes;
	say_size(o, c.bytes, kernel, &c, avail);
	return c.bytes;
}

/**
 * fitgate_check() - will the image fit the swap area @t?
 * @o: the options (image_size, --check)
 * @w: the writer, its buffers allocated: they are locked into the snapshot
 * @ret_image_size: the value for /sys/power/image_size (image_size = auto,
 *                  max or BYTES), or UINT64_MAX to leave it as it is
 *
 * Estimated before the freeze (fitcheck.h), with a sample of memory
 * compressed as the writer will (fitsample.h); refused with the numbers when
 * it cannot, with the margin.  Writing still stops at a full
 * area (the late check): this spares a freeze that cannot succeed.  What
 * cannot be read does not refuse: without /proc/meminfo there is no estimate,
 * without a sample memory counts as incompressible.
 * Return: 0, or -ENOSPC (reported).
 */
int fitgate_check(const struct hib_opts *o, struct writer *w, const struct hib_target *t,
		  uint64_t *ret_image_size)
{
	struct fit_input in;
	char where[PATH_MAX + 16];
	uint64_t avail = t->swap_bytes > t->swap_used ? t->swap_bytes - t->swap_used : 0;
	uint64_t size = fixed_size(o, w->ps), kernel;
	double ratio, t0 = mono_s();
	int r;

	*ret_image_size = size;
	if (imagesize_read(IMAGESIZE_PATH, &kernel) < 0)
		kernel = UINT64_MAX;
	memset(&in, 0, sizeof(in));
	r = fitcheck_read_meminfo(FITCHECK_MEMINFO_PATH, &in.mem);
	if (r < 0) {
		msg_debug("cannot read %s: %s; the image's size is not estimated",
			  FITCHECK_MEMINFO_PATH, msg_errname(r));
		say_size(o, size, kernel, NULL, avail);
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
	in.image_size = size != UINT64_MAX ? size : kernel;
	take_sample(w, &in);
	set_areas(&in, t);
	if (o->image_size_mode == CONFIG_IMAGE_SIZE_AUTO)
		*ret_image_size = choose_auto(o, &in, avail);
	else
		say_size(o, size, kernel, NULL, avail);
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
