// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-btrfsmap.c - libFuzzer target over btrfsmap's decoders of tree search results
 *
 * The first 8 bytes are the logical address looked up in chunk items; the rest is
 * a search buffer whose items are decoded as file extents and chunks, then read as
 * a mountinfo line.  Decoding must never crash or read out of bounds, and what it
 * accepts must satisfy the invariants the caller relies on.
 */
/* fuzz-sources: suspend/btrfsmap.c core/mountinfo.c core/unescape.c core/decimal.c */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../suspend/btrfsmap.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct btrfsmap_item it;
	uint64_t logical, l, devid, phys;
	uint8_t *buf;
	size_t pos = 0, n;
	int r;

	if (size < 8)
		return 0;
	memcpy(&logical, data, 8);
	/* a copy of exactly the remaining size, so ASan sees any overrun */
	n = size - 8;
	buf = malloc(n ? n : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 8, n);
	while ((r = btrfsmap_next_item(buf, n, &pos, &it)) == 0) {
		if (pos > n || it.data < buf || it.data + it.len > buf + n)
			abort();
		if (btrfsmap_file_extent(&it, it.objectid, &l) == 0 && (it.len < 53 || l == 0))
			abort();
		r = btrfsmap_chunk(&it, logical, &devid, &phys);
		if (r == 1 && (logical < it.offset || it.len < 80))
			abort();
	}
	if (r != -ENOENT && r != -EBADMSG)
		abort();
	free(buf);
	return 0;
}
