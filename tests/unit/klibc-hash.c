// SPDX-License-Identifier: GPL-2.0-only
/*
 * klibc-hash.c - core/hash.c as torpor-resume runs it: built with klcc, linked
 * with build/klibc/libcore.a, static.  Prints "CASE HASH" for every input of
 * hashvec.h; test-hash.c compares each with libxxhash.  Not a test by itself.
 * Usage: klibc-hash
 */
#include <stdio.h>
#include <stdlib.h>

#include "hash.h"
#include "hashvec.h"

int main(void)
{
	struct hashvec v;
	const uint8_t *p;
	uint8_t *buf = malloc(HASHVEC_MAX + HASHVEC_SLACK);
	unsigned int i;

	if (!buf) {
		fprintf(stderr, "klibc-hash: out of memory\n");
		return 1;
	}
	for (i = 0; i < HASHVEC_N; i++) {
		hashvec_case(i, &v);
		p = hashvec_fill(buf, i, &v);
		printf("%u %llx\n", i, (unsigned long long)hash64(p, v.len));
	}
	free(buf);
	return fflush(stdout) ? 1 : 0;
}
