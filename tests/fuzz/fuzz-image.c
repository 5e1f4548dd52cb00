// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-image.c - libFuzzer target over everything torpor-resume parses from disk
 *
 * The input is a swap header page followed by a meta blob; the page is also
 * read for the note of a hibernation that was not resumed.  The first byte
 * picks the device size, so extents are checked against small and large
 * devices.  Decoding must never crash, hang or read out of bounds; whatever
 * decodes must satisfy the invariants the loader relies on.
 */
/* fuzz-sources: core/image.c core/crc32.c */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "image.h"

#define PS 4096

static void check_meta(const struct torpor_image *img, uint64_t dev)
{
	const struct torpor_meta *m = &img->meta;
	uint64_t pages = 0, bytes = 0;
	uint32_t i;

	for (i = 0; i < m->nr_extents; i++) {
		if (img->extents[i].offset + (uint64_t)img->extents[i].pages * PS > dev)
			abort();
		pages += img->extents[i].pages;
	}
	if (pages != m->data_pages)
		abort();
	for (i = 0; i < m->nr_blocks; i++) {
		if (image_block_raw_bytes(m, i) == 0 ||
		    image_block_raw_bytes(m, i) > (uint64_t)m->block_pages * m->page_size)
			abort();
		bytes += img->blocks[i].stored_len;
	}
	if (bytes != m->stored_bytes)
		abort();
}

/* A note that decodes is one torpor-resume may print as it is: short printable lines. */
static void check_lost(const uint8_t *page)
{
	static struct torpor_lost n;
	size_t i;

	if (image_lost_decode(page, PS, &n) != 0)
		return;
	if (image_classify(page, PS) != IMAGE_SIG_SWAP || !n.reason[0] ||
	    memchr(n.reason, 0, sizeof(n.reason)) == NULL ||
	    memchr(n.release, 0, sizeof(n.release)) == NULL)
		abort();
	for (i = 0; n.reason[i]; i++)
		if (n.reason[i] < 0x20 || n.reason[i] > 0x7e)
			abort();
	for (i = 0; n.release[i]; i++)
		if (n.release[i] < 0x20 || n.release[i] > 0x7e)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t page[PS];
	struct torpor_image img;
	uint64_t dev;

	if (size < 1)
		return 0;
	dev = (uint64_t)PS << (data[0] % 40);
	data++;
	size--;
	memset(page, 0, PS);
	memcpy(page, data, size < PS ? size : PS);
	memset(&img, 0, sizeof(img));
	if (image_root_decode(page, PS, &img.root) == 0) {
		if (img.root.nr_meta_extents > TORPOR_ROOT_EXTENTS || img.root.meta_bytes > TORPOR_META_MAX)
			abort();
		(void)image_extents_check(img.root.meta_extents, img.root.nr_meta_extents, PS, dev, 0,
					  NULL);
	}
	check_lost(page);
	if (size > PS) {
		/* fix the meta to claim exactly the rest of the input, so deeper paths are reached */
		if (image_meta_decode(data + PS, size - PS, dev, 0, &img) == 0) {
			check_meta(&img, dev);
			image_free(&img);
		}
	}
	return 0;
}
