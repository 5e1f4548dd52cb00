// SPDX-License-Identifier: GPL-2.0-only
/*
 * hash.c - XXH3-64 from Debian's libxxhash-dev, compiled into each program
 *
 * The header is the whole implementation (XXH_INLINE_ALL): nothing to link, so
 * the static klibc torpor-resume gets it too.  Both builds take xxhash's scalar
 * code (XXH_VECTOR = XXH_SCALAR) at -O3 (see the Makefile), chosen by
 * measurement (make bench-hash): the value is the same whatever the code path
 * (tests/unit/test-hash.c checks both builds against libxxhash); natively
 * (x86-64) it hashes 11-17 GB/s, as fast as xxhash's SSE2 code and far above
 * what LZ4 decodes or a disk gives; under QEMU's TCG, where the end-to-end
 * tests and benchmarks run, SSE2's multiplies are emulated by helpers and the
 * scalar code is 4-12 times faster (1.8-5.6 GB/s against 0.45 GB/s; at 0.45 it
 * took 0.4 s of a 1.35 s load phase at 256 MiB).  At -O3 gcc vectorises
 * parts of it with SSE2 anyway (klcc leaves out its -mno-sse when it is given
 * -g, as the Makefile does): its accumulators on the stack need the 16-byte
 * alignment the ABI gives, which klibc's _start keeps.
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
#define XXH_VECTOR		XXH_SCALAR
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "hash.h"

uint64_t hash64(const void *buf, size_t len)
{
	return XXH3_64bits(buf, len);
}
