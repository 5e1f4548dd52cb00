// SPDX-License-Identifier: GPL-2.0-only
/*
 * hash.c - XXH3-64 from Debian's libxxhash-dev, compiled into each program
 *
 * The header is the whole implementation (XXH_INLINE_ALL): nothing to link, so
 * the static klibc torpor-resume gets it too.  klcc leaves out its -mno-sse
 * when it is given -g, as the Makefile does, so on x86-64 both builds take
 * xxhash's SSE2 code (baseline there; its accumulators on the stack need the
 * 16-byte alignment the ABI gives, which klibc's _start keeps); elsewhere
 * xxhash picks what the target has.  Every path gives the same value:
 * tests/unit/test-hash.c checks both builds against libxxhash.
 * XXH3 uses no floating point, threads or thread-local storage.  The streaming
 * API the header also declares allocates, but it is static inline and unused,
 * so none of it is linked.  klcc always passes -fno-stack-protector: no
 * __stack_chk_fail is needed either.
 */
/*
 * xxhash.h's compile-time checks use C11 static_assert from <assert.h>, which
 * klibc's <assert.h> does not define: give it the keyword.
 */
#define XXH_STATIC_ASSERT(c)	do { _Static_assert((c), #c); } while (0)
#define XXH_NO_STREAM		/* no XXH3_state_t, no malloc (xxhash 0.8.2+) */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "hash.h"

uint64_t hash64(const void *buf, size_t len)
{
	return XXH3_64bits(buf, len);
}
