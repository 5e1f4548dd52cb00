// SPDX-License-Identifier: GPL-2.0-only
/*
 * lz4dec.c - bounds-checked decoder for raw LZ4 blocks
 *
 * torpor-resume is a klibc static binary and cannot link liblz4, so it decodes the image
 * with this.  A block is a run of sequences: a token (literal count in the high nibble,
 * match length minus 4 in the low one, 15 meaning "more length bytes follow"), the
 * literals, a 16-bit little-endian offset back into the output, and the match.  The last
 * sequence stops after its literals (lz4/doc/lz4_Block_format.md).
 *
 * Speed: the copies move 8 or 16 bytes at a time and may run past the end of the literal
 * run or match they copy, as long as that overshoot stays inside both buffers; the next
 * sequence overwrites it.  Near the end of either buffer exact copies take over (never
 * klibc's memcpy(), see copy.h).  Every length is checked against the room left before
 * anything is copied.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "copy.h"
#include "lz4dec.h"

#define MIN_MATCH	4	/* a match copies at least this many bytes */
#define LAST_LITERALS	5	/* a block with a match ends with at least 5 literals */
#define MATCH_LIMIT	12	/* and its last match starts at least 12 bytes before its end */
#define RUN_MASK	15	/* a length nibble of 15: length bytes follow */
#define WILD		16	/* the widest copy; loops of two overshoot by < 2 * WILD */

/*
 * The fast path copies 16 literal bytes (14 at most are real) then 18 match bytes, and
 * wants the offset and the next token still in the input after the literals.
 */
#define FAST_IN		(16 + 2)
#define FAST_OUT	(14 + 18)

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * A match with offset < 16 repeats a pattern of that period, and any multiple of the
 * period is a period too.  period8[] holds the smallest multiple >= 8, so an 8-byte copy
 * never reads bytes it has not written yet; step16[] the largest multiple <= 16, the stride
 * at which one 16-byte pattern can be stored over and over.
 */
static const uint8_t period8[8] = { 0, 8, 8, 9, 8, 10, 12, 14 };
static const uint8_t step16[16] = { 0, 16, 16, 15, 16, 15, 12, 14, 16, 9, 10, 11, 12, 13, 14, 15 };

static inline void copy8(uint8_t *d, const uint8_t *s)
{
	memcpy(d, s, 8);
}

static inline void copy16(uint8_t *d, const uint8_t *s)
{
	memcpy(d, s, 16);
}

/*
 * Add the length bytes that follow a nibble of 15 to *len.  The sum may not pass @limit
 * (the room left in the buffer the run is copied from or into), so a run of 255s stops
 * long before size_t could wrap, even with a 32-bit size_t.  Returns 0, -EINVAL when the
 * input ends first, or @over when the sum passes @limit.
 */
static inline int read_length(const uint8_t **ipp, const uint8_t *iend, size_t limit,
			      int over, size_t *len)
{
	const uint8_t *ip = *ipp;
	size_t n = *len;
	unsigned int b;

	do {
		if (unlikely(ip == iend))
			return -EINVAL;
		b = *ip++;
		n += b;
		if (unlikely(n > limit))
			return over;
	} while (b == 255);
	*ipp = ip;
	*len = n;
	return 0;
}

/*
 * Decode the literal count past a nibble of 15 and copy the literals; the caller takes the
 * fast path for short runs far from both ends.  Returns 1 when this was the last sequence,
 * 0 when a match follows, or -errno.
 */
static inline int copy_literals(const uint8_t **ipp, uint8_t **opp, size_t lit,
				const uint8_t *iend, const uint8_t *oend)
{
	const uint8_t *ip = *ipp;
	uint8_t *op = *opp;
	uint8_t *end;
	int ret;

	if (lit == RUN_MASK) {
		ret = read_length(&ip, iend, (size_t)(iend - ip), -EINVAL, &lit);
		if (ret)
			return ret;
	}
	if (lit > (size_t)(iend - ip))
		return -EINVAL;
	if (lit > (size_t)(oend - op))
		return -ENOSPC;
	end = op + lit;
	if ((size_t)(iend - ip) >= lit + 2 * WILD && (size_t)(oend - op) >= lit + 2 * WILD) {
		do {
			copy16(op, ip);
			copy16(op + WILD, ip + WILD);
			op += 2 * WILD;
			ip += 2 * WILD;
		} while (op < end);
		ip -= op - end;
	} else {
		copy_bytes(op, ip, lit);
		ip += lit;
	}
	*ipp = ip;
	*opp = end;
	if (ip == iend)
		return 1;
	/* the offset and the next token must follow */
	return iend - ip < 3 ? -EINVAL : 0;
}

