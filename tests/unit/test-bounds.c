// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bounds.c - torpor-suspend's memory stays bounded whatever the machine
 *
 * The block size grows with memory so the tables stay small: these checks
 * compute the buffers writer_init() takes for machines from 1 GiB to 1 TiB
 * (really allocating them) and the swap estimate after a full swap area.
 */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "writer.h"

#define PS 4096
#define GIB (1ULL << 30)
#define MIB_OF(x) ((unsigned long long)(x) >> 20)

static void test_block_pages(void)
{
	static const struct {
		unsigned long long gib;
		uint32_t pages;
	} c[] = { { 1, 64 }, { 16, 64 }, { 64, 64 }, { 65, 128 }, { 256, 256 }, { 512, 512 },
		  { 1024, 1024 } };
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		tap_ok(writer_block_pages(c[i].gib * GIB + (64u << 20), PS) == c[i].pages,
		       "bounds: %llu GiB of memory gives blocks of %u pages (%u)", c[i].gib,
		       c[i].pages, writer_block_pages(c[i].gib * GIB + (64u << 20), PS));
	tap_ok(writer_block_pages(2048 * GIB, PS) == 0, "bounds: 2 TiB is beyond the format");
	tap_ok(writer_block_pages(1024 * GIB, 65536) == 64,
	       "bounds: 64 KiB pages keep blocks at 4 MiB");
}

/* Machines up to 1 TiB: what writer_init() allocates stays well under the 64 MiB lock budget. */
static void test_writer_memory(void)
{
	static const unsigned long long gib[] = { 1, 64, 256, 1024 };
	struct writer w;
	size_t i, bytes;
	int r;

	for (i = 0; i < sizeof(gib) / sizeof(gib[0]); i++) {
		r = writer_init(&w, -1, 0, PS, gib[i] * GIB + (64u << 20));
		bytes = r == 0 ? writer_buffer_bytes(&w) : 0;
		tap_ok(r == 0 && bytes <= (32u << 20),
		       "bounds: %llu GiB machine: %llu MiB of buffers and tables (%u-page blocks)",
		       gib[i], MIB_OF(bytes), r == 0 ? w.block_pages : 0);
		if (r == 0)
			writer_release(&w);
	}
	/* the most compression threads, the largest blocks: still under the 64 MiB */
	for (i = 0; i < sizeof(gib) / sizeof(gib[0]); i++) {
		struct pack_setting hc = { PACK_LZ4HC, 12 };

		r = writer_init(&w, -1, 0, PS, gib[i] * GIB + (64u << 20));
		if (r == 0)
			r = writer_setup_pack(&w, &hc, PACK_THREADS_MAX);
		bytes = r == 0 ? writer_buffer_bytes(&w) : 0;
		tap_ok(r == 0 && bytes <= (56u << 20) && w.pool.nr_jobs >= 2,
		       "bounds: %llu GiB machine, %d LZ4HC threads: %llu MiB of buffers and "
		       "tables, %u jobs", gib[i], PACK_THREADS_MAX, MIB_OF(bytes),
		       r == 0 ? w.pool.nr_jobs : 0);
		writer_release(&w);
	}
	tap_ok(writer_init(&w, -1, 0, PS, 2048 * GIB) == -EFBIG,
	       "bounds: writer_init refuses a 2 TiB machine with -EFBIG");
}

static void test_estimate(void)
{
	struct writer w;

	memset(&w, 0, sizeof(w));
	w.ps = PS;
	w.img.meta.stream_bytes = 100u << 20;
	tap_ok(writer_estimate_bytes(&w) == 100u << 20,
	       "bounds: estimate before any block is the stream size");
	w.consumed = 25u << 20;
	w.img.meta.data_pages = (10u << 20) / PS;
	w.staged = 2u << 20;
	tap_ok(writer_estimate_bytes(&w) == 48u << 20,
	       "bounds: 12 MiB written for a quarter of the stream estimates 48 MiB (%llu)",
	       MIB_OF(writer_estimate_bytes(&w)));
}

int main(void)
{
	test_block_pages();
	test_writer_memory();
	test_estimate();
	return tap_done();
}
