// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-image.c - the on-disk records: encode/decode round trips and every
 * malformed header we could think of, each of which must be rejected.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "image.h"
#include "le.h"
#include "tap.h"

#define PS 4096

static void make_swap_page(uint8_t *page)
{
	memset(page, 0, PS);
	page[1024] = 1;				/* v1 header: version 1 */
	memcpy(page + 1024 + 12, "0123456789abcdef", 16);	/* uuid */
	memcpy(page + 1024 + 28, "myswap", 6);	/* label */
	memcpy(page + PS - 10, SWAP_SIG, 10);
}

static void make_root(struct torpor_root *r)
{
	memset(r, 0, sizeof(*r));
	r->version = TORPOR_FORMAT_VERSION;
	r->page_size = PS;
	r->meta_bytes = 4000;
	r->meta_hash = 0x123456789abcdef0ull;
	r->nr_meta_extents = 2;
	r->meta_extents[0].offset = 10 * PS;
	r->meta_extents[0].pages = 1;
	r->meta_extents[1].offset = 20 * PS;
	r->meta_extents[1].pages = 1;
	memcpy(r->orig_sig, SWAP_SIG, 10);
}

/* Re-encode a root after poking a field at byte @off of the record, fixing the CRC. */
static int decode_poked(const uint8_t *good, size_t off, uint32_t val, int fix_crc)
{
	uint8_t page[PS];
	struct torpor_root r;
	uint8_t *rec = page + TORPOR_ROOT_OFFSET;
	uint32_t crc;

	memcpy(page, good, PS);
	memcpy(rec + off, &val, 4);
	if (fix_crc) {
		memset(rec + sizeof(struct torpor_root) - 4, 0, 4);
		crc = crc32_update(0, rec, sizeof(struct torpor_root));
		memcpy(rec + sizeof(struct torpor_root) - 4, &crc, 4);
	}
	return image_root_decode(page, PS, &r);
}

static void test_root(void)
{
	uint8_t page[PS], orig[PS];
	struct torpor_root r, d;
	size_t i;
	int ok;

	make_swap_page(page);
	memcpy(orig, page, PS);
	tap_ok(image_classify(page, PS) == IMAGE_SIG_SWAP, "image: mkswap page is plain swap");
	tap_ok(image_root_decode(page, PS, &d) == -ENOENT, "image: plain swap has no image");
	make_root(&r);
	image_root_encode(&r, page, PS);
	tap_ok(image_classify(page, PS) == IMAGE_SIG_TORPOR, "image: encoded page carries S2SUSPEND");
	tap_ok(!memcmp(page, orig, TORPOR_ROOT_OFFSET), "image: mkswap header (uuid, label) kept");
	tap_ok(image_root_decode(page, PS, &d) == 0 && d.meta_bytes == r.meta_bytes &&
	       d.meta_hash == r.meta_hash && d.nr_meta_extents == 2 &&
	       d.meta_extents[1].offset == 20 * PS && !memcmp(d.orig_sig, SWAP_SIG, 10),
	       "image: root record round trip");
	ok = 1;
	for (i = 0; i < sizeof(struct torpor_root) * 8; i++) {
		page[TORPOR_ROOT_OFFSET + i / 8] ^= 1 << (i % 8);
		if (image_root_decode(page, PS, &d) == 0)
			ok = 0;
		page[TORPOR_ROOT_OFFSET + i / 8] ^= 1 << (i % 8);
	}
	tap_ok(ok, "image: every single flipped bit of the root record is rejected");
	tap_ok(decode_poked(page, 8, 3, 1) == -EPROTO, "image: unknown format version rejected");
	tap_ok(decode_poked(page, 16, 8192, 1) == -EMEDIUMTYPE, "image: other page size rejected");
	tap_ok(decode_poked(page, 12, 100, 1) == -EBADMSG, "image: wrong record size rejected");
	tap_ok(decode_poked(page, 20, 1, 1) == -EBADMSG, "image: unknown flags rejected");
	tap_ok(decode_poked(page, 40, 0, 1) == -EBADMSG, "image: zero meta extents rejected");
	tap_ok(decode_poked(page, 40, 65, 1) == -EBADMSG, "image: too many meta extents rejected");
	tap_ok(decode_poked(page, 44, 1, 1) == -EBADMSG, "image: reserved root field rejected");
	tap_ok(decode_poked(page, 24, 10, 1) == -EBADMSG, "image: tiny meta length rejected");
	tap_ok(decode_poked(page, 28, 0x7fffffff, 1) == -EBADMSG, "image: huge meta length rejected");
	tap_ok(decode_poked(page, 48 + 64 * 16, 0x41414141, 1) == -EBADMSG,
	       "image: garbage original signature rejected");
	memcpy(page + TORPOR_ROOT_OFFSET, "XORPORRT", 8);
	tap_ok(image_root_decode(page, PS, &d) == -EBADMSG,
	       "image: S2SUSPEND with a damaged magic is a damaged header");
	memcpy(page + PS - 10, "S1SUSPEND", 10);
	tap_ok(image_classify(page, PS) == IMAGE_SIG_OTHER, "image: kernel's S1SUSPEND is not ours");
}

