/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lz4spec.h - the LZ4 block rules that liblz4 1.9 does not enforce, for the decoder's
 * unit test and its fuzz target (both compare lz4dec with liblz4)
 */
#ifndef TESTS_LZ4SPEC_H
#define TESTS_LZ4SPEC_H

#include <stddef.h>
#include <stdint.h>

/*
 * For a block liblz4 decoded: does it keep the rules liblz4 lets slip too?  No offset 0
 * (1.9 takes it), and with a match, 5 last literals and a last match 12 bytes from the end
 * (its shortcut for short sequences skips the first).  Returns 1 when it does.
 */
static inline int spec_ok(const uint8_t *c, size_t clen)
{
	size_t i = 0, lit = 0, ml, out = 0, mstart = 0;
	int matched = 0;
	unsigned int t, b;

	while (i < clen) {
		t = c[i++];
		lit = t >> 4;
		if (lit == 15)
			do {
				b = i < clen ? c[i++] : 0;
				lit += b;
			} while (b == 255);
		if (lit > clen - i)
			return 0;
		i += lit;
		out += lit;
		if (i == clen)
			break;
		if (i + 2 > clen || (!c[i] && !c[i + 1]))
			return 0;
		i += 2;
		ml = t & 15;
		if (ml == 15)
			do {
				b = i < clen ? c[i++] : 0;
				ml += b;
			} while (b == 255);
		mstart = out;
		out += ml + 4;
		matched = 1;
	}
	return !matched || (lit >= 5 && out - mstart >= 12);
}

#endif
