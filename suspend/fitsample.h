/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fitsample.h - how well memory compresses, measured on a sample before the freeze
 *
 * A few blocks of pages in use, spread over all of RAM, read from /proc/kcore
 * (its ELF program headers give each RAM range's physical address) and
 * compressed as the writer will compress them.  /proc/kpageflags tells which
 * pages are in use: the snapshot leaves free pages out, and they are often
 * zero, which would make memory look more compressible than the image is.
 * Both files are root's; /proc/kcore is missing without CONFIG_PROC_KCORE and
 * refused under lockdown: then there is no sample (the caller assumes none
 * compresses).
 */
#ifndef SUSPEND_FITSAMPLE_H
#define SUSPEND_FITSAMPLE_H

#include <stddef.h>
#include <stdint.h>

#define FITSAMPLE_KCORE		"/proc/kcore"
#define FITSAMPLE_KPAGEFLAGS	"/proc/kpageflags"
#define FITSAMPLE_WINDOWS	32	/* blocks sampled at most, a power of two */
#define FITSAMPLE_MIN_BLOCKS	4	/* fewer blocks found: no sample */
#define FITSAMPLE_SCAN_BLOCKS	16	/* a window looks this many blocks' pages far */
#define FITSAMPLE_RAM_MAX	256	/* RAM ranges of /proc/kcore considered */
/* past the budget, windows go on this much CPU time more while fewer than MIN_BLOCKS found */
#define FITSAMPLE_MORE_NS	(200 * 1000000ull)

/* a RAM range of /proc/kcore */
struct fit_ram {
	uint64_t paddr;			/* physical address, page aligned */
	uint64_t bytes;			/* whole pages */
	uint64_t file_off;		/* where /proc/kcore holds it */
};

struct fit_sample {
	uint64_t raw;			/* bytes of memory compressed */
	uint64_t stored;		/* what they took, page-padded */
	unsigned blocks;		/* blocks compressed */
	unsigned windows;		/* windows looked at (some hold no page in use) */
	uint64_t ns;			/* time taken */
	uint64_t cpu_ns;		/* CPU time taken (the budget's measure) */
};

/* packs @len bytes at @raw as the writer would; the padded size, 0 on failure */
typedef size_t (*fitsample_pack_fn)(void *ctx, const uint8_t *raw, size_t len);

int fitsample_parse_kcore(const uint8_t *buf, size_t len, uint32_t page_size,
			  struct fit_ram *ram, size_t cap, size_t *ret_n);
int fitsample_window(const struct fit_ram *ram, size_t n, uint32_t page_size, unsigned i,
		     unsigned k, size_t *ret_range, uint64_t *ret_page);
int fitsample_in_use(uint64_t flags);
/* What fitsample_take() took, when it could read */
enum fitsample_result {
	FITSAMPLE_TAKEN,	/* enough blocks to judge the rest by */
	FITSAMPLE_TOO_FEW,	/* fewer than FITSAMPLE_MIN_BLOCKS found in time */
};

int fitsample_take(const char *kcore, const char *kpageflags, uint32_t block_pages,
		   uint32_t page_size, uint64_t budget_ns, fitsample_pack_fn pack, void *ctx,
		   struct fit_sample *ret);

#endif
