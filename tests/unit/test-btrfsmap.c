// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-btrfsmap.c - decoding of crafted btrfs tree search results: file extent
 * items, chunk items (single, DUP, RAID, several stripes, truncated, overflowing),
 * the search buffer walk, and the mountinfo source lookup
 */
#include <errno.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "btrfsmap.h"
#include "mountinfo.h"
#include "tap.h"

static void put64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* a file extent item of @type at disk_bytenr @bytenr, extent offset @off */
static void make_extent(uint8_t *d, uint8_t type, uint64_t bytenr, uint64_t off)
{
	memset(d, 0, 53);
	put64(d + 0, 7);		/* generation */
	put64(d + 8, 1 << 20);		/* ram_bytes */
	d[20] = type;
	put64(d + 21, bytenr);
	put64(d + 29, 1 << 20);		/* disk_num_bytes */
	put64(d + 37, off);
	put64(d + 45, 1 << 20);		/* num_bytes */
}

static struct btrfsmap_item item(uint64_t objectid, uint32_t type, uint64_t offset,
				 const uint8_t *data, uint32_t len)
{
	struct btrfsmap_item it = { objectid, offset, type, len, data };

	return it;
}

static void test_extent(void)
{
	uint8_t d[53];
	struct btrfsmap_item it;
	uint64_t l = 0;

	make_extent(d, BTRFS_FILE_EXTENT_REG, 0x40000000, 0);
	it = item(257, BTRFS_EXTENT_DATA_KEY, 0, d, sizeof(d));
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == 0 && l == 0x40000000,
	       "btrfsmap: a regular extent gives its disk_bytenr");
	make_extent(d, BTRFS_FILE_EXTENT_PREALLOC, 0x40000000, 8192);
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == 0 && l == 0x40002000,
	       "btrfsmap: a preallocated extent, the extent offset added");
	tap_ok(btrfsmap_file_extent(&it, 258, &l) == -EBADMSG,
	       "btrfsmap: an item of another inode is refused");
	it.offset = 4096;
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EBADMSG,
	       "btrfsmap: an extent not at file offset 0 is refused");
	it.offset = 0;
	it.type = BTRFS_INODE_ITEM_KEY;
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EBADMSG, "btrfsmap: an item of another type");
	it.type = BTRFS_EXTENT_DATA_KEY;
	d[16] = 1;
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EMEDIUMTYPE, "btrfsmap: compressed extent");
	d[16] = 0;
	d[17] = 1;
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EMEDIUMTYPE, "btrfsmap: encrypted extent");
	d[17] = 0;
	put16(d + 18, 1);
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EMEDIUMTYPE, "btrfsmap: other encoding");
	make_extent(d, BTRFS_FILE_EXTENT_REG, 0, 0);
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EMEDIUMTYPE, "btrfsmap: a hole");
	make_extent(d, BTRFS_FILE_EXTENT_INLINE, 0, 0);
	it.len = 21 + 10;
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EMEDIUMTYPE,
	       "btrfsmap: an inline extent (short item)");
	make_extent(d, 3, 0x40000000, 0);
	it.len = sizeof(d);
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EBADMSG, "btrfsmap: unknown extent type");
	make_extent(d, BTRFS_FILE_EXTENT_REG, 0x40000000, 0);
	it.len = 52;
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EBADMSG,
	       "btrfsmap: a regular extent one byte short");
	it.len = 20;
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EBADMSG, "btrfsmap: an item without a type");
	it.len = sizeof(d);
	make_extent(d, BTRFS_FILE_EXTENT_REG, UINT64_MAX - 10, 4096);
	tap_ok(btrfsmap_file_extent(&it, 257, &l) == -EBADMSG,
	       "btrfsmap: disk_bytenr + offset overflowing");
}

/* a chunk item of @len bytes at logical @start: @stripes stripes, the first at @phys */
static uint32_t make_chunk(uint8_t *d, uint64_t length, uint64_t type, uint16_t stripes,
			   uint64_t phys)
{
	uint16_t i;

	memset(d, 0, 48 + 32 * 4);
	put64(d + 0, length);
	put64(d + 8, 2);
	put64(d + 16, 65536);
	put64(d + 24, type);
	put16(d + 44, stripes);
	put16(d + 46, 1);
	for (i = 0; i < stripes && i < 4; i++) {
		put64(d + 48 + 32 * i, 1 + i);
		put64(d + 48 + 32 * i + 8, phys + (uint64_t)i * length);
	}
	return 48 + 32 * (uint32_t)stripes;
}

