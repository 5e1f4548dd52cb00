/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fitinput.h - a made-up fit_input for the fit estimate's tests (test-fitcheck,
 * test-imagechoice): sizes in MiB, pages of PS bytes
 */
#ifndef TORPOR_TEST_FITINPUT_H
#define TORPOR_TEST_FITINPUT_H

#include <stdint.h>
#include <string.h>

#include "fitcheck.h"

#define MIB (1ull << 20)
#define PS 4096u

/* @total MiB of RAM, @free_mib free, @anon and @file MiB on the LRU lists, @slab reclaimable */
static inline struct fit_input input(uint64_t total, uint64_t free_mib, uint64_t anon,
				     uint64_t file, uint64_t slab, uint64_t image_size)
{
	struct fit_input in;

	memset(&in, 0, sizeof(in));
	in.mem.total = total * MIB;
	in.mem.free = free_mib * MIB;
	in.mem.anon = anon * MIB;
	in.mem.file = file * MIB;
	in.mem.slab_reclaimable = slab * MIB;
	in.present = total * MIB;
	in.image_size = image_size * MIB;
	in.page_size = PS;
	return in;
}

/* the compression sample of @in: @raw pages of memory took @stored pages */
static inline void sample(struct fit_input *in, uint64_t raw, uint64_t stored)
{
	in->sample_raw = raw * PS;
	in->sample_stored = stored * PS;
}

#endif
