// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-lz4dec.c - lz4dec_block() against liblz4
 *
 * Blocks come from LZ4_compress_default() and LZ4_compress_HC(), from a hand encoder for
 * the cases liblz4 never writes, and from mutating real blocks.  Inputs sit at the very
 * end of a mapping followed by a PROT_NONE page, outputs too, with a canary just before
 * them, so a read or write past either end faults even without ASan.  One TAP line per
 * group of checks; a group prints its first failure as a "#" line.
 */
#include <errno.h>
#include <lz4.h>
#include <lz4hc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lz4dec.h"
#include "lz4spec.h"
#include "tap.h"

#define KIB		1024u
#define MIB		(1024u * 1024u)
#define BIG		(4 * MIB)	/* the largest round trip */
#define CANARY		64		/* bytes checked in front of each fenced buffer */
#define HC_LEVEL	LZ4HC_CLEVEL_MAX

enum kind { RANDOM, ZERO, TEXT, BINARY, PERIODIC, SPARSE, NKINDS };

static const char *const kind_name[NKINDS] = {
	"random (incompressible)", "all-zero", "text-like", "binary-like", "short periods",
	"sparse pages",
};

/* a group of checks that ends as one TAP line */
struct group {
	int runs;
	int fails;
	char first[200];	/* the first failure, printed as a diagnostic */
};

/* a buffer that ends right before a PROT_NONE page */
struct fence {
	uint8_t *map;
	size_t usable;		/* bytes before the guard page */
};

static struct fence fsrc, fdst;
static uint8_t *data[NKINDS];	/* BIG bytes of each kind */
static uint8_t *cbuf;		/* compressed block scratch */
static uint8_t *ref;		/* reference output scratch */
static void *hc_state;		/* one LZ4_compress_HC() state: no big malloc per block */
static const char *current = "setup";
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void on_segv(int sig)
{
	/* only async-signal-safe calls here */
	static const char msg[] = "not ok - lz4dec: fault (access past a fenced buffer) in: ";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0 || write(1, current, strlen(current)) < 0 ||
	    write(1, "\n", 1) < 0)
		_exit(2);
	_exit(1);
}

static void fence_init(struct fence *f, size_t size)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	f->usable = (size + CANARY + pg - 1) / pg * pg;
	f->map = mmap(NULL, f->usable + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (f->map == MAP_FAILED || mprotect(f->map + f->usable, pg, PROT_NONE)) {
		perror("test-lz4dec: mmap");
		exit(1);
	}
}

/* @n bytes that end at the guard page, with a fresh canary in front */
static uint8_t *fenced(struct fence *f, size_t n)
{
	uint8_t *p = f->map + f->usable - n;

	memset(p - CANARY, 0xa5, CANARY);
	return p;
}

static int canary_ok(const uint8_t *p)
{
	int i;

	for (i = 1; i <= CANARY; i++)
		if (p[-i] != 0xa5)
			return 0;
	return 1;
}

static void fail(struct group *g, const char *fmt, ...)
{
	va_list ap;

	if (!g->fails++) {
		va_start(ap, fmt);
		vsnprintf(g->first, sizeof(g->first), fmt, ap);
		va_end(ap);
	}
}

static void group_end(struct group *g, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (g->fails)
		printf("# %d of %d failed; first: %s\n", g->fails, g->runs, g->first);
	tap_ok(!g->fails && g->runs, "lz4dec: %s (%d checks)", what, g->runs);
	memset(g, 0, sizeof(*g));
}

/* decode @clen bytes of @c with the input and a @cap-byte output both fenced */
static ssize_t decode(const uint8_t *c, size_t clen, size_t cap, uint8_t **ret_out)
{
	uint8_t *src = fenced(&fsrc, clen);
	uint8_t *dst = fenced(&fdst, cap);
	ssize_t r;

	memcpy(src, c, clen);
	r = lz4dec_block(src, clen, dst, cap);
	if (!canary_ok(dst))
		r = -9999;	/* wrote in front of the output */
	*ret_out = dst;
	return r;
}

