// SPDX-License-Identifier: GPL-2.0-only
/*
 * imgpatch: rewrite one extent of a torpor image file and fix up the checksums, so
 * that the image is well-formed but points somewhere else (42-truncated: a header
 * or map that points outside the device must be caught by the bounds checks, not
 * by a checksum).  Host side only; works on a copy of a swap disk image.
 *
 * Usage: imgpatch FILE root|map INDEX OFFSET PAGES
 *   root: meta extent INDEX of the root record (at byte 2048 of page 0)
 *   map:  data extent INDEX of the image map
 * OFFSET is a byte offset on the device, PAGES a length in pages.  The layout
 * (struct torpor_root, struct torpor_meta) is the one in core/image.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT_AT 2048
#define R_META_BYTES 24
#define R_META_CRC 32
#define R_NR_EXT 36
#define R_EXT 40
#define R_CRC 1076
#define R_SIZE 1080
#define M_NR_EXT 60
#define M_SIZE 288
#define PAGE 4096

static uint32_t crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return ~c;
}

static uint64_t get(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put(uint8_t *p, uint64_t v, int n)
{
	while (n--) {
		*p++ = (uint8_t)v;
		v >>= 8;
	}
}

/* read (write when @wr) the meta blob along the root's meta extents */
static int meta_io(FILE *f, const uint8_t *root, uint8_t *meta, size_t len, int wr)
{
	uint32_t i, n = (uint32_t)get(root + R_NR_EXT, 4);
	size_t done = 0, chunk;

	for (i = 0; i < n && done < len; i++) {
		chunk = get(root + R_EXT + 16 * i + 8, 4) * PAGE;
		if (chunk > len - done)
			chunk = len - done;
		if (fseeko(f, (off_t)get(root + R_EXT + 16 * i, 8), SEEK_SET) ||
		    (wr ? fwrite(meta + done, 1, chunk, f) : fread(meta + done, 1, chunk, f)) != chunk)
			return -1;
		done += chunk;
	}
	return done == len ? 0 : -1;
}

int main(int argc, char **argv)
{
	uint8_t root[R_SIZE], *meta;
	uint64_t len, off, pages;
	uint32_t idx;
	FILE *f;

	if (argc != 6 || (strcmp(argv[2], "root") && strcmp(argv[2], "map"))) {
		fprintf(stderr, "usage: imgpatch FILE root|map INDEX OFFSET PAGES\n");
		return 2;
	}
	idx = (uint32_t)strtoul(argv[3], NULL, 0);
	off = strtoull(argv[4], NULL, 0);
	pages = strtoull(argv[5], NULL, 0);
	f = fopen(argv[1], "r+b");
	if (!f || fseek(f, ROOT_AT, SEEK_SET) || fread(root, 1, R_SIZE, f) != R_SIZE) {
		perror(argv[1]);
		return 1;
	}
	len = get(root + R_META_BYTES, 8);
	meta = malloc(len ? len : 1);
	if (!meta || len < M_SIZE || meta_io(f, root, meta, len, 0)) {
		fprintf(stderr, "imgpatch: cannot read the image map\n");
		return 1;
	}
	if (!strcmp(argv[2], "map")) {
		if (idx >= get(meta + M_NR_EXT, 4)) {
			fprintf(stderr, "imgpatch: no data extent %u\n", idx);
			return 1;
		}
		put(meta + M_SIZE + 16 * idx, off, 8);
		put(meta + M_SIZE + 16 * idx + 8, pages, 4);
		if (meta_io(f, root, meta, len, 1))
			return 1;
		put(root + R_META_CRC, crc32(meta, len), 4);
	} else {
		if (idx >= get(root + R_NR_EXT, 4)) {
			fprintf(stderr, "imgpatch: no meta extent %u\n", idx);
			return 1;
		}
		put(root + R_EXT + 16 * idx, off, 8);
		put(root + R_EXT + 16 * idx + 8, pages, 4);
	}
	put(root + R_CRC, 0, 4);
	put(root + R_CRC, crc32(root, R_SIZE), 4);
	if (fseek(f, ROOT_AT, SEEK_SET) || fwrite(root, 1, R_SIZE, f) != R_SIZE || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	printf("# imgpatch: %s extent %u of %s now at byte %llu, %llu pages\n", argv[2], idx,
	       argv[1], (unsigned long long)off, (unsigned long long)pages);
	return 0;
}
