// SPDX-License-Identifier: GPL-2.0-only
/*
 * hash.c - make bench-hash: MB/s of format 1's CRC-32 (core/crc32.c,
 * slicing-by-8) and format 2's XXH3-64 (core/hash.c) over one 256 KiB block,
 * the default block size, hashed again and again for about half a second each.
 * Built twice, with each build's libcore.a: glibc as torpor-suspend is, klcc
 * as torpor-resume is.  Integers only: klibc's printf has no %f.
 * Usage: hash-bench NAME
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include "crc32.h"
#include "hash.h"

#define BLOCK	(256u << 10)

static uint64_t now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000000 + (uint64_t)tv.tv_usec;
}

static volatile uint64_t sink;

/* MB/s (10^6 bytes a second) of CRC-32 (@crc) or XXH3-64 over @buf */
static uint64_t rate(int crc, const uint8_t *buf)
{
	uint64_t t0 = now_us(), t, bytes = 0;

	do {
		sink += crc ? crc32_update(0, buf, BLOCK) : hash64(buf, BLOCK);
		bytes += BLOCK;
		t = now_us();
	} while (t - t0 < 500000);
	return bytes / (t - t0);
}

int main(int argc, char **argv)
{
	uint8_t *buf = malloc(BLOCK);
	uint64_t s = 0x9e3779b97f4a7c15ull, c, x;
	uint32_t i;

	if (!buf || argc != 2)
		return 1;
	for (i = 0; i < BLOCK; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		buf[i] = (uint8_t)(s >> 56);
	}
	(void)rate(1, buf);			/* warm up: tables, caches, frequency */
	c = rate(1, buf);
	x = rate(0, buf);
	printf("%-6s crc32 %6llu MB/s   xxh3 %6llu MB/s   (%llu.%llux)\n", argv[1],
	       (unsigned long long)c, (unsigned long long)x, (unsigned long long)(x / c),
	       (unsigned long long)(x * 10 / c % 10));
	free(buf);
	return 0;
}
