// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - identify a device from its bytes: superblocks, md members, GPT and MBR
 *
 * Everything here parses bytes read from a disk at every boot, so every offset
 * and count is checked against the buffer or the device size before use, and
 * GPT headers and entry arrays must pass their CRCs, as the kernel's efi.c
 * requires.  No I/O of its own: struct probe_dev's read function does it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "le.h"
#include "probe.h"
#include "util.h"

#define GPT_ENTRY_SIZE		128		/* the only size the kernel accepts */
#define GPT_ARRAY_MAX		(1u << 20)	/* 8192 entries; real tables have 128 */
#define MD_MAGIC		0xa92b4efcu	/* md_p.h MD_SB_MAGIC */
#define MD_SB_LEN		152		/* through mdp_superblock_1.super_offset at 144 */

static void set_id(struct probe_id *id, const uint8_t *uuid, const uint8_t *label,
		   size_t label_max)
{
	static const uint8_t zero[16];
	size_t n = 0;

	memcpy(id->uuid, uuid, 16);
	id->has_uuid = memcmp(uuid, zero, 16) != 0;
	while (n < label_max && n < sizeof(id->label) - 1 && label[n])
		n++;
	memcpy(id->label, label, n);
	id->label[n] = '\0';
}

/* A v1 swap header, or one whose signature a hibernation image replaced. */
static int probe_swap(const uint8_t *b, size_t n, struct probe_id *id)
{
	static const char *const sigs[] = {
		"SWAPSPACE2", "S1SUSPEND", "S2SUSPEND", "ULSUSPEND", "LINHIB0001",
	};
	size_t ps, i;

	if (n < 4096 || get_le32(b + 1024) != 1)	/* swap_header.info.version */
		return 0;
	for (ps = 4096; ps <= 65536 && ps <= n; ps <<= 1) {
		for (i = 0; i < ARRAY_SIZE(sigs); i++) {
			if (!memcmp(b + ps - 10, sigs[i], strlen(sigs[i]))) {
				set_id(id, b + 1024 + 12, b + 1024 + 28, 16);
				return 1;
			}
		}
	}
	return 0;
}

/* ext2/3/4: the superblock at 1024, s_magic 0xEF53 at +0x38. */
static int probe_ext(const uint8_t *b, size_t n, struct probe_id *id)
{
	const uint8_t *sb = b + 1024;

	if (n < 2048 || get_le16(sb + 0x38) != 0xef53)
		return 0;
	set_id(id, sb + 0x68, sb + 0x78, 16);
	return 1;
}

/* xfs: "XFSB" at 0, sb_uuid at 32, sb_fname[12] at 108. */
static int probe_xfs(const uint8_t *b, size_t n, struct probe_id *id)
{
	if (n < 512 || memcmp(b, "XFSB", 4))
		return 0;
	set_id(id, b + 32, b + 108, 12);
	return 1;
}

/* btrfs: superblock at 64 KiB, magic at +0x40, fsid at +0x20, label[256] at +0x12b. */
static int probe_btrfs(const uint8_t *b, size_t n, struct probe_id *id)
{
	const uint8_t *sb = b + 65536;

	if (n < 65536 + 0x12b + 256 || memcmp(sb + 0x40, "_BHRfS_M", 8))
		return 0;
	set_id(id, sb + 0x20, sb + 0x12b, 256);
	return 1;
}

/* Superblock identity from the first bytes; kernel-doc in probe.h. */
int probe_fs(const uint8_t *head, size_t len, struct probe_id *id)
{
	if (len > PROBE_HEAD_LEN)
		len = PROBE_HEAD_LEN;
	return probe_swap(head, len, id) || probe_ext(head, len, id) || probe_xfs(head, len, id) ||
	       probe_btrfs(head, len, id);
}

/* md_p.h mdp_superblock_s: md_magic and major_version 0, in the creating host's byte order. */
static int md_is_v090(const uint8_t *sb)
{
	return (get_le32(sb) == MD_MAGIC && get_le32(sb + 4) == 0) ||
	       (get_be32(sb) == MD_MAGIC && get_be32(sb + 4) == 0);
}

/* md_p.h mdp_superblock_1: magic, major_version 1, and super_offset naming sector @sector. */
static int md_is_v1(const uint8_t *sb, uint64_t sector)
{
	return get_le32(sb) == MD_MAGIC && get_le32(sb + 4) == 1 && get_le64(sb + 144) == sector;
}

