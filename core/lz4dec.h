/* SPDX-License-Identifier: GPL-2.0-only */
/* lz4dec.h - bounds-checked decoder for raw LZ4 blocks, for the klibc resume side */
#ifndef CORE_LZ4DEC_H
#define CORE_LZ4DEC_H

#include <stddef.h>
#include <sys/types.h>

/**
 * lz4dec_block() - decode one raw LZ4 block (the format LZ4_compress_default() writes)
 * @src: compressed bytes
 * @src_len: their number
 * @dst: output buffer
 * @dst_cap: its size
 *
 * The block must follow lz4_Block_format.md, end-of-block rules included: when it has a
 * match, its last 5 bytes are literals and its last match starts at least 12 bytes before
 * its end.  A block that stops right after any run of literals is well formed, so a
 * truncated block can decode to a shorter output: callers must compare the result with
 * the size they expect.  @src and @dst must not overlap.  Bytes of @dst past the returned
 * length are unspecified, and so is all of @dst after an error.  A @dst_cap above SSIZE_MAX
 * is -EINVAL.  Does not log.
 *
 * Return: number of bytes written to @dst (>= 0); -EINVAL when the input is malformed or
 * truncated (offset 0, offset before the start of the output, literal/match running past the
 * input, bad last-sequence rules), -ENOSPC when the output would exceed @dst_cap.
 * Never reads outside [src, src+src_len) and never writes outside [dst, dst+dst_cap).
 */
ssize_t lz4dec_block(const void *src, size_t src_len, void *dst, size_t dst_cap);

#endif
