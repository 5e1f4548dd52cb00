/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hashvec.h - the inputs test-hash.c and klibc-hash.c both hash: case i is a
 * length, an alignment and a content made from i alone, so the two programs
 * (one glibc, one klibc) build the same bytes without exchanging them.
 *
 * Every length up to 2048 (all of XXH3's short-input paths and the first
 * stripes and blocks of the long one), 64 alignments of one length, lengths
 * either side of each 1 KiB block boundary up to 64 KiB, random lengths up to
 * 1 MiB, and whole blocks of the largest size the format allows.
 */
#ifndef TESTS_HASHVEC_H
#define TESTS_HASHVEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HASHVEC_SHORT	2049		/* lengths 0..2048 */
#define HASHVEC_ALIGNS	64
#define HASHVEC_EDGES	(64 * 3)	/* 1 KiB * k - 1, + 0, + 1 */
#define HASHVEC_RANDOM	200
#define HASHVEC_BIG	3
#define HASHVEC_N	(HASHVEC_SHORT + HASHVEC_ALIGNS + HASHVEC_EDGES + HASHVEC_RANDOM + HASHVEC_BIG)
#define HASHVEC_MAX	(4u << 20)	/* TORPOR_BLOCK_BYTES_MAX */
#define HASHVEC_SLACK	64		/* the buffer holds HASHVEC_MAX + this */

enum hashvec_kind { HASHVEC_RANDOM_BYTES, HASHVEC_ZERO, HASHVEC_ONES };

struct hashvec {
	size_t len;
	unsigned int align;		/* offset of the input in the buffer */
	enum hashvec_kind kind;
};

/* splitmix64: a different stream for each case */
static inline uint64_t hashvec_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void hashvec_case(unsigned int i, struct hashvec *v)
{
	uint64_t s = i;
	unsigned int j = i;

	v->kind = i % 13 == 5 ? HASHVEC_ZERO : i % 17 == 3 ? HASHVEC_ONES : HASHVEC_RANDOM_BYTES;
	if (j < HASHVEC_SHORT) {
		v->len = j;
		v->align = j % 16;
		return;
	}
	j -= HASHVEC_SHORT;
	if (j < HASHVEC_ALIGNS) {
		v->len = 4096 + 77;
		v->align = j;
		return;
	}
	j -= HASHVEC_ALIGNS;
	if (j < HASHVEC_EDGES) {
		v->len = 1024 * (j / 3 + 1) + j % 3 - 1;
		v->align = j % 8;
		return;
	}
	j -= HASHVEC_EDGES;
	if (j < HASHVEC_RANDOM) {
		v->len = hashvec_rng(&s) % (1u << 20);
		v->align = hashvec_rng(&s) % HASHVEC_SLACK;
		return;
	}
	j -= HASHVEC_RANDOM;
	v->len = HASHVEC_MAX - (j == 2 ? 4096 : 0);
	v->align = j == 1 ? 3 : 0;
	v->kind = j == 1 ? HASHVEC_ZERO : HASHVEC_RANDOM_BYTES;
}

/* Fill @buf (HASHVEC_MAX + HASHVEC_SLACK bytes) for case @i; returns where its input starts. */
static inline const uint8_t *hashvec_fill(uint8_t *buf, unsigned int i, const struct hashvec *v)
{
	uint64_t s = (uint64_t)i << 32 | 0x5eed, r;
	uint8_t *p = buf + v->align;
	size_t k;

	if (v->kind != HASHVEC_RANDOM_BYTES) {
		memset(p, v->kind == HASHVEC_ZERO ? 0 : 0xff, v->len);
		return p;
	}
	for (k = 0; k + 8 <= v->len; k += 8) {
		r = hashvec_rng(&s);
		memcpy(p + k, &r, 8);
	}
	r = hashvec_rng(&s);
	memcpy(p + k, &r, v->len - k);
	return p;
}

#endif
