// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-image.c - libFuzzer target over everything torpor-resume parses from disk
 *
 * The input is a swap header page followed by a meta blob.  The first byte
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
	if (size > PS) {
		/* fix the meta to claim exactly the rest of the input, so deeper paths are reached */
		if (image_meta_decode(data + PS, size - PS, dev, 0, &img) == 0) {
			check_meta(&img, dev);
			image_free(&img);
		}
	}
	return 0;
}
