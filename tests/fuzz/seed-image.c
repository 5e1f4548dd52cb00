// SPDX-License-Identifier: GPL-2.0-only
/*
 * seed-image.c - writes tests/fuzz/corpus/image/valid-image, the seed of
 * fuzz-image.c: a device-size byte, a swap header page with a root record, and
 * the meta blob it names, all consistent, in the current format; and, given a
 * second file, lost-note: a swap header page holding the note of a hibernation
 * that was not resumed.  Run it again whenever core/image.h changes:
 *   make build/seed-image && build/seed-image tests/fuzz/corpus/image/valid-image \
 *	tests/fuzz/corpus/image/lost-note
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "image.h"

#define PS	4096
#define DEV_SEL	20		/* fuzz-image: device of PS << 20 bytes, 4 GiB */

/* The note's seed: a swap page (mkswap's signature) with the note where a root would be. */
static int write_lost(const char *path)
{
	static uint8_t page[PS];
	static struct torpor_lost n, check;
	uint8_t sel = 0;
	FILE *f;

	n.created = 1700000000;
	n.noted = 1700000600;
	n.cause = TORPOR_LOST_LATE_CHECK;
	strcpy(n.release, "6.12.117-amd64");
	strcpy(n.reason, "ext4 1234 on /dev/vdc was mounted since hibernation");
	page[1024] = 1;
	memcpy(page + PS - TORPOR_SIG_LEN, SWAP_SIG, TORPOR_SIG_LEN);
	image_lost_encode(&n, page, PS);
	if (image_lost_decode(page, PS, &check) < 0) {
		fprintf(stderr, "seed-image: the note does not decode\n");
		return 1;
	}
	f = fopen(path, "wb");
	if (!f || fwrite(&sel, 1, 1, f) != 1 || fwrite(page, 1, PS, f) != PS || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t page[PS];
	struct torpor_block blocks[2] = { { 3000, 0, 0 }, { 5 * PS, TORPOR_BLOCK_RAW, 0 } };
	struct torpor_extent ext = { 512 * PS, 6, 0 };
	struct torpor_fsrec fs = { 0xfe01, TORPOR_FS_EXT, { 1, 2, 3, 4 }, 7, 1700000000, 1700000000 };
	struct torpor_image img, check;
	struct torpor_root root;
	uint8_t *meta, sel = DEV_SEL;
	size_t len = image_meta_bytes(1, 2, 1);
	FILE *f;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: seed-image FILE [NOTE-FILE]\n");
		return 2;
	}
	memset(&img, 0, sizeof(img));
	img.meta.page_size = PS;
	img.meta.algorithm = TORPOR_ALG_LZ4;
	img.meta.block_pages = TORPOR_BLOCK_PAGES;
	img.meta.stream_bytes = (TORPOR_BLOCK_PAGES + 5) * PS;
	img.meta.stored_bytes = 3000 + 5 * PS;
	img.meta.data_pages = 6;
	img.meta.nr_blocks = 2;
	img.meta.nr_extents = 1;
	img.meta.nr_fs = 1;
	img.meta.mem_pages = 262144;
	img.meta.created = 1700000000;
	strcpy(img.meta.release, "6.1.0-57-amd64");
	strcpy(img.meta.kversion, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3");
	strcpy(img.meta.machine, "x86_64");
	blocks[0].hash = 0x0123456789abcdefull;
	blocks[1].hash = 0xfedcba9876543210ull;
	img.blocks = blocks;
	img.extents = &ext;
	img.fs = &fs;
	meta = calloc(1, len);
	if (!meta || image_meta_encode(&img, meta, len) < 0)
		return 1;
	memset(&root, 0, sizeof(root));
	root.version = TORPOR_FORMAT_VERSION;
	root.page_size = PS;
	root.meta_bytes = len;
	root.meta_hash = hash64(meta, len);
	root.nr_meta_extents = 1;
	root.meta_extents[0].offset = 2 * PS;
	root.meta_extents[0].pages = 1;
	memcpy(root.orig_sig, SWAP_SIG, 10);
	page[1024] = 1;
	image_root_encode(&root, page, PS);
	memset(&check, 0, sizeof(check));
	if (image_root_decode(page, PS, &check.root) < 0 ||
	    image_meta_decode(meta, len, (uint64_t)PS << DEV_SEL, 0, &check) < 0) {
		fprintf(stderr, "seed-image: the seed does not decode\n");
		return 1;
	}
	image_free(&check);
	f = fopen(argv[1], "wb");
	if (!f || fwrite(&sel, 1, 1, f) != 1 || fwrite(page, 1, PS, f) != PS ||
	    fwrite(meta, 1, len, f) != len || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	free(meta);
	return argc == 3 ? write_lost(argv[2]) : 0;
}