static size_t compress(const uint8_t *in, size_t n, int hc)
{
	int cap = LZ4_compressBound((int)n);

	if (hc)
		return (size_t)LZ4_compress_HC_extStateHC(hc_state, (const char *)in, (char *)cbuf,
							  (int)n, cap, hc);
	return (size_t)LZ4_compress_default((const char *)in, (char *)cbuf, (int)n, cap);
}

static void fill_text(uint8_t *p, size_t n)
{
	static const char *const words[] = {
		"the ", "swap ", "image ", "resume ", "kernel ", "page ", "of ", "and ",
		"snapshot ", "block ", "to ", "a ", "hibernation ", "is ", "written ", "\n",
		"torpor ", "device ", "0x7f3a ", "error: ", "in ", "that ", "with ", "for ",
	};
	size_t i = 0, l;
	const char *w;

	while (i < n) {
		w = words[rng() % 24];
		l = strlen(w);
		if (l > n - i)
			l = n - i;
		memcpy(p + i, w, l);
		i += l;
	}
}

/* little-endian words, pointers and copies of earlier bytes with small edits */
static void fill_binary(uint8_t *p, size_t n)
{
	size_t i = 0, l, from;
	uint64_t v;

	while (i < n) {
		switch (rng() % 4) {
		case 0:
			v = rng() % 300;
			break;
		case 1:
			v = 0x00007f0000000000ull | (rng() & 0xffffff8);
			break;
		default:
			if (i < 64)
				continue;
			l = 4 + rng() % 60;
			from = i - 1 - rng() % (i < 65535 ? i : 65535);
			for (; l && i < n; l--)
				p[i++] = p[from++];
			if (i < n)
				p[i++] = (uint8_t)rng();
			continue;
		}
		for (l = 0; l < 8 && i < n; l++, v >>= 8)
			p[i++] = (uint8_t)v;
	}
}

/* runs with periods 1..20 between random bytes: overlapping matches of every small offset */
static void fill_periodic(uint8_t *p, size_t n)
{
	size_t i = 0, per, l, j;

	while (i < n) {
		per = 1 + rng() % 20;
		for (j = 0; j < per && i < n; j++)
			p[i++] = (uint8_t)rng();
		l = rng() % 200;
		for (j = 0; j < l && i < n && i >= per; j++, i++)
			p[i] = p[i - per];
	}
}

static void fill_sparse(uint8_t *p, size_t n)
{
	size_t i, k;

	memset(p, 0, n);
	for (i = 0; i + 4096 <= n; i += 4096) {
		for (k = rng() % 12; k; k--)
			p[i + rng() % 4096] = (uint8_t)rng();
		if (rng() % 4 == 0)
			fill_text(p + i + rng() % 2048, 1 + rng() % 1024);
	}
}

static void make_data(void)
{
	size_t i;
	int k;

	for (k = 0; k < NKINDS; k++) {
		data[k] = malloc(BIG);
		if (!data[k])
			exit(1);
	}
	for (i = 0; i < BIG; i++)
		data[RANDOM][i] = (uint8_t)rng();
	memset(data[ZERO], 0, BIG);
	fill_text(data[TEXT], BIG);
	fill_binary(data[BINARY], BIG);
	fill_periodic(data[PERIODIC], BIG);
	fill_sparse(data[SPARSE], BIG);
}

