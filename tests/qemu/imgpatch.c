// SPDX-License-Identifier: GPL-2.0-only
/*
 * imgpatch: rewrite one extent of a torpor image file and fix up the checksums, so
 * that the image is well-formed but points somewhere else (44-truncated: a header
 * or map that points outside the device must be caught by the bounds checks, not
 * by a checksum); or rewrite the root record as format 1 wrote it (43-corrupt: an
 * older torpor's image must be refused for its version).  Host side only; works on
 * a copy of a swap disk image.  Build with -lxxhash.
 *
 * Usage: imgpatch FILE root|map INDEX OFFSET PAGES
 *        imgpatch FILE v1
 *   root: meta extent INDEX of the root record (at byte 2048 of page 0)
 *   map:  data extent INDEX of the image map
 *   v1:   the root record in format 1's layout (1080 bytes, CRC-32 of the meta blob);
 *         the meta blob is left as it is: format 1 is refused on its root
 * OFFSET is a byte offset on the device, PAGES a length in pages.  The layout
 * (struct torpor_root, struct torpor_meta) is the one in core/image.h, format 2.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define ROOT_AT 2048
#define R_VERSION 8
#define R_ROOT_SIZE 12
#define R_META_BYTES 24
#define R_META_HASH 32
#define R_NR_EXT 40
#define R_EXT 48
#define R_ORIG_SIG 1072
#define R_CRC 1084
#define R_SIZE 1088
/* format 1's root record */
#define V1_META_CRC 32
#define V1_NR_EXT 36
#define V1_EXT 40
#define V1_ORIG_SIG 1064
#define V1_CRC 1076
#define V1_SIZE 1080
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

/* @root (format 2) rewritten in place as format 1's record, @meta its meta blob */
static void to_v1(uint8_t *root, const uint8_t *meta, size_t len)
{
	uint8_t v1[V1_SIZE];
	uint32_t n = (uint32_t)get(root + R_NR_EXT, 4);

	memset(v1, 0, sizeof(v1));
	memcpy(v1, root, R_META_BYTES + 8);		/* magic .. meta_bytes */
	put(v1 + R_VERSION, 1, 4);
	put(v1 + R_ROOT_SIZE, V1_SIZE, 4);
	put(v1 + V1_META_CRC, crc32(meta, len), 4);
	put(v1 + V1_NR_EXT, n, 4);
	memcpy(v1 + V1_EXT, root + R_EXT, 16 * 64);
	memcpy(v1 + V1_ORIG_SIG, root + R_ORIG_SIG, 10);
	put(v1 + V1_CRC, crc32(v1, V1_SIZE), 4);
	memset(root, 0, R_SIZE);
	memcpy(root, v1, V1_SIZE);
}

int main(int argc, char **argv)
{
	uint8_t root[R_SIZE], *meta;
	uint64_t len, off = 0, pages = 0;
	uint32_t idx = 0;
	int v1 = argc == 3 && !strcmp(argv[2], "v1");
	FILE *f;

	if (!v1 && (argc != 6 || (strcmp(argv[2], "root") && strcmp(argv[2], "map")))) {
		fprintf(stderr, "usage: imgpatch FILE root|map INDEX OFFSET PAGES\n"
			"       imgpatch FILE v1\n");
		return 2;
	}
	if (!v1) {
		idx = (uint32_t)strtoul(argv[3], NULL, 0);
		off = strtoull(argv[4], NULL, 0);
		pages = strtoull(argv[5], NULL, 0);
	}
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
	if (get(root + R_VERSION, 4) != 2 || get(root + R_ROOT_SIZE, 4) != R_SIZE) {
		fprintf(stderr, "imgpatch: %s holds no format 2 root record\n", argv[1]);
		return 1;
	}
	if (v1) {
		to_v1(root, meta, len);
	} else if (!strcmp(argv[2], "map")) {
		if (idx >= get(meta + M_NR_EXT, 4)) {
			fprintf(stderr, "imgpatch: no data extent %u\n", idx);
			return 1;
		}
		put(meta + M_SIZE + 16 * idx, off, 8);
		put(meta + M_SIZE + 16 * idx + 8, pages, 4);
		if (meta_io(f, root, meta, len, 1))
			return 1;
		put(root + R_META_HASH, XXH3_64bits(meta, len), 8);
	} else {
		if (idx >= get(root + R_NR_EXT, 4)) {
			fprintf(stderr, "imgpatch: no meta extent %u\n", idx);
			return 1;
		}
		put(root + R_EXT + 16 * idx, off, 8);
		put(root + R_EXT + 16 * idx + 8, pages, 4);
	}
	if (!v1) {
		put(root + R_CRC, 0, 4);
		put(root + R_CRC, crc32(root, R_SIZE), 4);
	}
	if (fseek(f, ROOT_AT, SEEK_SET) || fwrite(root, 1, R_SIZE, f) != R_SIZE || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	if (v1) {
		printf("# imgpatch: the root record of %s is now format 1's\n", argv[1]);
		return 0;
	}
	printf("# imgpatch: %s extent %u of %s now at byte %llu, %llu pages\n", argv[2], idx,
	       argv[1], (unsigned long long)off, (unsigned long long)pages);
	return 0;
}
