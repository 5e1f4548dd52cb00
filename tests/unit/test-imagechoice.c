// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-imagechoice.c - image_size = auto: all of RAM when the largest image the
 * kernel keeps fits the area compressed, else the largest that fits, never
 * below the kernel's value, and the kernel's value in every doubt
 */
#include <stdint.h>
#include <string.h>

#include "fitcheck.h"
#include "fitinput.h"
#include "imagechoice.h"
#include "tap.h"


/*
 * The largest whole MiB below @top whose image, at @ratio, fits @free_mib with
 * fitcheck's margin: written out here from the format (a header page, 8 bytes
 * of PFN a page), not from fitcheck.c
 */
static uint64_t expect_mib(double ratio, uint64_t free_mib, uint64_t top)
{
	double pages, stream, need;
	uint64_t s;

	for (s = top - 1; s > 0; s--) {
		pages = (double)(s * MIB / PS);
		stream = PS + ((pages * 8 + PS - 1) / PS) * PS + pages * PS;
		need = stream * ratio;
		if (need + need / 16 + 4 * MIB <= (double)(free_mib * MIB))
			return s;
	}
	return 0;
}

static uint64_t near(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static void test_all(void)
{
	struct fit_input in;
	struct fit_estimate e, kernel;
	struct image_choice c;

	/* 4 GiB, 1 GiB in use, ratio 0.40, 8 GiB free: the kernel may keep its half */
	in = input(4096, 3072, 600, 300, 20, 1638);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 8192 * MIB, UINT64_MAX, &c);
	tap_ok(c.why == IMAGECHOICE_ALL && c.bytes == 4096 * MIB && c.image == 2048 * MIB &&
	       c.ratio_permille == 525,
	       "imagechoice: the kernel's largest image fits: all of RAM, ratio padded by 0.125 "
	       "(%d, %llu MiB, %u)", c.why, (unsigned long long)(c.bytes / MIB), c.ratio_permille);

	/* anonymous memory beyond half of RAM: today the kernel swaps 1 GiB out to the area */
	in = input(4096, 1096, 2600, 300, 20, 1638);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 8192 * MIB, UINT64_MAX, &c);
	fitcheck_estimate(&in, &kernel);
	in.image_size = c.bytes;
	fitcheck_estimate(&in, &e);
	tap_ok(c.why == IMAGECHOICE_ALL && c.image == 2048 * MIB &&
	       e.swapped_here + 410 * MIB == kernel.swapped_here,
	       "imagechoice: keeping half of RAM swaps out 410 MiB less than the kernel's "
	       "two fifths (%llu MiB, %llu)", (unsigned long long)(e.swapped_here / MIB),
	       (unsigned long long)(kernel.swapped_here / MIB));

	/* the knob already above half of RAM: asked for as it is, at least */
	in = input(4096, 3072, 600, 300, 20, 8192);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 8192 * MIB, UINT64_MAX, &c);
	tap_ok(c.why == IMAGECHOICE_ALL && c.bytes == 8192 * MIB,
	       "imagechoice: never below the kernel's value");
}

static void test_fits(void)
{
	struct fit_input in, grown;
	struct fit_estimate e;
	struct image_choice c;
	uint64_t want;

	/* 3000 MiB in use, 1800 of it cache, 1 GiB free: more than two fifths, less than half */
	in = input(4096, 1096, 1000, 1800, 50, 1638);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 1024 * MIB, UINT64_MAX, &c);
	want = expect_mib(0.525, 1024, 2048);
	tap_ok(c.why == IMAGECHOICE_FITS && near(c.bytes, want * MIB) <= MIB &&
	       c.bytes > 1638 * MIB,
	       "imagechoice: the largest image that fits at the padded ratio (%llu MiB, "
	       "about %llu)",
	       (unsigned long long)(c.bytes / MIB), (unsigned long long)want);

	/* the programs allocate 500 MiB more before the snapshot, and memory compresses
	 * 0.10 worse than the sample said: the kernel shrinks to the size chosen, it fits */
	grown = input(4096, 596, 1500, 1800, 50, 0);
	grown.image_size = c.bytes;
	sample(&grown, 1000, 500);
	fitcheck_estimate(&grown, &e);
	tap_ok(fitcheck_fits(&e, 1024 * MIB) && e.swapped == 0,
	       "imagechoice: the choice still fits after memory grew and compressed worse "
	       "(%llu MiB needed)", (unsigned long long)((e.need + e.margin) / MIB));

	/* 1000 MiB in use, 1000 MiB free: sized for what the area takes, not for memory
	 * in use now, which may double (page cache) before the snapshot and compress 0.10 worse */
	in = input(4096, 3096, 600, 300, 20, 1638);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 1000 * MIB, UINT64_MAX, &c);
	want = expect_mib(0.525, 1000, 2048);
	grown = input(4096, 1896, 600, 1500, 20, 0);
	grown.image_size = c.bytes;
	sample(&grown, 1000, 500);
	fitcheck_estimate(&grown, &e);
	tap_ok(c.why == IMAGECHOICE_FITS && near(c.bytes, want * MIB) <= MIB &&
	       fitcheck_fits(&e, 1000 * MIB),
	       "imagechoice: the size bounds the image, not memory in use now (%llu MiB)",
	       (unsigned long long)(c.bytes / MIB));

	/* no sample: memory counts as incompressible */
	in = input(4096, 1096, 1000, 1800, 50, 1638);
	in.sample_raw = in.sample_stored = 0;
	imagechoice_auto(&in, 2100 * MIB, UINT64_MAX, &c);
	want = expect_mib(1.0, 2100, 2048);
	tap_ok(c.why == IMAGECHOICE_FITS && c.ratio_permille == 1000 &&
	       near(c.bytes, want * MIB) <= MIB,
	       "imagechoice: without a sample, the largest image that fits as it is (%llu MiB)",
	       (unsigned long long)(c.bytes / MIB));
}

