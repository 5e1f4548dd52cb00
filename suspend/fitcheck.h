/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fitcheck.h - will the image fit?  The swap space a hibernation takes,
 * estimated before anything is frozen from /proc/meminfo, the kernel's
 * image_size and a compression ratio measured on a sample of memory
 * (fitsample.h), so that torpor-suspend refuses with the numbers instead of
 * finding the area full while writing, after the freeze
 */
#ifndef SUSPEND_FITCHECK_H
#define SUSPEND_FITCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "swaps.h"

#define FITCHECK_MEMINFO_PATH "/proc/meminfo"

/* the kernel has fewer swap areas than this (MAX_SWAPFILES) */
#define FIT_MAX_AREAS 32

/* what the estimate reads from /proc/meminfo, in bytes */
struct fit_meminfo {
	uint64_t total;			/* MemTotal: what the kernel manages */
	uint64_t free;			/* MemFree */
	uint64_t anon;			/* Active(anon) + Inactive(anon): tmpfs and shmem too */
	uint64_t file;			/* Active(file) + Inactive(file) */
	uint64_t slab_reclaimable;	/* SReclaimable (0 when absent) */
};

/* an active swap area other than the target that the kernel swaps out to first or in turn */
struct fit_area {
	uint64_t free;			/* bytes it can still take: Size - Used */
	int prio;			/* at least the target's */
	int in_memory;			/* zram: what it takes stays in memory, compressed */
};

struct fit_input {
	struct fit_meminfo mem;
	uint64_t present;		/* present memory (sysmem.h), bytes; 0: unknown */
	uint64_t extra;			/* memory taken from MemFree before the snapshot
					 * (torpor-suspend's buffers, locked later) */
	uint64_t image_size;		/* /sys/power/image_size as the snapshot will see it */
	uint64_t sample_raw;		/* bytes of memory compressed as a sample; 0: none */
	uint64_t sample_stored;		/* the bytes they took, page-padded as the writer stores */
	uint64_t map_bytes;		/* torpor's map (the meta blob), at most */
	uint32_t page_size;
	struct fit_area areas[FIT_MAX_AREAS];	/* fitcheck_set_areas() */
	size_t nr_areas;		/* 0: the target takes every page swapped out */
	int target_prio;
};

struct fit_estimate {
	uint64_t in_use;		/* saveable memory now */
	uint64_t image;			/* memory left in the snapshot after the kernel shrank it */
	uint64_t swapped;		/* memory that shrinking swaps out, to every area */
	uint64_t swapped_here;		/* of it, what the target takes, as it is */
	uint64_t pool;			/* what zram's new compressed copies add to the image */
	uint64_t stored;		/* the snapshot stream compressed, with torpor's map */
	uint64_t need;			/* stored + swapped_here */
	uint64_t margin;		/* free space asked for beyond need */
	uint32_t ratio_permille;	/* the sample's stored / raw, 1000 without one */
};

int fitcheck_parse_meminfo(const char *text, struct fit_meminfo *ret);
int fitcheck_read_meminfo(const char *path, struct fit_meminfo *ret);
int fitcheck_set_areas(struct fit_input *in, const struct swap_entry *sw, size_t n,
		       const char *target_path);
uint64_t fitcheck_stored(const struct fit_input *in, uint64_t image);
uint64_t fitcheck_max_size(const struct fit_input *in);
uint64_t fitcheck_cache_floor(const struct fit_input *in);
void fitcheck_estimate(const struct fit_input *in, struct fit_estimate *ret);
uint64_t fitcheck_margin(uint64_t need);
int fitcheck_fits(const struct fit_estimate *e, uint64_t free_bytes);
int fitcheck_advise(const struct fit_input *in, uint64_t free_bytes, uint64_t *ret_image_size);

#endif
