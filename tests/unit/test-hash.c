// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-hash.c - core/hash.c, in both builds, against libxxhash's XXH3_64bits()
 *
 * This program links the glibc build of core/hash.c and the shared libxxhash
 * (-lxxhash: the library, compiled by Debian, not our inline copy), and runs
 * build/klibc/tests/klibc-hash, the klcc build linked as torpor-resume is, for
 * the same inputs (hashvec.h).  Every value must be the library's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "hash.h"
#include "hashvec.h"
#include "tap.h"

#define KLIBC_HASH "build/klibc/tests/klibc-hash"

static uint8_t *buf;

/* hash64() of the glibc build on every case */
static void test_glibc(void)
{
	struct hashvec v;
	const uint8_t *p;
	unsigned int i, bad = 0;
	uint64_t want = 0, got = 0;

	for (i = 0; i < HASHVEC_N; i++) {
		hashvec_case(i, &v);
		p = hashvec_fill(buf, i, &v);
		if (hash64(p, v.len) != XXH3_64bits(p, v.len) && !bad++) {
			want = XXH3_64bits(p, v.len);
			got = hash64(p, v.len);
			printf("# case %u (%zu bytes at +%u): %016llx, libxxhash %016llx\n", i, v.len,
			       v.align, (unsigned long long)got, (unsigned long long)want);
		}
	}
	tap_ok(!bad, "hash: glibc build equals libxxhash on %u inputs (0 B to 4 MiB, 64 alignments)",
	       HASHVEC_N);
}

/* the klcc build, through its own program */
static void test_klibc(void)
{
	const char *path = getenv("TORPOR_KLIBC_HASH") ? getenv("TORPOR_KLIBC_HASH") : KLIBC_HASH;
	struct hashvec v;
	const uint8_t *p;
	unsigned int i, n = 0, bad = 0;
	unsigned long long h;
	FILE *f;

	f = popen(path, "r");
	if (!f) {
		tap_ok(0, "hash: run %s", path);
		return;
	}
	while (fscanf(f, "%u %llx", &i, &h) == 2) {
		if (i != n++ || i >= HASHVEC_N)
			break;
		hashvec_case(i, &v);
		p = hashvec_fill(buf, i, &v);
		if (h != XXH3_64bits(p, v.len) && !bad++)
			printf("# case %u (%zu bytes at +%u): klibc %016llx, libxxhash %016llx\n", i,
			       v.len, v.align, h, (unsigned long long)XXH3_64bits(p, v.len));
	}
	tap_ok(pclose(f) == 0 && n == HASHVEC_N,
	       "hash: %s ran and printed every case (%u of %u)", path, n, HASHVEC_N);
	tap_ok(n == HASHVEC_N && !bad, "hash: klibc build equals libxxhash on %u inputs", n);
}

int main(void)
{
	uint8_t block[4096];
	unsigned int i, same = 0;
	uint64_t h;

	buf = malloc(HASHVEC_MAX + HASHVEC_SLACK);
	if (!buf)
		return 1;
	/* the empty input's value, from xxhash's own sanity checks */
	tap_ok(hash64("", 0) == 0x2d06800538d394c2ull, "hash: XXH3-64 of no bytes is 2d06800538d394c2");
	test_glibc();
	test_klibc();
	memset(block, 0x5a, sizeof(block));
	h = hash64(block, sizeof(block));
	for (i = 0; i < sizeof(block) * 8; i++) {
		block[i / 8] ^= 1 << (i % 8);
		same += hash64(block, sizeof(block)) == h;
		block[i / 8] ^= 1 << (i % 8);
	}
	tap_ok(!same, "hash: every single flipped bit of a page changes the hash");
	free(buf);
	return tap_done();
}
