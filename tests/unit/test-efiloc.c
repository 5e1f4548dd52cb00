// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-efiloc.c - TorporHibernateLocation (core/efiloc.c): encode and decode round
 * trip; short, oversized, flipped, wrong-version and malformed variables refused;
 * write, read back, replace and remove in a fake efivarfs directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32.h"
#include "efiloc.h"
#include "le.h"
#include "tap.h"

static const struct efiloc sample = {
	.kind = EFILOC_UUID,
	.id = "0f3c1d2e-4b5a-4c6d-8e7f-90a1b2c3d4e5",
	.offset_pages = 34816,
	.release = "6.12.117+deb13-amd64",
	.image_format = 2,
};

static int same(const struct efiloc *a, const struct efiloc *b)
{
	return a->kind == b->kind && !strcmp(a->id, b->id) && a->offset_pages == b->offset_pages &&
	       !strcmp(a->release, b->release) && a->image_format == b->image_format;
}

/* re-seal the data's CRC after a test changed a field */
static void reseal(uint8_t *f)
{
	put_le32(f + 4 + 140, crc32_update(0, f + 4, 140));
}

static void test_codec(void)
{
	uint8_t f[EFILOC_FILE_SIZE + 8], g[EFILOC_FILE_SIZE];
	struct efiloc l, bad;
	char spec[64];
	size_t i;
	int flips = 0;

	tap_ok(efiloc_encode(&sample, f) == 0 && get_le32(f) == 7, "efiloc: encodes, attributes 0x7");
	tap_ok(efiloc_decode(f, EFILOC_FILE_SIZE, &l) == 0 && same(&l, &sample),
	       "efiloc: decode gives back what was encoded");
	tap_ok(efiloc_spec(&l, spec, sizeof(spec)) == 0 &&
	       !strcmp(spec, "UUID=0f3c1d2e-4b5a-4c6d-8e7f-90a1b2c3d4e5"), "efiloc: spec is UUID=...");
	l.kind = EFILOC_PARTUUID;
	tap_ok(efiloc_spec(&l, spec, sizeof(spec)) == 0 && !strncmp(spec, "PARTUUID=", 9) &&
	       efiloc_spec(&l, spec, 20) == -ENAMETOOLONG, "efiloc: PARTUUID= spec, short buffer");
	tap_ok(efiloc_decode(f, EFILOC_FILE_SIZE - 1, &l) == -EMSGSIZE &&
	       efiloc_decode(f, 3, &l) == -EMSGSIZE && efiloc_decode(f, 0, &l) == -EMSGSIZE,
	       "efiloc: short variable refused");
	memset(f + EFILOC_FILE_SIZE, 0, 8);
	tap_ok(efiloc_decode(f, EFILOC_FILE_SIZE + 1, &l) == -EMSGSIZE &&
	       efiloc_decode(f, EFILOC_FILE_SIZE + 8, &l) == -EMSGSIZE, "efiloc: oversized refused");
	for (i = 32; i < EFILOC_FILE_SIZE * 8; i++) {
		memcpy(g, f, sizeof(g));
		g[i / 8] ^= (uint8_t)(1u << (i % 8));
		flips += efiloc_decode(g, sizeof(g), &l) < 0;
	}
	tap_ok(flips == EFILOC_FILE_SIZE * 8 - 32, "efiloc: every flipped bit past the attributes "
	       "refused (%d of %d)", flips, EFILOC_FILE_SIZE * 8 - 32);
	memcpy(g, f, sizeof(g));
	put_le32(g, 0x6);
	tap_ok(efiloc_decode(g, sizeof(g), &l) == -EBADMSG, "efiloc: volatile attributes refused");
	memcpy(g, f, sizeof(g));
	put_le16(g + 4 + 8, 2);
	reseal(g);
	tap_ok(efiloc_decode(g, sizeof(g), &l) == -EPROTO, "efiloc: unknown version refused");
	memcpy(g, f, sizeof(g));
	g[4 + 24 + 40] = 'x';	/* after the id's NUL */
	reseal(g);
	tap_ok(efiloc_decode(g, sizeof(g), &l) == -EBADMSG, "efiloc: bytes after a string refused");
	memcpy(g, f, sizeof(g));
	g[4 + 24] = '/';
	reseal(g);
	tap_ok(efiloc_decode(g, sizeof(g), &l) == -EBADMSG, "efiloc: id with a '/' refused");
	memcpy(g, f, sizeof(g));
	memset(g + 4 + 72, 'a', 68);
	reseal(g);
	tap_ok(efiloc_decode(g, sizeof(g), &l) == -EBADMSG, "efiloc: unterminated release refused");
	memcpy(g, f, sizeof(g));
	g[4 + 12] = 3;
	reseal(g);
	tap_ok(efiloc_decode(g, sizeof(g), &l) == -EBADMSG, "efiloc: unknown id kind refused");
	bad = sample;
	bad.release[0] = '\0';
	tap_ok(efiloc_encode(&bad, g) == -EINVAL, "efiloc: empty release not encoded");
	bad = sample;
	memset(bad.id, 'a', sizeof(bad.id));
	tap_ok(efiloc_encode(&bad, g) == -EINVAL, "efiloc: unterminated id not encoded");
}

static void test_files(void)
{
	char dir[] = "/tmp/test-efiloc-XXXXXX", path[256];
	struct efiloc l, other = sample;
	uint8_t junk[EFILOC_FILE_SIZE + 100];
	struct stat st;
	int fd;

	if (!mkdtemp(dir)) {
		tap_ok(0, "efiloc: mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, EFILOC_NAME);
	tap_ok(efiloc_read(dir, &l) == -ENOENT && efiloc_remove(dir) == -ENOENT,
	       "efiloc: no variable: read and remove say ENOENT");
	tap_ok(efiloc_write(dir, &sample) == 0 && stat(path, &st) == 0 &&
	       st.st_size == EFILOC_FILE_SIZE, "efiloc: written as one %d-byte file",
	       EFILOC_FILE_SIZE);
	tap_ok(efiloc_read(dir, &l) == 0 && same(&l, &sample), "efiloc: read back");
	other.offset_pages = 7;
	tap_ok(efiloc_write(dir, &other) == 0 && efiloc_read(dir, &l) == 0 && l.offset_pages == 7,
	       "efiloc: a second write replaces the first");
	tap_ok(efiloc_remove(dir) == 0 && stat(path, &st) < 0 && efiloc_read(dir, &l) == -ENOENT,
	       "efiloc: removed");
	memset(junk, 0x41, sizeof(junk));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	tap_ok(fd >= 0 && write(fd, junk, sizeof(junk)) == (ssize_t)sizeof(junk) && close(fd) == 0 &&
	       efiloc_read(dir, &l) == -EMSGSIZE, "efiloc: oversized file refused");
	other.release[0] = ' ';
	tap_ok(efiloc_write(dir, &other) == -EINVAL && stat(path, &st) == 0,
	       "efiloc: a bad location is not written (the file is left alone)");
	tap_ok(efiloc_remove(dir) == 0, "efiloc: junk removed");
	rmdir(dir);
}

int main(void)
{
	test_codec();
	test_files();
	return tap_done();
}