/*
 * Copy @ml bytes from @off bytes back; the caller checked that both ends are inside the
 * output.  When @off < @ml the source overlaps what is being written, which is how LZ4
 * encodes runs: the result must equal a byte-by-byte forward copy.
 */
static inline void copy_match(uint8_t *op, size_t off, size_t ml, const uint8_t *oend)
{
	const uint8_t *m = op - off;
	uint8_t *const end = op + ml;
	uint8_t pat[16];
	size_t step;
	int i;

	if (unlikely((size_t)(oend - end) < 2 * WILD)) {
		if (off >= ml) {
			copy_bytes(op, m, ml);
			return;
		}
		while (op < end)
			*op++ = *m++;
		return;
	}
	if (off >= 16) {
		do {
			copy16(op, m);
			copy16(op + 16, m + 16);
			op += 32;
			m += 32;
		} while (op < end);
		return;
	}
	if (off >= 8) {
		copy8(op, m);
		copy8(op + 8, m + 8);
	} else {
		for (i = 0; i < 8; i++)
			op[i] = m[i];
		copy8(op + 8, op + 8 - period8[off]);
	}
	if (ml <= 16)
		return;
	/* keep the pattern in a register: no load waits for the store before it */
	memcpy(pat, op, 16);
	step = step16[off];
	for (op += step; op < end; op += step)
		memcpy(op, pat, 16);
}

ssize_t lz4dec_block(const void *src, size_t src_len, void *dst, size_t dst_cap)
{
	const uint8_t *ip = src;
	const uint8_t *const iend = ip + src_len;
	uint8_t *op = dst;
	uint8_t *const ostart = op;
	uint8_t *oend;
	const uint8_t *mstart = NULL;	/* where the last match started */
	uint8_t *lstart = dst;		/* where the last literal run started */
	const uint8_t *m;
	size_t lit, ml, off;
	unsigned int token;
	int ret;

	if (!src_len)
		return -EINVAL;
	/* the count must fit the return type; no real buffer comes near this */
	if (dst_cap > SIZE_MAX >> 1)
		return -EINVAL;
	oend = op + dst_cap;
	for (;;) {
		token = *ip++;
		lit = token >> 4;
		ml = token & RUN_MASK;
		if (likely(lit != RUN_MASK && iend - ip >= FAST_IN && oend - op >= FAST_OUT)) {
			/* short literals, far from both ends: not the last sequence */
			copy16(op, ip);
			op += lit;
			ip += lit;
			off = (size_t)ip[0] | (size_t)ip[1] << 8;
			ip += 2;
			if (likely(ml != RUN_MASK && off >= 8 && off <= (size_t)(op - ostart))) {
				m = op - off;
				mstart = op;
				copy8(op, m);
				copy8(op + 8, m + 8);
				memcpy(op + 16, m + 16, 2);
				op += ml + MIN_MATCH;
				continue;
			}
		} else {
			lstart = op;
			ret = copy_literals(&ip, &op, lit, iend, oend);
			if (ret < 0)
				return ret;
			if (ret)
				break;
			off = (size_t)ip[0] | (size_t)ip[1] << 8;
			ip += 2;
		}
		if (ml == RUN_MASK) {
			ret = read_length(&ip, iend, (size_t)(oend - op), -ENOSPC, &ml);
			if (ret)
				return ret;
		}
		ml += MIN_MATCH;
		if (!off || off > (size_t)(op - ostart))
			return -EINVAL;
		if (ml > (size_t)(oend - op))
			return -ENOSPC;
		mstart = op;
		copy_match(op, off, ml, oend);
		op += ml;
		if (ip == iend)
			return -EINVAL;	/* a match is never last: a token must follow */
	}
	if (mstart && (op - lstart < LAST_LITERALS || op - mstart < MATCH_LIMIT))
		return -EINVAL;
	return op - ostart;
}
