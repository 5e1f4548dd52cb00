/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * copy.h - copies for torpor-resume's hot paths, 8 bytes a move
 *
 * klibc's memcpy() is one `rep movsq`.  Under QEMU's TCG (the test and bench
 * guests) a string instruction runs one iteration per pass through its
 * translated block, each with its own address lookups: decoding an image whose
 * pages are half literals took 2.6 s of CPU time with memcpy() for the long
 * literal runs and 1.7 s with a loop of 8-byte moves (1 GiB, 6.12, one vCPU).
 * Natively both are fast.  The empty asm keeps gcc from turning the loop back
 * into a memcpy() call.
 */
#ifndef CORE_COPY_H
#define CORE_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Copy exactly @len bytes; the buffers must not overlap. */
static inline void copy_bytes(void *dst, const void *src, size_t len)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	uint64_t a, b, c, e;

	for (; len >= 32; len -= 32, d += 32, s += 32) {
		memcpy(&a, s, 8);
		memcpy(&b, s + 8, 8);
		memcpy(&c, s + 16, 8);
		memcpy(&e, s + 24, 8);
		memcpy(d, &a, 8);
		memcpy(d + 8, &b, 8);
		memcpy(d + 16, &c, 8);
		memcpy(d + 24, &e, 8);
		__asm__("" : "+r"(d), "+r"(s));
	}
	for (; len >= 8; len -= 8, d += 8, s += 8) {
		memcpy(&a, s, 8);
		memcpy(d, &a, 8);
	}
	while (len--)
		*d++ = *s++;
}

#endif