/*
 * A root record of another format in @page: @size bytes, @version, the CRC-32 in
 * its last 4 bytes (format 1: 1080 bytes, the meta CRC-32 at 32, extents at 40).
 */
static void put_other_root(uint8_t *page, uint32_t version, uint32_t size)
{
	uint8_t *rec = page + TORPOR_ROOT_OFFSET;
	uint32_t crc;

	make_swap_page(page);
	memcpy(rec, TORPOR_ROOT_MAGIC, 8);
	memcpy(rec + 8, &version, 4);
	memcpy(rec + 12, &size, 4);
	rec[17] = 0x10;				/* page size 4096 */
	rec[25] = 0x10;				/* meta_bytes */
	rec[36] = 1;				/* format 1: one meta extent */
	rec[41] = 0x20;				/* at byte 8192 */
	rec[48] = 1;
	memcpy(rec + size - 16, SWAP_SIG, 10);	/* format 1's orig_sig */
	crc = crc32_update(0, rec, size);
	memcpy(rec + size - 4, &crc, 4);
	memcpy(page + PS - 10, TORPOR_SIG, 10);
}

static void test_other_format(void)
{
	uint8_t page[PS];
	struct torpor_root d;

	put_other_root(page, 1, 1080);
	tap_ok(image_root_decode(page, PS, &d) == -EPROTO && image_root_version(page, PS) == 1,
	       "image: an intact format 1 root is refused for its version, and says 1");
	page[TORPOR_ROOT_OFFSET + 100] ^= 1;
	tap_ok(image_root_decode(page, PS, &d) == -EBADMSG && image_root_version(page, PS) == 0,
	       "image: a damaged format 1 root is a damaged header");
	put_other_root(page, 3, 1200);
	tap_ok(image_root_decode(page, PS, &d) == -EPROTO && image_root_version(page, PS) == 3,
	       "image: a larger root of a newer format is refused for its version");
	put_other_root(page, 3, 4096 - 2048 - 8);
	tap_ok(image_root_decode(page, PS, &d) == -EBADMSG && image_root_version(page, PS) == 0,
	       "image: a root size running into the signature is a damaged header");
	make_swap_page(page);
	tap_ok(image_root_version(page, PS) == 0, "image: plain swap has no format version");
}