/* Read MD_SB_LEN bytes at @off into @sb: 1 when read, 0 when past the end, -errno. */
static int md_read(const struct probe_dev *dev, uint64_t off, uint8_t *sb)
{
	int r;

	if (off > dev->size || dev->size - off < MD_SB_LEN)
		return 0;
	r = dev->read(dev->ctx, sb, MD_SB_LEN, off);
	if (r == -EBADMSG)
		return 0;
	return r < 0 ? r : 1;
}

/* Any md member superblock; kernel-doc in probe.h. */
int probe_md(const struct probe_dev *dev, const uint8_t *head, size_t len)
{
	uint64_t sectors = dev->size >> 9, at;
	uint8_t sb[MD_SB_LEN];
	int r;

	/* 1.1 at sector 0 and 1.2 at sector 8 are inside the head */
	if (len >= MD_SB_LEN && md_is_v1(head, 0))
		return 1;
	if (len >= 4096 + MD_SB_LEN && md_is_v1(head + 4096, 8))
		return 1;
	/* 0.90: md_p.h MD_NEW_SIZE_SECTORS(), the last whole 64 KiB, from 128-sector units */
	if (sectors >= 128) {
		at = (sectors & ~(uint64_t)127) - 128;
		r = md_read(dev, at << 9, sb);
		if (r < 0)
			return r;
		if (r && md_is_v090(sb))
			return 1;
	}
	/* 1.0: md.c super_1_load(), 8 KiB before the end, rounded down to 4 KiB */
	if (sectors >= 16) {
		at = (sectors - 16) & ~(uint64_t)7;
		r = md_read(dev, at << 9, sb);
		if (r < 0)
			return r;
		if (r && md_is_v1(sb, at))
			return 1;
	}
	return 0;
}

/* 16 bytes as hex text; kernel-doc in probe.h. */
void probe_uuid_hex(const uint8_t uuid[16], char out[33])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 16; i++) {
		out[2 * i] = hex[uuid[i] >> 4];
		out[2 * i + 1] = hex[uuid[i] & 15];
	}
	out[32] = '\0';
}

/* A GPT GUID as text: the first three fields are little-endian on disk. */
static void guid_text(const uint8_t g[16], char out[37])
{
	static const int order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	uint8_t u[16];
	char h[33];
	int i, j;

	for (i = 0; i < 16; i++)
		u[i] = g[order[i]];
	probe_uuid_hex(u, h);
	for (i = 0, j = 0; i < 32; i++) {
		if (i == 8 || i == 12 || i == 16 || i == 20)
			out[j++] = '-';
		out[j++] = h[i];
	}
	out[j] = '\0';
}

static size_t put_utf8(char *out, size_t pos, size_t len, uint32_t c)
{
	uint8_t b[4];
	size_t n, i;

	if (c < 0x80) {
		b[0] = c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = 0xc0 | c >> 6;
		b[1] = 0x80 | (c & 0x3f);
		n = 2;
	} else if (c < 0x10000) {
		b[0] = 0xe0 | c >> 12;
		b[1] = 0x80 | ((c >> 6) & 0x3f);
		b[2] = 0x80 | (c & 0x3f);
		n = 3;
	} else {
		b[0] = 0xf0 | c >> 18;
		b[1] = 0x80 | ((c >> 12) & 0x3f);
		b[2] = 0x80 | ((c >> 6) & 0x3f);
		b[3] = 0x80 | (c & 0x3f);
		n = 4;
	}
	if (pos + n >= len)
		return pos;
	for (i = 0; i < n; i++)
		out[pos + i] = b[i];
	return pos + n;
}

/* GPT partition name (UTF-16LE, NUL-padded) to UTF-8; a lone surrogate becomes U+FFFD. */
static void utf16le_to_utf8(const uint8_t *in, size_t units, char *out, size_t len)
{
	size_t i, pos = 0;

	for (i = 0; i < units; i++) {
		uint32_t c = get_le16(in + 2 * i), lo;

		if (c == 0)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < units) {
			lo = get_le16(in + 2 * i + 2);
			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				i++;
			}
		}
		if (c >= 0xd800 && c < 0xe000)
			c = 0xfffd;
		pos = put_utf8(out, pos, len, c);
	}
	out[pos] = '\0';
}

