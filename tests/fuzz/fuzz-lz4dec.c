// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-lz4dec.c - libFuzzer target for lz4dec_block()
 *
 * The input is one raw LZ4 block, decoded into a fixed 256 KiB buffer (the block size
 * torpor uses).  libFuzzer hands over an exactly sized heap copy, so ASan sees any read
 * past the input; the outputs are heap buffers of exactly the size under test.  When the
 * block decodes, the target also checks that:
 *  - it decodes the same into a buffer of exactly that size, and fails one byte short;
 *  - LZ4_decompress_safe() agrees with that size as its capacity;
 *  - liblz4 re-compresses the output and lz4dec_block() decodes that back to it.
 * When it does not, LZ4_decompress_safe() must not decode it into a buffer of exactly the
 * size it yields either, unless it breaks a rule liblz4 does not enforce (spec_ok()).
 */
/* fuzz-sources: core/lz4dec.c */
/* fuzz-libs: -llz4 */
#include <errno.h>
#include <lz4.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lz4dec.h"
#include "../unit/lz4spec.h"

#define CAP	(256 * 1024)

static void rejected(const uint8_t *data, size_t size, uint8_t *scratch)
{
	int m;

	if (size > INT32_MAX)
		return;
	m = LZ4_decompress_safe((const char *)data, (char *)scratch, (int)size, CAP);
	if (m < 0)
		return;
	if (LZ4_decompress_safe((const char *)data, (char *)scratch, (int)size, m) != m)
		return;
	check(!spec_ok(data, size));
}

static void accepted(const uint8_t *data, size_t size, const uint8_t *out, size_t n)
{
	uint8_t *exact = malloc(n ? n : 1), *c;
	int bound, clen;

	check(exact);
	check(lz4dec_block(data, size, exact, n) == (ssize_t)n);
	check(!memcmp(exact, out, n));
	if (n) {
		/* a fresh buffer one byte short: ASan catches a write at its end */
		free(exact);
		exact = malloc(n - 1 ? n - 1 : 1);
		check(exact);
		check(lz4dec_block(data, size, exact, n - 1) < 0);
	}
	free(exact);

	exact = malloc(n ? n : 1);
	check(exact);
	check(LZ4_decompress_safe((const char *)data, (char *)exact, (int)size, n ? (int)n : 1) ==
	      (int)n);
	check(!memcmp(exact, out, n));

	bound = LZ4_compressBound((int)n);
	c = malloc((size_t)bound);
	check(c);
	clen = LZ4_compress_default((const char *)out, (char *)c, (int)n, bound);
	check(clen > 0);
	check(lz4dec_block(c, (size_t)clen, exact, n) == (ssize_t)n);
	check(!memcmp(exact, out, n));
	free(c);
	free(exact);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t *out;
	ssize_t r;

	if (!out) {
		out = malloc(CAP);
		check(out);
	}
	r = lz4dec_block(data, size, out, CAP);
	if (r < 0) {
		check(r == -EINVAL || r == -ENOSPC);
		rejected(data, size, out);
		return 0;
	}
	check(r <= CAP);
	accepted(data, size, out, (size_t)r);
	return 0;
}