/* one block, three ways: exact dst_cap, dst_cap with room to spare, one byte short */
static void round_trip(struct group *g, struct group *big, struct group *short1,
		       const uint8_t *in, size_t n, int hc, const char *kind)
{
	size_t clen = compress(in, n, hc);
	uint8_t *out;
	ssize_t r;

	g->runs++;
	if (!clen) {
		fail(g, "%s, %zu bytes: liblz4 failed to compress", kind, n);
		return;
	}
	r = decode(cbuf, clen, n, &out);
	if (r != (ssize_t)n || memcmp(out, in, n))
		fail(g, "%s, %zu bytes, hc %d, exact dst_cap: returned %zd", kind, n, hc, r);
	big->runs++;
	r = decode(cbuf, clen, n + 1000, &out);
	if (r != (ssize_t)n || memcmp(out, in, n))
		fail(big, "%s, %zu bytes, hc %d, roomy dst_cap: returned %zd", kind, n, hc, r);
	if (!n)
		return;
	short1->runs++;
	r = decode(cbuf, clen, n - 1, &out);
	if (r != -ENOSPC && r != -EINVAL)
		fail(short1, "%s, %zu bytes, hc %d, dst_cap n-1: returned %zd", kind, n, hc, r);
}

static void test_round_trips(void)
{
	static const size_t sizes[] = { 4 * KIB, 64 * KIB + 1, 256 * KIB, BIG };
	struct group g = { 0 }, big = { 0 }, short1 = { 0 }, tiny = { 0 };
	size_t n, i;
	int k, hc;

	current = "round trips";
	for (k = 0; k < NKINDS; k++) {
		for (n = 0; n <= 300; n += n < 64 ? 1 : 7)
			for (hc = 0; hc <= HC_LEVEL; hc += HC_LEVEL)
				round_trip(&tiny, &big, &short1, data[k] + 777, n, hc,
					   kind_name[k]);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			/* HC at level 12 is slow on 4 MiB; 9 is still "high" */
			round_trip(&g, &big, &short1, data[k], sizes[i], 0, kind_name[k]);
			round_trip(&g, &big, &short1, data[k], sizes[i],
				   sizes[i] == BIG ? 9 : HC_LEVEL, kind_name[k]);
		}
		group_end(&g, "round trip %s: 4 KiB, 64 KiB + 1, 256 KiB, 4 MiB, default and HC",
			  kind_name[k]);
	}
	group_end(&tiny, "round trip 0..300 bytes (1 byte included), every kind, default and HC");
	group_end(&big, "dst_cap larger than needed returns the exact length");
	group_end(&short1, "dst_cap one byte short is -ENOSPC or -EINVAL, never written past");
}

/*
 * A prefix that ends right after some literals is itself a well-formed block, so it may
 * decode: then it must be to a strict prefix of the original.  Any other prefix fails.
 */
static void prefixes_of(struct group *g, const uint8_t *in, size_t n, int hc, size_t step,
			size_t *ok_short)
{
	size_t clen = compress(in, n, hc), p;
	uint8_t *c = malloc(clen), *out;
	ssize_t r;

	memcpy(c, cbuf, clen);
	for (p = 0; p < clen; p += p + 64 >= clen ? 1 : step) {
		g->runs++;
		r = decode(c, p, n, &out);
		if (r >= 0 && (r >= (ssize_t)n || memcmp(out, in, (size_t)r)))
			fail(g, "%zu-byte prefix of a %zu-byte block returned %zd", p, clen, r);
		else if (r >= 0)
			(*ok_short)++;
		else if (r != -EINVAL && r != -ENOSPC)
			fail(g, "%zu-byte prefix: unexpected %zd", p, r);
	}
	free(c);
}

static void test_truncation(void)
{
	struct group g = { 0 };
	size_t short_ok = 0;
	int k;

	current = "truncation";
	for (k = 0; k < NKINDS; k++) {
		prefixes_of(&g, data[k] + 5, 4 * KIB, 0, 1, &short_ok);
		prefixes_of(&g, data[k] + 99, 8 * KIB + 3, HC_LEVEL, 1, &short_ok);
		prefixes_of(&g, data[k], 256 * KIB, 0, 331, &short_ok);
	}
	printf("# %zu of %d prefixes are well-formed shorter blocks (the caller checks the "
	       "length)\n", short_ok, g.runs);
	group_end(&g, "every prefix of a block is an error or a shorter output, never an overrun");
}

/* the hand encoder: one sequence, or the last one when @ml is 0 */
static size_t put_len(uint8_t *p, size_t v)
{
	size_t i = 0;

	for (; v >= 255; v -= 255)
		p[i++] = 255;
	p[i++] = (uint8_t)v;
	return i;
}