static void test_keep(void)
{
	struct fit_input in;
	struct image_choice c;

	/* not even the kernel's two fifths fit: left to the gate, which refuses */
	in = input(4096, 1096, 1000, 1800, 50, 1638);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 600 * MIB, UINT64_MAX, &c);
	tap_ok(c.why == IMAGECHOICE_KEEP_NO_FIT && c.bytes == 1638 * MIB,
	       "imagechoice: the kernel's value kept when it does not fit either");

	/* ratio 0.9 fits the kernel's value; padded (to 1, not beyond) nothing larger does */
	sample(&in, 1000, 900);
	imagechoice_auto(&in, 1600 * MIB, UINT64_MAX, &c);
	tap_ok(c.why == IMAGECHOICE_KEEP && c.bytes == 1638 * MIB && c.ratio_permille == 1000,
	       "imagechoice: the kernel's value kept when only it fits; the ratio padded to 1 "
	       "at most");

	/* the knob unreadable */
	in.image_size = UINT64_MAX;
	imagechoice_auto(&in, 8192 * MIB, UINT64_MAX, &c);
	tap_ok(c.why == IMAGECHOICE_KEEP_UNKNOWN && c.bytes == UINT64_MAX,
	       "imagechoice: an unknown kernel value is left alone");

	/* anonymous-heavy, the largest does not fit: a size between would need swapping */
	in = input(4096, 1096, 2600, 300, 20, 1638);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 1815 * MIB, UINT64_MAX, &c);
	tap_ok(c.why == IMAGECHOICE_KEEP && c.bytes == 1638 * MIB,
	       "imagechoice: no size that makes the kernel swap out is tried but its own");
}

static void test_boot(void)
{
	struct fit_input in;
	struct image_choice c;

	/* 4 GiB, 1 GiB in use: the kernel's half fits the area, the next boot restores 1900 MiB */
	in = input(4096, 3072, 600, 300, 20, 1638);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 8192 * MIB, 1900 * MIB + 12345, &c);
	tap_ok(c.why == IMAGECHOICE_BOOT && c.bytes == 1900 * MIB && c.image == 1900 * MIB,
	       "imagechoice: no larger than the next boot restores, in whole MiB (%d, %llu MiB)",
	       c.why, (unsigned long long)(c.bytes / MIB));

	/* the next boot restores more than the kernel keeps: all of RAM, as before */
	imagechoice_auto(&in, 8192 * MIB, 2100 * MIB, &c);
	tap_ok(c.why == IMAGECHOICE_ALL && c.bytes == 4096 * MIB,
	       "imagechoice: a next boot with room for the largest image changes nothing");

	/* the next boot restores less than the kernel's two fifths: the kernel's value */
	imagechoice_auto(&in, 8192 * MIB, 1200 * MIB, &c);
	tap_ok(c.why == IMAGECHOICE_KEEP_BOOT && c.bytes == 1638 * MIB,
	       "imagechoice: never below the kernel's value, even for the next boot (%d)", c.why);

	/* unknown next boot (the caller passes the kernel's value): kept */
	imagechoice_auto(&in, 8192 * MIB, in.image_size, &c);
	tap_ok(c.why == IMAGECHOICE_KEEP_BOOT && c.bytes == 1638 * MIB,
	       "imagechoice: the kernel's value when the next boot is not known");

	/* the largest that fits the area is 1900-odd MiB, the next boot takes 1700 */
	in = input(4096, 1096, 1000, 1800, 50, 1638);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 1024 * MIB, 1700 * MIB, &c);
	tap_ok(c.why == IMAGECHOICE_BOOT && c.bytes == 1700 * MIB,
	       "imagechoice: the area's largest fit, brought down to the next boot's (%llu MiB)",
	       (unsigned long long)(c.bytes / MIB));

	/* below the size the kernel's cache drop reaches, a smaller image swaps out more:
	 * one the area does not take is not chosen for the next boot either */
	in = input(4096, 1096, 2600, 300, 20, 1638);
	sample(&in, 1000, 400);
	imagechoice_auto(&in, 1900 * MIB, 1700 * MIB, &c);
	tap_ok(c.why == IMAGECHOICE_KEEP_BOOT && c.bytes == 1638 * MIB,
	       "imagechoice: a capped size that would not fit the area is not taken (%d)", c.why);
}

int main(void)
{
	test_all();
	test_fits();
	test_keep();
	test_boot();
	return tap_done();
}