/* A consistent meta for @nr_blocks blocks of a @stream stream in one extent. */
static void make_image(struct torpor_image *img, uint64_t stream)
{
	struct torpor_meta *m = &img->meta;
	uint64_t bb = (uint64_t)TORPOR_BLOCK_PAGES * PS;
	uint32_t i;

	memset(img, 0, sizeof(*img));
	memcpy(m->magic, TORPOR_META_MAGIC, 8);
	m->version = TORPOR_FORMAT_VERSION;
	m->meta_size = sizeof(struct torpor_meta);
	m->page_size = PS;
	m->algorithm = TORPOR_ALG_LZ4;
	m->block_pages = TORPOR_BLOCK_PAGES;
	m->stream_bytes = stream;
	m->nr_blocks = (uint32_t)((stream + bb - 1) / bb);
	m->nr_extents = 1;
	m->nr_fs = 1;
	strcpy(m->release, "6.1.0-57-amd64");
	strcpy(m->kversion, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3");
	strcpy(m->machine, "x86_64");
	img->blocks = calloc(m->nr_blocks, sizeof(*img->blocks));
	img->extents = calloc(1, sizeof(*img->extents));
	img->fs = calloc(1, sizeof(*img->fs));
	for (i = 0; i < m->nr_blocks; i++) {
		img->blocks[i].stored_len = 1000 + i % 3000;
		img->blocks[i].hash = i * 7 + (1ull << 40);
		m->stored_bytes += 1000 + i % 3000;
		m->data_pages += 1;
	}
	img->extents[0].offset = PS;
	img->extents[0].pages = (uint32_t)m->data_pages;
	img->fs[0].dev = 0xfe01;
	img->fs[0].kind = TORPOR_FS_EXT;
	img->fs[0].mount_count = 7;
}

static int decode_buf(uint8_t *buf, size_t len, uint64_t dev)
{
	struct torpor_image d;
	int r;

	memset(&d, 0, sizeof(d));
	r = image_meta_decode(buf, len, dev, 0, &d);
	image_free(&d);
	return r;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* tests run on little-endian x86 */
}

/* a word of the encoded meta overwritten: the decoder must reject the result */
struct poke {
	size_t off;
	uint32_t val;
	const char *what;
};

/* in make_image()'s meta: the header, then its one extent, then the first block */
#define EXT sizeof(struct torpor_meta)
#define BLK (EXT + 16)
static const struct poke meta_pokes[] = {
	{ 0, 0x58585858, "bad meta magic" },
	{ 8, 9, "unknown meta version" },
	{ 16, 1000, "non power-of-two page size" },
	{ 24, 7, "unknown algorithm" },
	{ 28, 0, "zero block size" },
	{ 28, 100000, "huge block size" },
	{ 32, 12345, "stream not a page multiple" },
	{ 40, 1, "stored bytes not matching blocks" },
	{ 48, 99, "data pages not matching blocks" },
	{ 56, 12, "block count not matching stream" },
	{ 60, 0, "zero extents" },
	{ 60, 0x10000000, "enormous extent count" },
	{ 64, 0xffffffff, "enormous filesystem count" },
	{ EXT + 8, 0, "zero-length extent" },
	{ EXT + 0, 123, "unaligned extent" },
	{ EXT + 4, 0xffffffff, "extent offset past 2^63" },
	{ BLK + 0, 0, "zero stored length" },
	{ BLK + 0, 300000, "stored length above the LZ4 bound" },
	{ BLK + 4, 4, "unknown block flag" },
	{ BLK + 4, TORPOR_BLOCK_RAW, "raw block whose length is not the block size" },
};
#undef EXT
#undef BLK

/* in its filesystem record, the last 48 bytes */
static const struct poke fs_pokes[] = {
	{ 4, 0, "filesystem kind 0" },
	{ 4, TORPOR_FS_XFS + 1, "unknown filesystem kind" },
};

/* Each of the @n pokes at @base of a copy of @buf (the meta, @len bytes) is rejected. */
static void poke_all(const struct poke *p, size_t n, size_t base, const uint8_t *buf,
		     uint8_t *bad, size_t len, uint64_t dev)
{
	for (; n; n--, p++) {
		memcpy(bad, buf, len);
		put32(bad + base + p->off, p->val);
		tap_ok(decode_buf(bad, len, dev) < 0, "image: %s rejected", p->what);
	}
}

static void test_meta(void)
{
	struct torpor_image img, d;
	uint64_t dev = 1ULL << 30;
	size_t len;
	uint8_t *buf, *bad;
	int r;

	make_image(&img, 10 * TORPOR_BLOCK_PAGES * PS + 3 * PS);
	len = image_meta_bytes(1, img.meta.nr_blocks, 1);
	buf = malloc(len);
	bad = malloc(len);
	tap_ok(image_meta_encode(&img, buf, len) == 0, "image: meta encodes");
	tap_ok(image_meta_encode(&img, buf, len - 1) == -EINVAL, "image: meta encode checks length");
	memset(&d, 0, sizeof(d));
	r = image_meta_decode(buf, len, dev, 0, &d);
	tap_ok(r == 0 && d.meta.nr_blocks == 11 && d.blocks[10].stored_len == 1010 &&
	       d.blocks[3].hash == 21 + (1ull << 40) && d.extents[0].offset == PS && d.fs[0].mount_count == 7 &&
	       !strcmp(d.meta.release, "6.1.0-57-amd64"), "image: meta round trip");
	tap_ok(image_block_raw_bytes(&d.meta, 10) == 3 * PS, "image: last block is short");
	tap_ok(d.meta.features == 0 && buf[283] == 0, "image: no features by default (%u)",
	       d.meta.features);
	image_free(&d);

	/* the features byte: once reserved1[0], which no reader of format 2 checks */
	img.meta.features = TORPOR_META_LATE_CHECK;
	image_meta_encode(&img, buf, len);
	memset(&d, 0, sizeof(d));
	tap_ok(buf[283] == TORPOR_META_LATE_CHECK && image_meta_decode(buf, len, dev, 0, &d) == 0 &&
	       d.meta.features == TORPOR_META_LATE_CHECK && d.meta.version == 2,
	       "image: the late-check feature round trips in format 2, at byte 283");
	image_free(&d);
	memcpy(bad, buf, len);
	bad[283] = 0x80 | TORPOR_META_LATE_CHECK;
	memset(&d, 0, sizeof(d));
	tap_ok(image_meta_decode(bad, len, dev, 0, &d) == 0 && d.meta.features == 0x81,
	       "image: a feature bit this reader does not know is ignored, not rejected");
	image_free(&d);
	img.meta.features = 0;
	image_meta_encode(&img, buf, len);
	tap_ok(decode_buf(buf, len - 1, dev) == -EBADMSG, "image: truncated meta rejected");
	tap_ok(decode_buf(buf, 100, dev) == -EBADMSG, "image: meta shorter than its header rejected");
	tap_ok(decode_buf(buf, len, 4 * PS) == -EBADMSG, "image: extent beyond device rejected");
	tap_ok(image_meta_decode(buf, len, dev, PS, &d) == -EBADMSG,
	       "image: extent covering the swap header rejected");

	poke_all(meta_pokes, sizeof(meta_pokes) / sizeof(meta_pokes[0]), 0, buf, bad, len, dev);
	memcpy(bad, buf, len);
	memset(bad + 88 + 64, 'x', 1);	/* release must end in NUL */
	tap_ok(decode_buf(bad, len, dev) < 0, "image: unterminated kernel release rejected");
	poke_all(fs_pokes, sizeof(fs_pokes) / sizeof(fs_pokes[0]), len - 48, buf, bad, len, dev);
	memcpy(bad, buf, len);
	put32(bad + len - 48 + 4, TORPOR_FS_BTRFS);
	memset(&d, 0, sizeof(d));
	tap_ok(image_meta_decode(bad, len, dev, 0, &d) == 0 && d.fs[0].kind == TORPOR_FS_BTRFS,
	       "image: a btrfs stamp decodes");
	image_free(&d);
	put32(bad + len - 48 + 4, TORPOR_FS_XFS);
	tap_ok(image_meta_decode(bad, len, dev, 0, &d) == 0 && d.fs[0].kind == TORPOR_FS_XFS,
	       "image: an xfs stamp decodes");
	image_free(&d);
	image_free(&img);
	free(buf);
	free(bad);
}

/* Two extents of the meta that overlap: rejected. */
static void test_meta_overlap(void)
{
	struct torpor_image img;
	uint64_t dev = 1ULL << 30;
	uint8_t *buf;
	size_t len;

	make_image(&img, 4 * TORPOR_BLOCK_PAGES * PS);
	img.extents = realloc(img.extents, 2 * sizeof(*img.extents));
	img.meta.nr_extents = 2;
	img.extents[0].offset = 10 * PS;
	img.extents[0].pages = 2;
	img.extents[1].offset = 11 * PS;
	img.extents[1].pages = 2;
	len = image_meta_bytes(2, img.meta.nr_blocks, 1);
	buf = malloc(len);
	image_meta_encode(&img, buf, len);
	tap_ok(decode_buf(buf, len, dev) == -EBADMSG, "image: overlapping extents rejected");
	image_free(&img);
	free(buf);
}

/* The table bounds that keep torpor-resume's memory small: at the bound, and one past. */
static void test_bounds(void)
{
	uint64_t bb = (uint64_t)TORPOR_BLOCK_PAGES * PS, dev = 1ULL << 40;
	struct torpor_image img;
	uint32_t nr;
	size_t len;
	int r;
	uint8_t *buf;

	for (nr = TORPOR_BLOCKS_MAX; nr <= TORPOR_BLOCKS_MAX + 1; nr++) {
		make_image(&img, nr * bb);
		len = image_meta_bytes(1, img.meta.nr_blocks, 1);
		buf = malloc(len);
		image_meta_encode(&img, buf, len);
		r = decode_buf(buf, len, dev);
		tap_ok(len <= TORPOR_META_MAX && r ==
		       (nr > TORPOR_BLOCKS_MAX ? -EBADMSG : 0),
		       "image: %u blocks %s (%d)", nr, nr > TORPOR_BLOCKS_MAX ? "rejected" : "accepted", r);
		free(buf);
		image_free(&img);
	}
	make_image(&img, 8 * bb);
	img.meta.nr_extents = TORPOR_EXTENTS_MAX + 1;
	len = image_meta_bytes(img.meta.nr_extents, img.meta.nr_blocks, 1);
	buf = calloc(1, len);
	img.extents = realloc(img.extents, img.meta.nr_extents * sizeof(*img.extents));
	memset(img.extents, 0, img.meta.nr_extents * sizeof(*img.extents));
	image_meta_encode(&img, buf, len);
	tap_ok(decode_buf(buf, len, dev) == -EBADMSG, "image: %u data extents rejected",
	       img.meta.nr_extents);
	free(buf);
	image_free(&img);
}

/* The late check's note (issue 22): round trip, and what a page without a good one says. */
static void test_late(void)
{
	static struct image_late late, d;
	uint8_t page[PS], orig[PS];
	struct torpor_root r;
	uint32_t i;
	int ok = 1;

	make_swap_page(page);
	memcpy(orig, page, PS);
	tap_ok(image_late_decode(page, PS, &d) == -ENOENT, "late: plain swap holds no note");
	memset(&late, 0, sizeof(late));
	late.hdr.created = 1700000000;
	late.hdr.nr_fs = 70;
	late.hdr.nr = TORPOR_LATE_MAX;
	for (i = 0; i < TORPOR_LATE_MAX; i++) {
		late.fs[i].index = 69 - i;
		late.fs[i].flags = i < 3 ? TORPOR_LATE_UNSEEN : 0;
		late.fs[i].mount_count = 1000 + i;
		late.fs[i].mount_time = (uint64_t)i << 40;
		late.fs[i].write_time = ~(uint64_t)i;
	}
	image_late_encode(&late, page, PS);
	tap_ok(!memcmp(page, orig, TORPOR_ROOT_OFFSET) &&
	       !memcmp(page + PS - TORPOR_SIG_LEN, SWAP_SIG, 10),
	       "late: mkswap's header and signature kept");
	tap_ok(image_late_decode(page, PS, &d) == 0 && d.hdr.created == late.hdr.created &&
	       d.hdr.nr_fs == 70 && d.hdr.nr == TORPOR_LATE_MAX &&
	       !memcmp(d.fs, late.fs, sizeof(late.fs)), "late: %u entries round trip",
	       TORPOR_LATE_MAX);
	for (i = TORPOR_ROOT_OFFSET; i < TORPOR_ROOT_OFFSET + 40 + 32 * TORPOR_LATE_MAX; i += 7) {
		page[i] ^= 0x10;
		if (image_late_decode(page, PS, &d) == 0)
			ok = 0;
		page[i] ^= 0x10;
	}
	tap_ok(ok, "late: a flipped bit anywhere in the note is rejected");
	late.fs[5].index = 70;
	image_late_encode(&late, page, PS);
	tap_ok(image_late_decode(page, PS, &d) == -EBADMSG, "late: an index past the table rejected");
	late.fs[5].index = 5;
	late.hdr.nr = 3;
	late.hdr.nr_fs = 2;
	image_late_encode(&late, page, PS);
	tap_ok(image_late_decode(page, PS, &d) == -EBADMSG, "late: more entries than filesystems rejected");
	late.hdr.nr_fs = 70;
	image_late_encode(&late, page, PS);
	tap_ok(image_late_decode(page, PS, &d) == 0 && d.hdr.nr == 3, "late: 3 entries round trip");
	make_root(&r);
	image_root_encode(&r, page, PS);
	tap_ok(image_late_decode(page, PS, &d) == -EEXIST,
	       "late: a page with an image's root record holds no note");
}

/* Seal a note changed by hand again, as a writer that means harm would: a good CRC. */
static void reseal_lost(uint8_t *page)
{
	static const uint8_t zero[4];
	uint8_t *r = page + TORPOR_ROOT_OFFSET;
	size_t at = offsetof(struct torpor_lost, crc);

	put_le32(r + at, crc32_update(crc32_update(0, r, at), zero, 4));
}

static void make_lost(struct torpor_lost *n)
{
	memset(n, 0, sizeof(*n));
	n->created = 1700000000;
	n->noted = 1700000600;
	n->cause = TORPOR_LOST_LATE_CHECK;
	strcpy(n->release, "6.12.117-amd64");
	strcpy(n->reason, "ext4 1234 on /dev/vdc was mounted since hibernation");
}

/* A hostile note of @page with byte @at of the record set to @v, sealed: rejected? */
static int lost_hostile(const uint8_t *good, size_t at, uint8_t v)
{
	static struct torpor_lost d;
	uint8_t page[PS];

	memcpy(page, good, PS);
	page[TORPOR_ROOT_OFFSET + at] = v;
	reseal_lost(page);
	return image_lost_decode(page, PS, &d) == -EBADMSG;
}

/* The note of a hibernation that was not resumed (issue 25). */
static void test_lost(void)
{
	static struct torpor_lost n, d;
	static struct image_late late;
	uint8_t page[PS], orig[PS], good[PS];
	size_t rel = offsetof(struct torpor_lost, release);
	size_t rsn = offsetof(struct torpor_lost, reason);
	struct torpor_root r;
	size_t i;
	int ok = 1;

	make_swap_page(page);
	memcpy(orig, page, PS);
	tap_ok(image_lost_decode(page, PS, &d) == -ENOENT, "lost: plain swap holds no note");
	memset(&late, 0, sizeof(late));
	late.hdr.created = 1700000000;
	late.hdr.nr_fs = 70;
	late.hdr.nr = TORPOR_LATE_MAX;
	image_late_encode(&late, page, PS);
	make_lost(&n);
	image_lost_encode(&n, page, PS);
	tap_ok(!memcmp(page, orig, TORPOR_ROOT_OFFSET) && image_classify(page, PS) == IMAGE_SIG_SWAP,
	       "lost: mkswap's header and signature kept");
	tap_ok(image_lost_decode(page, PS, &d) == 0 && d.created == n.created &&
	       d.noted == n.noted && d.cause == n.cause && !strcmp(d.release, n.release) &&
	       !strcmp(d.reason, n.reason), "lost: round trip");
	tap_ok(image_late_decode(page, PS, &late) == -ENOENT && !memcmp(page + TORPOR_ROOT_OFFSET +
	       sizeof(struct torpor_lost), orig + TORPOR_ROOT_OFFSET + sizeof(struct torpor_lost),
	       PS - TORPOR_SIG_LEN - TORPOR_ROOT_OFFSET - sizeof(struct torpor_lost)),
	       "lost: the late check's note it replaces is gone whole");
	tap_ok(image_root_decode(page, PS, &r) == -ENOENT, "lost: a page with a note is no image");
	memcpy(good, page, PS);
	for (i = 0; i < sizeof(struct torpor_lost); i++) {
		page[TORPOR_ROOT_OFFSET + i] ^= 0x04;
		if (image_lost_decode(page, PS, &d) == 0)
			ok = 0;
		page[TORPOR_ROOT_OFFSET + i] ^= 0x04;
	}
	tap_ok(ok, "lost: a flipped bit anywhere in the note is rejected");
	memcpy(page, good, PS);
	memset(page + TORPOR_ROOT_OFFSET + rsn, 'a', TORPOR_LOST_REASON_LEN);
	reseal_lost(page);
	ok = image_lost_decode(page, PS, &d) == -EBADMSG;
	memcpy(page, good, PS);
	memset(page + TORPOR_ROOT_OFFSET + rel, 'a', TORPOR_UTS_LEN);
	reseal_lost(page);
	ok = ok && image_lost_decode(page, PS, &d) == -EBADMSG;
	tap_ok(ok && lost_hostile(good, rsn + strlen(n.reason) + 1, 'x') &&
	       lost_hostile(good, rsn + TORPOR_LOST_REASON_LEN - 1, 'x') &&
	       lost_hostile(good, rel + TORPOR_UTS_LEN - 1, 'x'),
	       "lost: a sealed note with an unterminated or padded text is rejected");
	tap_ok(lost_hostile(good, rsn + 3, '\n') && lost_hostile(good, rsn + 3, 0x9b) &&
	       lost_hostile(good, rel, 0x1b), "lost: a sealed note with control bytes is rejected");
	tap_ok(lost_hostile(good, rsn, 0) && lost_hostile(good, 12, 0xff) &&
	       lost_hostile(good, 36, 1) && lost_hostile(good, rsn + TORPOR_LOST_REASON_LEN, 1),
	       "lost: a sealed note with no reason, another size or a reserved byte is rejected");
	memcpy(page, good, PS);
	put_le32(page + TORPOR_ROOT_OFFSET + 8, 2);
	reseal_lost(page);
	tap_ok(image_lost_decode(page, PS, &d) == -EPROTO, "lost: another version is told apart");
	memset(n.reason, 'y', sizeof(n.reason));
	n.reason[7] = '\n';
	n.reason[8] = (char)0xe9;
	n.release[0] = '\0';
	image_lost_encode(&n, page, PS);
	tap_ok(image_lost_decode(page, PS, &d) == 0 &&
	       strlen(d.reason) == TORPOR_LOST_REASON_LEN - 1 &&
	       d.reason[7] == '?' && d.reason[8] == '?' && d.release[0] == '\0',
	       "lost: a long reason is cut, bytes not printable are written as '?'");
	memcpy(page, good, PS);
	memcpy(page + PS - TORPOR_SIG_LEN, "S1SUSPEND", TORPOR_SIG_LEN);
	tap_ok(image_lost_decode(page, PS, &d) == -ENOENT, "lost: no note outside a swap area");
	memcpy(page, good, PS);
	make_root(&r);
	image_root_encode(&r, page, PS);
	tap_ok(image_lost_decode(page, PS, &d) == -EEXIST &&
	       image_classify(page, PS) == IMAGE_SIG_TORPOR,
	       "lost: a page with an image's root record holds no note");
	memset(page + TORPOR_ROOT_OFFSET, 0, sizeof(struct torpor_root));
	memcpy(page + PS - TORPOR_SIG_LEN, SWAP_SIG, TORPOR_SIG_LEN);
	tap_ok(image_lost_decode(page, PS, &d) == -ENOENT &&
	       !memcmp(page + TORPOR_ROOT_OFFSET + sizeof(struct torpor_root),
		       orig + TORPOR_ROOT_OFFSET + sizeof(struct torpor_root),
		       PS - TORPOR_SIG_LEN - TORPOR_ROOT_OFFSET - sizeof(struct torpor_root)),
	       "lost: the next image's root record, once invalidated, leaves nothing of it");
}

int main(void)
{
	tap_ok(crc32_update(0, "123456789", 9) == 0xcbf43926, "crc32: check value 0xcbf43926");
	tap_ok(crc32_update(crc32_update(0, "1234", 4), "56789", 5) == 0xcbf43926,
	       "crc32: incremental equals one-shot");
	test_root();
	test_other_format();
	test_meta();
	test_meta_overlap();
	test_bounds();
	test_late();
	test_lost();
	return tap_done();
}