static size_t put_seq(uint8_t *p, const uint8_t *lit, size_t nlit, size_t off, size_t ml)
{
	size_t i = 1;
	size_t mcode = ml ? ml - 4 : 0;

	p[0] = (uint8_t)((nlit < 15 ? nlit : 15) << 4 | (mcode < 15 ? mcode : 15));
	if (nlit >= 15)
		i += put_len(p + i, nlit - 15);
	memcpy(p + i, lit, nlit);
	i += nlit;
	if (!ml)
		return i;
	p[i++] = (uint8_t)off;
	p[i++] = (uint8_t)(off >> 8);
	if (mcode >= 15)
		i += put_len(p + i, mcode - 15);
	return i;
}

static void expect(struct group *g, const char *what, const uint8_t *c, size_t clen,
		   size_t cap, ssize_t want1, ssize_t want2)
{
	uint8_t *out;
	ssize_t r = decode(c, clen, cap, &out);

	g->runs++;
	if (r != want1 && r != want2)
		fail(g, "%s: returned %zd, want %zd", what, r, want1);
}

/* a block of one sequence (@nlit literals, a match of @ml at @off) and a last one of @last */
struct two_seq {
	const char *what;
	size_t nlit, off, ml, last;
	size_t cap;			/* the output's room */
	ssize_t want1, want2;		/* what expect() takes */
};

static const uint8_t lits[32] = "0123456789abcdefghijklmnopqrstu";

/* expect() each of the @n blocks of @t, encoded into @c */
static void expect_two_seqs(struct group *g, const struct two_seq *t, size_t n, uint8_t *c)
{
	size_t len;

	for (; n; n--, t++) {
		len = put_seq(c, lits, t->nlit, t->off, t->ml);
		len += put_seq(c + len, lits, t->last, 0, 0);
		expect(g, t->what, c, len, t->cap, t->want1, t->want2);
	}
}

#define NROWS(t) (sizeof(t) / sizeof((t)[0]))

/* the end-of-block rules: the last sequence is 5 literals or more, no match in the last 12 bytes */
static void test_end_of_block(uint8_t *c)
{
	static const struct two_seq ends[] = {
		{ "4 last literals", 8, 8, 8, 4, 100, -EINVAL, -EINVAL },
		{ "last match 11 bytes from the end", 8, 8, 4, 7, 100, -EINVAL, -EINVAL },
		{ "last match 12 bytes from the end", 8, 8, 5, 7, 100, 20, 20 },
	};
	struct group g = { 0 };
	size_t n;

	expect_two_seqs(&g, ends, NROWS(ends), c);
	n = put_seq(c, lits, 8, 8, 4);
	n += put_seq(c + n, lits, 5, 0, 0);
	n += put_seq(c + n, lits, 3, 0, 0);
	expect(&g, "8 literals in two sequences", c, n, 100, -EINVAL, -EINVAL);
	n = put_seq(c, lits, 3, 0, 0);
	expect(&g, "3 literals and no match", c, n, 100, 3, 3);
	group_end(&g, "end-of-block rules: 5 last literals, last match 12 bytes from the end");
}

