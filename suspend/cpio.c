// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpio.c - a streaming reader of cpio "newc" (070701) and "crc" (070702)
 * archives, the formats the kernel unpacks into its initramfs
 *
 * As in the kernel's init/initramfs.c, zero bytes may come between entries and
 * between archives, a header starts at an offset that is a multiple of 4, the
 * name is padded so that the data starts on one, and the data is padded too.
 * What the kernel would stop at (another magic, a name without its NUL) is an
 * error here: torpor-suspend then refuses, rather than guess what boots.
 */
#include <errno.h>
#include <string.h>

#include "cpio.h"

void cpio_init(struct cpio_reader *r, cpio_entry_fn on_entry, cpio_data_fn on_data, void *ctx)
{
	memset(r, 0, sizeof(*r));
	r->state = CPIO_BETWEEN;
	r->on_entry = on_entry;
	r->on_data = on_data;
	r->ctx = ctx;
}

/* 8 hex digits at @p; 0 or -EBADMSG */
static int hex8(const uint8_t *p, uint32_t *ret)
{
	uint32_t v = 0;
	int i, d;

	for (i = 0; i < 8; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if (p[i] >= 'a' && p[i] <= 'f')
			d = p[i] - 'a' + 10;
		else if (p[i] >= 'A' && p[i] <= 'F')
			d = p[i] - 'A' + 10;
		else
			return -EBADMSG;
		v = v << 4 | (uint32_t)d;
	}
	*ret = v;
	return 0;
}

/* The fields of a complete header; 0 or -EBADMSG */
static int parse_header(struct cpio_reader *r)
{
	uint32_t f[13];
	int i;

	if (memcmp(r->hdr, "070701", 6) && memcmp(r->hdr, "070702", 6))
		return -EBADMSG;
	for (i = 0; i < 13; i++)
		if (hex8(r->hdr + 6 + 8 * i, &f[i]) < 0)
			return -EBADMSG;
	/* ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor namesize check */
	if (f[11] < 1 || f[11] > CPIO_NAME_MAX)
		return -EBADMSG;
	r->e.ino = f[0];
	r->e.mode = f[1];
	r->e.nlink = f[4];
	r->e.size = f[6];
	r->e.devmajor = f[7];
	r->e.devminor = f[8];
	/* the name, and the padding that puts the data on a multiple of 4 */
	r->name_len = ((CPIO_HEADER_LEN + f[11] + 3) & ~3u) - CPIO_HEADER_LEN;
	r->left = f[11];		/* the name's own bytes, until got_name() */
	return 0;
}

/* The name is in: the trailer, or an entry for the callback; 0 or -errno */
static int got_name(struct cpio_reader *r)
{
	uint32_t n = r->left;
	int want = 0;

	if (r->e.name[n - 1] != '\0' || memchr(r->e.name, '\0', n - 1))
		return -EBADMSG;
	r->entries++;
	if (!strcmp(r->e.name, CPIO_TRAILER)) {
		r->archives++;
	} else if (r->on_entry) {
		want = r->on_entry(r->ctx, &r->e);
		if (want < 0)
			return want;
	}
	r->want = want > 0;
	r->left = r->e.size;
	r->state = CPIO_DATA;
	return 0;
}

/* Copy into the header or name buffer; the bytes used */
static size_t collect(struct cpio_reader *r, const uint8_t *p, size_t len)
{
	size_t need, n, name_bytes;

	if (r->state == CPIO_HEADER) {
		need = CPIO_HEADER_LEN - r->have;
		n = len < need ? len : need;
		memcpy(r->hdr + r->have, p, n);
	} else {
		need = r->name_len - r->have;
		n = len < need ? len : need;
		/* the padding's bytes are not kept */
		name_bytes = r->have < r->left ? r->left - r->have : 0;
		if (name_bytes > n)
			name_bytes = n;
		memcpy(r->e.name + r->have, p, name_bytes);
	}
	r->have += n;
	return n;
}

/* Between entries: zeros, then a header at a multiple of 4; the bytes used */
static size_t between(struct cpio_reader *r, const uint8_t *p, size_t len)
{
	size_t i = 0;

	while (i < len && p[i] == 0)
		i++;
	if (i < len && p[i] == '0' && ((r->off + i) & 3) == 0) {
		r->state = CPIO_HEADER;
		r->have = 0;
	}
	return i;
}

/* Data and its padding: passed to on_data when wanted; bytes used, or -errno */
static ssize_t pass_data(struct cpio_reader *r, const uint8_t *p, size_t len)
{
	size_t n = len < r->left ? len : r->left;
	int rc;

	if (r->state == CPIO_DATA && n && r->want && r->on_data) {
		rc = r->on_data(r->ctx, &r->e, p, n, r->e.size - r->left);
		if (rc < 0)
			return rc;
	}
	r->left -= (uint32_t)n;
	if (r->left == 0 && r->state == CPIO_DATA) {
		r->state = CPIO_DATA_PAD;
		r->left = (4 - (r->e.size & 3)) & 3;
	} else if (r->left == 0) {
		r->state = CPIO_BETWEEN;
	}
	return (ssize_t)n;
}

ssize_t cpio_feed(struct cpio_reader *r, const uint8_t *p, size_t len)
{
	size_t done = 0, n;
	ssize_t m;
	int rc;

	while (done < len) {
		switch (r->state) {
		case CPIO_BETWEEN:
			n = between(r, p + done, len - done);
			r->off += n;
			done += n;
			if (r->state == CPIO_BETWEEN && done < len)
				return (ssize_t)done;	/* not an archive: the caller decides */
			continue;
		case CPIO_HEADER:
		case CPIO_NAME:
			n = collect(r, p + done, len - done);
			break;
		default:
			m = pass_data(r, p + done, len - done);
			if (m < 0)
				return m;
			n = (size_t)m;
			break;
		}
		r->off += n;
		done += n;
		if (r->state == CPIO_HEADER && r->have == CPIO_HEADER_LEN) {
			rc = parse_header(r);
			if (rc < 0)
				return rc;
			r->state = CPIO_NAME;
			r->have = 0;
		}
		if (r->state == CPIO_NAME && r->have == r->name_len) {
			rc = got_name(r);
			if (rc < 0)
				return rc;
		}
		/* an empty data and padding leave at once */
		if (r->state == CPIO_DATA && r->left == 0)
			(void)pass_data(r, p, 0);
		if (r->state == CPIO_DATA_PAD && r->left == 0)
			r->state = CPIO_BETWEEN;
	}
	return (ssize_t)done;
}

int cpio_finish(const struct cpio_reader *r)
{
	return r->state == CPIO_BETWEEN ? 0 : -EBADMSG;
}
