// SPDX-License-Identifier: GPL-2.0-only
/*
 * streamend.c - where a zstd, xz or gzip stream ends, from its framing
 *
 * zstd (RFC 8878): a frame is the magic, a header whose size its first byte
 * tells, blocks of a 3-byte header (last flag, type, size) and an optional
 * 4-byte checksum; skippable frames carry their size.  xz (the .xz file format
 * 1.1): a 12-byte header with two flag bytes, then blocks and the index padded
 * to 4 bytes, then a 12-byte footer: CRC32 of the next 6 bytes, the index's
 * size, the same flags, "YZ".  gzip (RFC 1952): a member ends with the CRC32
 * and size of its output.  The file is read through a window of WINDOW bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crc32.h"
#include "le.h"
#include "streamend.h"

#define WINDOW		(256 * 1024)
#define ZSTD_MAGIC	0xfd2fb528u
#define ZSTD_SKIP_MAGIC	0x184d2a50u	/* the low 4 bits are free */
#define XZ_HEADER	12

struct window {
	int fd;
	uint64_t end;			/* nothing at or past it is read */
	uint64_t base;			/* the file offset of buf[0] */
	size_t len;
	uint8_t *buf;
};

/* @n (at most 64) bytes at @off into view: a pointer to them, or NULL (past
 * the end, or a read error in @err) */
static const uint8_t *at(struct window *w, uint64_t off, size_t n, int *err)
{
	ssize_t got;

	if (off > w->end || n > w->end - off)
		return NULL;
	if (off >= w->base && off + n <= w->base + w->len)
		return w->buf + (off - w->base);
	do
		got = pread(w->fd, w->buf, WINDOW, (off_t)off);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		*err = -errno;
		return NULL;
	}
	w->base = off;
	w->len = (size_t)got;
	return (size_t)got >= n ? w->buf : NULL;
}

/* One zstd frame at @off: its bytes, or 0 when malformed or cut */
static uint64_t zstd_frame(struct window *w, uint64_t off, int *err)
{
	static const uint8_t did_len[4] = { 0, 1, 2, 4 };
	const uint8_t *p = at(w, off, 8, err);
	uint64_t pos;
	uint32_t magic, b;
	unsigned fhd, single, fcs;

	if (!p)
		return 0;
	magic = get_le32(p);
	if ((magic & ~0xfu) == ZSTD_SKIP_MAGIC) {
		pos = off + 8 + get_le32(p + 4);
		return pos <= w->end ? pos - off : 0;
	}
	if (magic != ZSTD_MAGIC)
		return 0;
	fhd = p[4];
	if (fhd & 0x08)			/* the reserved bit */
		return 0;
	single = (fhd >> 5) & 1;
	fcs = fhd >> 6 ? 1u << (fhd >> 6) : single;
	pos = off + 5 + !single + did_len[fhd & 3] + fcs;
	for (;;) {
		p = at(w, pos, 3, err);
		if (!p)
			return 0;
		b = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
		if (((b >> 1) & 3) == 3)	/* a reserved block type */
			return 0;
		pos += 3 + (((b >> 1) & 3) == 1 ? 1 : b >> 3);
		if (b & 1)
			break;
	}
	if (fhd & 0x04)			/* the content checksum */
		pos += 4;
	return pos <= w->end ? pos - off : 0;
}

/* The zstd frames from @off on, one after the other; 0 when the first is malformed */
static uint64_t zstd_frames(struct window *w, uint64_t off, int *err)
{
	uint64_t pos = off, n;

	while ((n = zstd_frame(w, pos, err)) > 0)
		pos += n;
	return pos - off;
}

/* The xz stream at @off: its bytes up to its footer's end, or 0 */
static uint64_t xz_stream(struct window *w, uint64_t off, int *err)
{
	const uint8_t *p = at(w, off, XZ_HEADER, err);
	uint8_t flags[2];
	uint64_t pos, index;

	if (!p || crc32_update(0, p + 6, 2) != get_le32(p + 8))
		return 0;
	memcpy(flags, p + 6, 2);
	for (pos = off + XZ_HEADER; (p = at(w, pos, 12, err)); pos += 4) {
		if (p[10] != 'Y' || p[11] != 'Z' || memcmp(p + 8, flags, 2) ||
		    crc32_update(0, p + 4, 6) != get_le32(p))
			continue;
		/* the index it points back to starts with its indicator, 0 */
		index = ((uint64_t)get_le32(p + 4) + 1) * 4;
		if (index > pos - off - XZ_HEADER)
			continue;
		p = at(w, pos - index, 1, err);
		if (p && p[0] == 0)
			return pos + 12 - off;
		if (*err)
			break;
	}
	return 0;
}

static int window_open(struct window *w, int fd, uint64_t end)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->end = end;
	w->buf = malloc(WINDOW);
	return w->buf ? 0 : -ENOMEM;
}

int streamend_framed(int fd, uint64_t off, uint64_t end, const char *format, uint64_t *ret)
{
	struct window w;
	uint64_t n = 0;
	int err = 0;

	if (window_open(&w, fd, end) < 0)
		return -ENOMEM;
	if (!strcmp(format, "zstd"))
		n = zstd_frames(&w, off, &err);
	else if (!strcmp(format, "xz"))
		n = xz_stream(&w, off, &err);
	free(w.buf);
	if (err)
		return err;
	if (!n)
		return -ENOENT;
	*ret = n;
	return 0;
}

int streamend_gzip(int fd, uint64_t off, uint64_t end, uint32_t crc, uint32_t isize,
		   uint64_t *ret)
{
	struct window w;
	const uint8_t *p;
	uint64_t pos;
	int err = 0;

	if (window_open(&w, fd, end) < 0)
		return -ENOMEM;
	/* the first trailer that fits: after a 10-byte header and some data */
	for (pos = off + 10 + 2; (p = at(&w, pos, 8, &err)); pos++) {
		if (get_le32(p) == crc && get_le32(p + 4) == isize) {
			*ret = pos + 8 - off;
			break;
		}
	}
	free(w.buf);
	if (err)
		return err;
	return p ? 0 : -ENOENT;
}
