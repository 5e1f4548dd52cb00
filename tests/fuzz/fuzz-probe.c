// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-probe.c - libFuzzer target for core/probe.c: superblocks, md members, GPT and MBR
 *
 * These parsers read bytes from every disk at every boot.  The input is one byte of
 * settings followed by the disk: bit 0 picks 4096-byte sectors (else 512), bits 1-7
 * the partition number asked for (1-128).  The disk is exactly the rest of libFuzzer's
 * heap copy, so ASan sees any read past it.  Besides not crashing, the target checks:
 *  - probe_fs(): 0 or 1; a label NUL-terminated in its buffer; has_uuid right;
 *  - probe_md(): 0 or 1 with good reads; with reads that fail, the error or a
 *    superblock found in the head alone;
 *  - probe_partition(): 0, -ENOENT or -EBADMSG; on 0 a PARTUUID in one of the
 *    kernel's two forms and a PARTLABEL of valid UTF-8; the same answer twice.
 */
/* fuzz-sources: core/probe.c core/crc32.c */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "probe.h"

struct mem {
	const uint8_t *p;
	size_t n;
};

static int mem_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	const struct mem *m = ctx;

	if (off > m->n || len > m->n - off)
		return -EBADMSG;
	memcpy(buf, m->p + off, len);
	return 0;
}

static int fail_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	return -EIO;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" or the MBR's "xxxxxxxx-pp" of partition @partno. */
static int partuuid_ok(const char *u, unsigned long partno)
{
	size_t i, n = strlen(u);

	if (n == 36) {
		for (i = 0; i < n; i++)
			if ((i == 8 || i == 13 || i == 18 || i == 23) ? u[i] != '-' : !is_hex(u[i]))
				return 0;
		return 1;
	}
	if (n != 11 || u[8] != '-' || strtoul(u + 9, NULL, 16) != partno)
		return 0;
	for (i = 0; i < n; i++)
		if (i != 8 && !is_hex(u[i]))
			return 0;
	return 1;
}

/* Valid UTF-8 without surrogates or overlong forms, up to the NUL. */
static int utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t c;
	int n, i;

	while (*p) {
		if (p[0] < 0x80) {
			p++;
			continue;
		}
		if (p[0] >= 0xc2 && p[0] <= 0xdf)
			n = 1;
		else if (p[0] >= 0xe0 && p[0] <= 0xef)
			n = 2;
		else if (p[0] >= 0xf0 && p[0] <= 0xf4)
			n = 3;
		else
			return 0;
		c = p[0] & (0x3f >> n);
		for (i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (p[i] & 0x3f);
		}
		if ((n == 2 && (c < 0x800 || (c >= 0xd800 && c < 0xe000))) ||
		    (n == 3 && (c < 0x10000 || c > 0x10ffff)))
			return 0;
		p += n + 1;
	}
	return 1;
}

static void fuzz_fs(const uint8_t *disk, size_t n)
{
	static const uint8_t zero[16];
	struct probe_id id;
	int r;

	memset(&id, 0xa5, sizeof(id));
	r = probe_fs(disk, n, &id);
	check(r == 0 || r == 1);
	if (r == 1) {
		check(memchr(id.label, '\0', sizeof(id.label)) != NULL);
		check(id.has_uuid == (memcmp(id.uuid, zero, 16) != 0));
	}
}

static void fuzz_md(const uint8_t *disk, size_t n)
{
	struct mem m = { disk, n };
	struct probe_dev dev = { mem_read, &m, n };
	size_t head = n < PROBE_HEAD_LEN ? n : PROBE_HEAD_LEN;
	int r, r_fail, r_head;

	r = probe_md(&dev, disk, head);
	check(r == 0 || r == 1);
	/* a device that claims more than it has: the reads past the end find nothing */
	dev.size = (uint64_t)n + 65536 * 3 + 512 * (disk[0] % 16);
	check(probe_md(&dev, disk, head) >= 0);
	/* the head alone, with a device too small for the end superblocks */
	dev.size = 0;
	r_head = probe_md(&dev, disk, head);
	check(r_head == 0 || r_head == 1);
	check(!r_head || r);
	dev.size = n;
	dev.read = fail_read;
	r_fail = probe_md(&dev, disk, head);
	check(r_fail == -EIO || (r_fail == 1 && r_head == 1) || (r_fail == 0 && n < 8192));
}

static void fuzz_partition(const uint8_t *disk, size_t n, unsigned int ss, unsigned long partno)
{
	struct mem m = { disk, n };
	struct probe_dev dev = { mem_read, &m, n };
	struct probe_part pi, again;
	int r;

	memset(&pi, 0xa5, sizeof(pi));
	r = probe_partition(&dev, ss, partno, &pi);
	check(r == 0 || r == -ENOENT || r == -EBADMSG);
	if (r == 0) {
		check(partuuid_ok(pi.uuid, partno));
		check(memchr(pi.label, '\0', sizeof(pi.label)) != NULL);
		check(utf8_ok(pi.label));
		check(probe_partition(&dev, ss, partno, &again) == 0);
		check(!strcmp(pi.uuid, again.uuid) && !strcmp(pi.label, again.label));
	}
	check(probe_partition(&dev, ss, 0, &pi) == -EINVAL);
	check(probe_partition(&dev, ss + 1, partno, &pi) == -EINVAL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int ss;
	unsigned long partno;

	if (size < 1)
		return 0;
	ss = data[0] & 1 ? 4096 : 512;
	partno = (data[0] >> 1) + 1;
	data++;
	size--;
	fuzz_fs(data, size);
	if (size)
		fuzz_md(data, size);
	fuzz_partition(data, size, ss, partno);
	return 0;
}