static void test_malformed(void)
{
	static const struct two_seq offsets[] = {
		{ "offset 0", 8, 0, 4, 12, 100, -EINVAL, -EINVAL },
		{ "offset 9 after 8 bytes", 8, 9, 4, 12, 100, -EINVAL, -EINVAL },
		{ "offset 65535 after 8 bytes", 8, 65535, 4, 12, 100, -EINVAL, -EINVAL },
		{ "match before any output", 0, 1, 4, 12, 100, -EINVAL, -EINVAL },
	};
	static const struct two_seq past_cap[] = {
		{ "match past dst_cap", 8, 1, 1000, 12, 999, -ENOSPC, -ENOSPC },
		{ "literals past dst_cap", 8, 1, 1000, 12, 5, -ENOSPC, -ENOSPC },
	};
	static uint8_t c[300000];
	struct group g = { 0 };
	uint8_t b;
	size_t n;
	int i;

	current = "malformed";
	expect(&g, "empty input", lits, 0, 100, -EINVAL, -EINVAL);
	expect(&g, "empty input, no room", lits, 0, 0, -EINVAL, -EINVAL);
	group_end(&g, "empty input (src_len 0) is -EINVAL");

	for (i = 0; i < 256; i++) {
		b = (uint8_t)i;
		expect(&g, "1-byte block", &b, 1, 64, i < 16 ? 0 : -EINVAL, i < 16 ? 0 : -EINVAL);
		expect(&g, "1-byte block, dst_cap 0", &b, 1, 0, i < 16 ? 0 : -EINVAL,
		       i < 16 ? 0 : -EINVAL);
	}
	group_end(&g, "all 256 one-byte blocks: 0x00-0x0f decode to nothing, the rest fail");

	expect_two_seqs(&g, offsets, NROWS(offsets), c);
	group_end(&g, "offset 0 and offsets before the start of the output are -EINVAL");

	c[0] = 0x50;
	memcpy(c + 1, "abc", 3);
	expect(&g, "5 literals, 3 present", c, 4, 100, -EINVAL, -EINVAL);
	n = put_seq(c, lits, 20, 0, 0);
	expect(&g, "20 literals, 19 present", c, n - 1, 100, -EINVAL, -EINVAL);
	n = put_seq(c, lits, 8, 4, 4);
	expect(&g, "match with no sequence after it", c, n, 100, -EINVAL, -EINVAL);
	expect(&g, "offset cut in half", c, n - 1, 100, -EINVAL, -EINVAL);
	n = put_seq(c, lits, 8, 4, 30);
	expect(&g, "match length bytes cut", c, n - 1, 100, -EINVAL, -EINVAL);
	c[0] = 0xf0;
	expect(&g, "literal length byte missing", c, 1, 100, -EINVAL, -EINVAL);
	group_end(&g, "literal runs and fields running past the input are -EINVAL");

	c[0] = 0xf0;
	memset(c + 1, 255, 200000);
	c[200001] = 0;
	expect(&g, "literal run of 51 MB in a 200 KB block", c, 200002, 1 << 20, -EINVAL,
	       -EINVAL);
	expect(&g, "unterminated 255 run", c, 4, 1 << 20, -EINVAL, -EINVAL);
	n = put_seq(c, lits, 8, 1, 19);
	memset(c + n - 1, 255, 200000);
	c[n + 199999] = 0;
	n += 200000;
	n += put_seq(c + n, lits, 12, 0, 0);
	expect(&g, "match run of 51 MB into 1 MiB", c, n, 1 << 20, -ENOSPC, -EINVAL);
	expect_two_seqs(&g, past_cap, NROWS(past_cap), c);
	group_end(&g, "huge 255-run lengths and runs past dst_cap fail fast, no overflow");

	test_end_of_block(c);
}

/* every offset 1..40 with lengths 4..80, away from the output's end and right at it */
static void test_overlaps(void)
{
	static uint8_t c[512];
	struct group g = { 0 };
	size_t off, ml, n, olen, j, cap, pre;
	uint8_t *out;
	ssize_t r;
	int lib;

	current = "overlaps";
	for (off = 1; off <= 40; off++) {
		for (ml = 4; ml <= 80; ml++) {
			pre = off + 3;
			n = put_seq(c, data[RANDOM], pre, off, ml);
			n += put_seq(c + n, data[RANDOM] + 100, 12, 0, 0);
			memcpy(ref, data[RANDOM], pre);
			for (j = pre; j < pre + ml; j++)
				ref[j] = ref[j - off];
			memcpy(ref + pre + ml, data[RANDOM] + 100, 12);
			olen = pre + ml + 12;
			for (cap = olen; cap <= olen + 64; cap += 64) {
				g.runs++;
				r = decode(c, n, cap, &out);
				if (r != (ssize_t)olen || memcmp(out, ref, olen))
					fail(&g, "offset %zu, length %zu, cap %zu: %zd", off, ml,
					     cap, r);
			}
			lib = LZ4_decompress_safe((char *)c, (char *)out, (int)n, (int)olen);
			if (lib != (int)olen || memcmp(out, ref, olen))
				fail(&g, "liblz4 disagrees on offset %zu, length %zu", off, ml);
		}
	}
	group_end(&g, "overlapping matches, offsets 1-40, lengths 4-80, match liblz4");
}