static void test_chunk(void)
{
	uint8_t d[48 + 32 * 4];
	struct btrfsmap_item it;
	uint64_t dev = 0, p = 0, start = 0x52000000;
	uint32_t len;

	len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA, 1, 0x1500000);
	it = item(BTRFS_FIRST_CHUNK_TREE_OBJECTID, BTRFS_CHUNK_ITEM_KEY, start, d, len);
	tap_ok(btrfsmap_chunk(&it, start + 0x3000, &dev, &p) == 1 && dev == 1 &&
	       p == 0x1503000, "btrfsmap: single data chunk: stripe offset + distance from start");
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == 1 && p == 0x1500000,
	       "btrfsmap: the chunk's first byte");
	tap_ok(btrfsmap_chunk(&it, start + (1 << 30) - 1, &dev, &p) == 1 &&
	       p == 0x1500000 + (1 << 30) - 1, "btrfsmap: the chunk's last byte");
	tap_ok(btrfsmap_chunk(&it, start + (1 << 30), &dev, &p) == 0,
	       "btrfsmap: just past the chunk is not in it");
	tap_ok(btrfsmap_chunk(&it, start - 1, &dev, &p) == 0,
	       "btrfsmap: just before the chunk is not in it");
	make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_METADATA, 1, 0x1500000);
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == 1, "btrfsmap: a mixed data+metadata chunk");
	make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_METADATA, 1, 0x1500000);
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EBADMSG,
	       "btrfsmap: a metadata chunk holds no file data");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_DUP, 2, 1 << 20);
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EXDEV, "btrfsmap: DUP data is refused");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_RAID1, 2, 0);
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EXDEV, "btrfsmap: RAID1 is refused");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_RAID0, 4, 0);
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EXDEV, "btrfsmap: RAID0 is refused");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_RAID6, 4, 0);
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EXDEV, "btrfsmap: RAID6 is refused");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA, 2, 0);
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EXDEV,
	       "btrfsmap: two stripes without a profile are refused");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA, 2, 0) - 1;
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EBADMSG,
	       "btrfsmap: num_stripes beyond the item's length");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA, 0, 0);
	it.len = 80;
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EBADMSG, "btrfsmap: zero stripes");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA, 1, 0) - 1;
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EBADMSG, "btrfsmap: a truncated stripe");
	it.len = 10;
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EBADMSG, "btrfsmap: a 10-byte chunk item");
	it.len = make_chunk(d, 0, BTRFS_BLOCK_GROUP_DATA, 1, 0);
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EBADMSG, "btrfsmap: a zero-length chunk");
	it.len = make_chunk(d, UINT64_MAX, BTRFS_BLOCK_GROUP_DATA, 1, 0);
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EBADMSG,
	       "btrfsmap: start + length overflowing");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA, 1, UINT64_MAX - 4096);
	tap_ok(btrfsmap_chunk(&it, start + 8192, &dev, &p) == -EBADMSG,
	       "btrfsmap: stripe offset + distance overflowing");
	it.len = make_chunk(d, 1 << 30, BTRFS_BLOCK_GROUP_DATA, 1, 0);
	it.objectid = 255;
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EBADMSG, "btrfsmap: wrong chunk objectid");
	it.objectid = BTRFS_FIRST_CHUNK_TREE_OBJECTID;
	it.type = BTRFS_DEV_ITEM_KEY;
	tap_ok(btrfsmap_chunk(&it, start, &dev, &p) == -EBADMSG, "btrfsmap: not a chunk item");
}

/* append a search header and @len bytes of @data to @buf at *@pos */
static void put_item(uint8_t *buf, size_t *pos, uint64_t objectid, uint32_t type,
		     uint64_t offset, uint32_t len, const uint8_t *data)
{
	struct btrfs_ioctl_search_header sh = { 1, objectid, offset, type, len };

	memcpy(buf + *pos, &sh, sizeof(sh));
	*pos += sizeof(sh);
	if (data)
		memcpy(buf + *pos, data, len);
	*pos += len;
}

static void test_walk(void)
{
	uint8_t buf[512], d[53];
	struct btrfsmap_item it;
	size_t end = 0, pos = 0;

	memset(buf, 0, sizeof(buf));
	make_extent(d, BTRFS_FILE_EXTENT_REG, 4096, 0);
	put_item(buf, &end, 257, BTRFS_EXTENT_DATA_KEY, 0, sizeof(d), d);
	put_item(buf, &end, 257, BTRFS_EXTENT_DATA_KEY, 1 << 20, 0, NULL);
	tap_ok(btrfsmap_next_item(buf, end, &pos, &it) == 0 && it.objectid == 257 &&
	       it.offset == 0 && it.len == 53 && it.data == buf + 32 && pos == 32 + 53,
	       "btrfsmap: first item of a search buffer");
	tap_ok(btrfsmap_next_item(buf, end, &pos, &it) == 0 && it.offset == 1 << 20 &&
	       it.len == 0 && pos == end, "btrfsmap: an empty second item");
	tap_ok(btrfsmap_next_item(buf, end, &pos, &it) == -ENOENT, "btrfsmap: end of the buffer");
	pos = 0;
	tap_ok(btrfsmap_next_item(buf, 31, &pos, &it) == -EBADMSG && pos == 0,
	       "btrfsmap: a header cut short");
	tap_ok(btrfsmap_next_item(buf, 32 + 52, &pos, &it) == -EBADMSG,
	       "btrfsmap: item data past the buffer");
	end = 0;
	put_item(buf, &end, 257, BTRFS_EXTENT_DATA_KEY, 0, UINT32_MAX, NULL);
	pos = 0;
	tap_ok(btrfsmap_next_item(buf, sizeof(buf), &pos, &it) == -EBADMSG,
	       "btrfsmap: an item length of 4 GiB");
}

static void test_mountinfo(void)
{
	char l[] = "29 1 0:26 / / rw,relatime shared:1 - btrfs /dev/vda rw,space_cache=v2\n";
	struct mountinfo_entry e;

	tap_ok(mountinfo_parse_line(l, &e) == 0, "btrfsmap: a btrfs mountinfo line parses");
	tap_ok(btrfsmap_mount_matches(&e, 29, 0, 0) && !strcmp(e.source, "/dev/vda"),
	       "btrfsmap: mount found by mount id");
	tap_ok(!btrfsmap_mount_matches(&e, 30, 0, 26), "btrfsmap: another mount id does not match");
	tap_ok(btrfsmap_mount_matches(&e, -1, 0, 26), "btrfsmap: mount found by device number");
	tap_ok(!btrfsmap_mount_matches(&e, -1, 0, 27),
	       "btrfsmap: another device number does not match");
}

int main(void)
{
	test_extent();
	test_chunk();
	test_walk();
	test_mountinfo();
	return tap_done();
}