/* Header checks of the kernel's is_gpt_valid(); returns 0 or -EBADMSG. */
static int gpt_check_header(uint8_t *h, unsigned int ss, uint64_t lba, uint64_t sectors)
{
	uint32_t hsize = get_le32(h + 12), crc = get_le32(h + 16), num = get_le32(h + 80);
	uint64_t entry_lba = get_le64(h + 72), array_sectors;

	if (memcmp(h, "EFI PART", 8) || hsize < 92 || hsize > ss)
		return -EBADMSG;
	memset(h + 16, 0, 4);
	if (crc32_update(0, h, hsize) != crc)
		return -EBADMSG;
	if (get_le64(h + 24) != lba || get_le64(h + 40) >= sectors || get_le64(h + 48) >= sectors)
		return -EBADMSG;
	if (get_le32(h + 84) != GPT_ENTRY_SIZE || num == 0 ||
	    num > GPT_ARRAY_MAX / GPT_ENTRY_SIZE)
		return -EBADMSG;
	array_sectors = ((uint64_t)num * GPT_ENTRY_SIZE + ss - 1) / ss;
	if (entry_lba >= sectors || array_sectors > sectors - entry_lba)
		return -EBADMSG;
	return 0;
}

/*
 * Entry @partno (1-based) of the GPT whose header is at @lba.
 * Returns 0, -ENOENT (entry unused or past the table), -EBADMSG (table invalid), -errno.
 */
static int gpt_try(const struct probe_dev *dev, unsigned int ss, uint64_t lba,
		   unsigned long partno, struct probe_part *pi)
{
	static const uint8_t unused[16];
	uint64_t sectors = dev->size / ss;
	uint8_t *h, *tab = NULL, *e;
	uint32_t num, bytes;
	int r;

	h = malloc(ss);
	if (!h)
		return -ENOMEM;
	r = dev->read(dev->ctx, h, ss, lba * ss);	/* lba < sectors: no overflow */
	if (r == 0)
		r = gpt_check_header(h, ss, lba, sectors);
	if (r < 0)
		goto out;
	num = get_le32(h + 80);
	bytes = num * GPT_ENTRY_SIZE;	/* <= GPT_ARRAY_MAX, checked above */
	r = -ENOMEM;
	tab = malloc(bytes);
	if (!tab)
		goto out;
	r = dev->read(dev->ctx, tab, bytes, get_le64(h + 72) * ss);
	if (r == 0 && crc32_update(0, tab, bytes) != get_le32(h + 88))
		r = -EBADMSG;
	if (r < 0)
		goto out;
	r = -ENOENT;
	if (partno > num)
		goto out;
	e = tab + (partno - 1) * GPT_ENTRY_SIZE;
	/* the kernel's is_pte_valid(): a type GUID, and both ends on the disk */
	if (!memcmp(e, unused, 16) || get_le64(e + 32) >= sectors || get_le64(e + 40) >= sectors)
		goto out;
	guid_text(e + 16, pi->uuid);
	utf16le_to_utf8(e + 56, 36, pi->label, sizeof(pi->label));
	r = 0;
out:
	free(tab);
	free(h);
	return r;
}

/* A protective MBR: 55aa and a partition of type 0xee, as the kernel's is_pmbr_valid(). */
static int mbr_is_protective(const uint8_t *mbr)
{
	int i;

	if (mbr[510] != 0x55 || mbr[511] != 0xaa)
		return 0;
	for (i = 0; i < 4; i++)
		if (mbr[446 + 16 * i + 4] == 0xee)
			return 1;
	return 0;
}

/* PARTUUID and PARTLABEL of partition @partno; kernel-doc in probe.h. */
int probe_partition(const struct probe_dev *dev, unsigned int sector_size, unsigned long partno,
		    struct probe_part *pi)
{
	unsigned int ss = sector_size;
	uint64_t sectors;
	uint8_t *mbr;
	int r;

	if (ss < 512 || ss > 65536 || (ss & (ss - 1)) || partno == 0 || partno > 65535)
		return -EINVAL;
	sectors = dev->size / ss;
	if (sectors < 3)
		return -ENOENT;
	mbr = malloc(ss);
	if (!mbr)
		return -ENOMEM;
	r = dev->read(dev->ctx, mbr, ss, 0);
	if (r < 0)
		goto out;
	if (mbr_is_protective(mbr)) {
		/* the kernel falls back to the backup GPT at the last sector */
		r = gpt_try(dev, ss, 1, partno, pi);
		if (r == -EBADMSG)
			r = gpt_try(dev, ss, sectors - 1, partno, pi);
	} else if (mbr[510] == 0x55 && mbr[511] == 0xaa) {
		/* block/partitions/msdos.c: "%08x-%02x" of the disk signature and the number */
		snprintf(pi->uuid, sizeof(pi->uuid), "%08x-%02x",
			 (unsigned int)get_le32(mbr + 440), (unsigned int)partno);
		pi->label[0] = '\0';
	} else {
		r = -ENOENT;
	}
out:
	free(mbr);
	return r;
}
