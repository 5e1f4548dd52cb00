// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-cpio.c - libFuzzer target for the cpio reader (suspend/cpio.c)
 *
 * The first byte picks the piece size (1..256); the rest is a stream read once
 * whole and once in those pieces.  Both reads must agree (bytes consumed, the
 * result, entries, archives, the data passed), every name must be NUL-terminated
 * within CPIO_NAME_MAX, and every piece of data must lie inside its entry's size.
 */
/* fuzz-sources: suspend/cpio.c */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "../../suspend/cpio.h"
#include "fuzz.h"

struct tally {
	uint64_t entries;
	uint64_t data_bytes;
	uint32_t hash;
};

static int on_entry(void *ctx, const struct cpio_entry *e)
{
	struct tally *t = ctx;

	check(memchr(e->name, '\0', CPIO_NAME_MAX) != NULL);
	t->entries++;
	return (e->ino & 1) ? 1 : 0;	/* some entries' data, not others' */
}

static int on_data(void *ctx, const struct cpio_entry *e, const uint8_t *p, size_t n,
		   uint32_t off)
{
	struct tally *t = ctx;
	size_t i;

	check(n > 0 && (uint64_t)off + n <= e->size);
	for (i = 0; i < n; i++)
		t->hash = t->hash * 31 + p[i];
	t->data_bytes += n;
	return 0;
}

/* Read @p whole (@piece 0) or in pieces; the bytes consumed or the error */
static ssize_t run(const uint8_t *p, size_t len, size_t piece, struct tally *t,
		   struct cpio_reader *r)
{
	size_t at = 0, n;
	ssize_t used;

	memset(t, 0, sizeof(*t));
	cpio_init(r, on_entry, on_data, t);
	if (!piece)
		return cpio_feed(r, p, len);
	while (at < len) {
		n = len - at < piece ? len - at : piece;
		used = cpio_feed(r, p + at, n);
		check(used <= (ssize_t)n);
		if (used < 0)
			return used;
		at += (size_t)used;
		if ((size_t)used < n)
			break;
	}
	return (ssize_t)at;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cpio_reader a, b;
	struct tally ta, tb;
	ssize_t ra, rb;

	if (size < 1)
		return 0;
	ra = run(data + 1, size - 1, 0, &ta, &a);
	rb = run(data + 1, size - 1, (size_t)data[0] + 1, &tb, &b);
	check(ra <= (ssize_t)(size - 1));
	check(ra == rb);
	check(ta.entries == tb.entries && ta.data_bytes == tb.data_bytes && ta.hash == tb.hash);
	check(a.archives == b.archives && a.entries == b.entries);
	if (ra >= 0) {
		check((uint64_t)ra == a.off);
		check(cpio_finish(&a) == cpio_finish(&b));
	}
	return 0;
}