/*
 * Mutated real blocks: never an overrun, and lz4dec accepts exactly what
 * LZ4_decompress_safe() accepts with dst_cap set to the decoded size, less the blocks
 * that break a rule liblz4 does not enforce (spec_ok()).
 */
static int mutants_accepted;

static void mutate_one(struct group *g, const uint8_t *c, size_t clen, size_t cap,
		       uint8_t *mine_copy, uint8_t *lib_out)
{
	uint8_t *out;
	ssize_t r = decode(c, clen, cap, &out);
	int m, lib;

	g->runs++;
	if (r < 0 && r != -EINVAL && r != -ENOSPC) {
		fail(g, "returned %zd (-9999: wrote in front of dst)", r);
		return;
	}
	if (r >= 0) {
		mutants_accepted++;
		memcpy(mine_copy, out, (size_t)r);
		lib = LZ4_decompress_safe((const char *)c, (char *)lib_out, (int)clen,
					  r ? (int)r : 1);
		if (lib != r || memcmp(lib_out, mine_copy, (size_t)r))
			fail(g, "lz4dec accepted %zd bytes, liblz4 says %d", r, lib);
		return;
	}
	m = LZ4_decompress_safe((const char *)c, (char *)lib_out, (int)clen, (int)cap);
	if (m >= 0 && LZ4_decompress_safe((const char *)c, (char *)lib_out, (int)clen, m) == m &&
	    spec_ok(c, clen))
		fail(g, "liblz4 decodes %d bytes exactly, lz4dec says %zd", m, r);
}

static void test_mutations(void)
{
	const size_t n = 2 * KIB, cap = 3 * KIB;
	uint8_t *c = malloc(LZ4_compressBound(n)), *a = malloc(cap), *b = malloc(cap);
	struct group g = { 0 };
	size_t clen, pos;
	int k, i, j, hc;

	current = "mutations";
	for (k = 0; k < NKINDS; k++) {
		for (i = 0; i < 2500; i++) {
			hc = i % 4 ? 0 : HC_LEVEL;
			clen = compress(data[k] + (rng() % (BIG - n)), n, hc);
			memcpy(c, cbuf, clen);
			for (j = 1 + (int)(rng() % 3); j; j--) {
				pos = rng() % clen;
				c[pos] = rng() % 2 ? (uint8_t)(c[pos] ^ 1u << rng() % 8) :
						     (uint8_t)rng();
			}
			if (rng() % 4 == 0)
				clen -= rng() % clen;
			mutate_one(&g, c, clen, rng() % 2 ? cap : n, a, b);
		}
	}
	printf("# %d of %d mutated blocks decode\n", mutants_accepted, g.runs);
	group_end(&g, "mutated blocks: no overrun, accepted exactly when liblz4 accepts");
	free(c);
	free(a);
	free(b);
}

int main(void)
{
	signal(SIGSEGV, on_segv);
	signal(SIGBUS, on_segv);
	fence_init(&fsrc, LZ4_compressBound(BIG) + 300000);
	fence_init(&fdst, BIG + 2000);
	cbuf = malloc(LZ4_compressBound(BIG));
	ref = malloc(64 * KIB);
	hc_state = malloc((size_t)LZ4_sizeofStateHC());
	if (!cbuf || !ref || !hc_state)
		return 1;
	make_data();
	test_malformed();
	test_round_trips();
	test_overlaps();
	test_truncation();
	test_mutations();
	return tap_done();
}
