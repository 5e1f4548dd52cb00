// SPDX-License-Identifier: GPL-2.0-only
/*
 * image.c - encode and validate torpor's on-disk records (see image.h)
 *
 * Decoding is the first thing that touches bytes read from disk, so every
 * function here treats its input as hostile: sizes, counts and offsets are
 * checked against each other and against the device before anything is used,
 * and the arithmetic cannot overflow.  No I/O happens here; callers read the
 * bytes, which also makes these functions easy to fuzz.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "image.h"
#include "le.h"

/* Byte offsets of the fields in the on-disk records. */
#define R_MAGIC		0
#define R_VERSION	8
#define R_SIZE		12
#define R_PAGE		16
#define R_FLAGS		20
#define R_META_BYTES	24
#define R_META_HASH	32
#define R_NR_EXT	40
#define R_RESERVED0	44
#define R_EXT		48
#define R_ORIG_SIG	(R_EXT + 16 * TORPOR_ROOT_EXTENTS)
#define R_CRC		(R_ORIG_SIG + 12)
/*
 * Any format's root: magic, version and root_size where they are here, root_crc in
 * the last 4 of root_size bytes, all before the signature of a 4 KiB page.
 */
#define R_ANY_MIN	(R_SIZE + 8)
#define R_ANY_MAX	(4096 - TORPOR_SIG_LEN - TORPOR_ROOT_OFFSET)

#define M_MAGIC		0
#define M_VERSION	8
#define M_SIZE		12
#define M_PAGE		16
#define M_FLAGS		20
#define M_ALG		24
#define M_BLOCK_PAGES	28
#define M_STREAM	32
#define M_STORED	40
#define M_DATA_PAGES	48
#define M_NR_BLOCKS	56
#define M_NR_EXT	60
#define M_NR_FS		64
#define M_MEM_PAGES	72
#define M_CREATED	80
#define M_RELEASE	88
#define M_KVERSION	(M_RELEASE + TORPOR_UTS_LEN)
#define M_MACHINE	(M_KVERSION + TORPOR_UTS_LEN)
#define M_FEATURES	(M_MACHINE + TORPOR_UTS_LEN)

_Static_assert(R_CRC + 4 == sizeof(struct torpor_root), "root offsets");
_Static_assert(sizeof(struct torpor_root) <= R_ANY_MAX, "root within any format's bound");
_Static_assert(M_FEATURES + 5 == sizeof(struct torpor_meta), "meta offsets");
_Static_assert(offsetof(struct torpor_meta, features) == M_FEATURES, "meta features offset");

/*
 * The start every record of ours shares (root, meta, the late check's note):
 * its magic, version and size, where R_, M_ and the note's offsets put them.
 */
_Static_assert(R_MAGIC == M_MAGIC && R_VERSION == M_VERSION && R_SIZE == M_SIZE, "record starts");

static void put_start(uint8_t *p, const char *magic, uint32_t version, uint32_t size)
{
	memcpy(p + R_MAGIC, magic, 8);
	put_le32(p + R_VERSION, version);
	put_le32(p + R_SIZE, size);
}

static int valid_page_size(uint32_t ps)
{
	return ps >= 4096 && ps <= 65536 && (ps & (ps - 1)) == 0;
}

/**
 * image_classify() - what the signature of a swap header page says
 * @page: the whole page
 * @page_size: its size
 *
 * Return: IMAGE_SIG_SWAP for mkswap's signatures, IMAGE_SIG_TORPOR for ours,
 * IMAGE_SIG_OTHER for anything else (including the kernel's S1SUSPEND).
 */
enum image_sig image_classify(const uint8_t *page, size_t page_size)
{
	const uint8_t *sig = page + page_size - TORPOR_SIG_LEN;

	if (!memcmp(sig, SWAP_SIG, 10) || !memcmp(sig, SWAP_SIG_OLD, 10))
		return IMAGE_SIG_SWAP;
	if (!memcmp(sig, TORPOR_SIG, TORPOR_SIG_LEN))
		return IMAGE_SIG_TORPOR;
	return IMAGE_SIG_OTHER;
}

/* Bytes of a meta blob with these table sizes; the caller bounds the counts. */
size_t image_meta_bytes(uint32_t nr_extents, uint32_t nr_blocks, uint32_t nr_fs)
{
	return sizeof(struct torpor_meta) + (size_t)nr_extents * sizeof(struct torpor_extent) +
	       (size_t)nr_blocks * sizeof(struct torpor_block) +
	       (size_t)nr_fs * sizeof(struct torpor_fsrec);
}

/* Uncompressed length of block @i of a validated image. */
uint64_t image_block_raw_bytes(const struct torpor_meta *m, uint32_t i)
{
	uint64_t bb = (uint64_t)m->block_pages * m->page_size;
	uint64_t start = (uint64_t)i * bb;

	return m->stream_bytes - start < bb ? m->stream_bytes - start : bb;
}

/* Pages a block occupies on disk (its stored bytes rounded up). */
uint32_t image_block_pages_stored(const struct torpor_block *b, uint32_t page_size)
{
	return (uint32_t)(((uint64_t)b->stored_len + page_size - 1) / page_size);
}

/**
 * image_root_encode() - write the root record and our signature into a swap header page
 * @root: the record; root_size and root_crc are filled in here
 * @page: the swap header page as read from disk; mkswap's fields stay as they are
 * @page_size: its size
 */
void image_root_encode(const struct torpor_root *root, uint8_t *page, size_t page_size)
{
	uint8_t *r = page + TORPOR_ROOT_OFFSET;
	uint32_t i;

	memset(r, 0, sizeof(struct torpor_root));
	put_start(r, TORPOR_ROOT_MAGIC, root->version, sizeof(struct torpor_root));
	put_le32(r + R_PAGE, root->page_size);
	put_le32(r + R_FLAGS, root->flags);
	put_le64(r + R_META_BYTES, root->meta_bytes);
	put_le64(r + R_META_HASH, root->meta_hash);
	put_le32(r + R_NR_EXT, root->nr_meta_extents);
	for (i = 0; i < root->nr_meta_extents && i < TORPOR_ROOT_EXTENTS; i++) {
		put_le64(r + R_EXT + 16 * i, root->meta_extents[i].offset);
		put_le32(r + R_EXT + 16 * i + 8, root->meta_extents[i].pages);
	}
	memcpy(r + R_ORIG_SIG, root->orig_sig, 10);
	put_le32(r + R_CRC, crc32_update(0, r, sizeof(struct torpor_root)));
	memcpy(page + page_size - TORPOR_SIG_LEN, TORPOR_SIG, TORPOR_SIG_LEN);
}

/*
 * The root record of a page with our signature, of any format: 0 when its magic,
 * size and CRC-32 hold, -ENOENT when the page is not ours, -EBADMSG when damaged.
 */
static int root_intact(const uint8_t *page, size_t page_size)
{
	static const uint8_t zero[4];
	const uint8_t *r = page + TORPOR_ROOT_OFFSET;
	uint32_t size, crc;

	if (page_size < 4096 || image_classify(page, page_size) != IMAGE_SIG_TORPOR)
		return -ENOENT;
	/* our signature but not our magic: a damaged header, never plain swap */
	if (memcmp(r + R_MAGIC, TORPOR_ROOT_MAGIC, 8))
		return -EBADMSG;
	size = get_le32(r + R_SIZE);
	if (size < R_ANY_MIN || size > R_ANY_MAX || size % 4)
		return -EBADMSG;
	crc = crc32_update(0, r, size - 4);
	if (crc32_update(crc, zero, 4) != get_le32(r + size - 4))
		return -EBADMSG;
	return 0;
}

/**
 * image_root_version() - the format version of an intact root record of any format
 * @page: the swap header page, @page_size: its size
 *
 * For the message after image_root_decode() said -EPROTO.
 * Return: the version, or 0 when the page holds no intact root record.
 */
uint32_t image_root_version(const uint8_t *page, size_t page_size)
{
	if (root_intact(page, page_size) < 0)
		return 0;
	return get_le32(page + TORPOR_ROOT_OFFSET + R_VERSION);
}

/**
 * image_root_decode() - read and check the root record of a swap header page
 * @page: the page, @page_size: its size (the running kernel's page size)
 * @ret_root: the record in host order, written only on success
 *
 * Return: 0; -ENOENT when the page carries no torpor image at all (plain swap,
 * other signatures); -EBADMSG when it carries our signature but the record is
 * damaged (magic, checksum, size); -EPROTO for an intact record of another
 * format version (image_root_version() says which); -EMEDIUMTYPE when the image
 * was written with another page size.
 */
int image_root_decode(const uint8_t *page, size_t page_size, struct torpor_root *ret_root)
{
	const uint8_t *r = page + TORPOR_ROOT_OFFSET;
	struct torpor_root root;
	uint32_t i;
	int ret;

	ret = root_intact(page, page_size);
	if (ret < 0)
		return ret;
	memset(&root, 0, sizeof(root));
	memcpy(root.magic, r + R_MAGIC, 8);
	root.version = get_le32(r + R_VERSION);
	root.root_size = get_le32(r + R_SIZE);
	if (root.version != TORPOR_FORMAT_VERSION)
		return -EPROTO;
	root.page_size = get_le32(r + R_PAGE);
	root.flags = get_le32(r + R_FLAGS);
	root.meta_bytes = get_le64(r + R_META_BYTES);
	root.meta_hash = get_le64(r + R_META_HASH);
	root.nr_meta_extents = get_le32(r + R_NR_EXT);
	root.reserved0 = get_le32(r + R_RESERVED0);
	if (root.root_size != sizeof(struct torpor_root) || root.flags || root.reserved0)
		return -EBADMSG;
	if (root.page_size != page_size)
		return -EMEDIUMTYPE;
	if (root.nr_meta_extents == 0 || root.nr_meta_extents > TORPOR_ROOT_EXTENTS)
		return -EBADMSG;
	if (root.meta_bytes < sizeof(struct torpor_meta) || root.meta_bytes > TORPOR_META_MAX)
		return -EBADMSG;
	for (i = 0; i < root.nr_meta_extents; i++) {
		root.meta_extents[i].offset = get_le64(r + R_EXT + 16 * i);
		root.meta_extents[i].pages = get_le32(r + R_EXT + 16 * i + 8);
		root.meta_extents[i].reserved = get_le32(r + R_EXT + 16 * i + 12);
	}
	memcpy(root.orig_sig, r + R_ORIG_SIG, 10);
	if (memcmp(root.orig_sig, SWAP_SIG, 10) && memcmp(root.orig_sig, SWAP_SIG_OLD, 10))
		return -EBADMSG;
	root.root_crc = get_le32(r + R_CRC);
	*ret_root = root;
	return 0;
}

static int cmp_extent(const void *a, const void *b)
{
	const struct torpor_extent *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/**
 * image_extents_check() - check that extents are sane, inside the device and disjoint
 * @ext: the extents, @n: their number, @page_size: page size
 * @dev_bytes: size of the device; @header_offset: byte offset of the swap header page,
 *             which no extent may cover
 * @ret_pages: total pages, written on success (may be NULL)
 *
 * Return: 0, -ENOMEM, or -EBADMSG naming nothing: the caller says which table it was.
 */
int image_extents_check(const struct torpor_extent *ext, uint32_t n, uint32_t page_size,
			uint64_t dev_bytes, uint64_t header_offset, uint64_t *ret_pages)
{
	struct torpor_extent *sorted;
	uint64_t total = 0, end;
	uint32_t i;
	int r = 0;

	if (n == 0)
		return -EBADMSG;
	for (i = 0; i < n; i++) {
		if (ext[i].pages == 0 || ext[i].reserved || ext[i].offset % page_size)
			return -EBADMSG;
		if (ext[i].offset > dev_bytes ||
		    (uint64_t)ext[i].pages > (dev_bytes - ext[i].offset) / page_size)
			return -EBADMSG;
		end = ext[i].offset + (uint64_t)ext[i].pages * page_size;
		if (header_offset >= ext[i].offset && header_offset < end)
			return -EBADMSG;
		total += ext[i].pages;
	}
	sorted = malloc((size_t)n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, ext, (size_t)n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_extent);
	for (i = 1; i < n; i++)
		if (sorted[i - 1].offset + (uint64_t)sorted[i - 1].pages * page_size >
		    sorted[i].offset)
			r = -EBADMSG;
	free(sorted);
	if (r == 0 && ret_pages)
		*ret_pages = total;
	return r;
}

/**
 * image_meta_encode() - serialise the meta blob
 * @img: meta header and tables (host order); counts are taken from img->meta
 * @buf: output, @len: its size, exactly image_meta_bytes() of the counts
 *
 * Return: 0 or -EINVAL when @len does not match.
 */
int image_meta_encode(const struct torpor_image *img, uint8_t *buf, size_t len)
{
	const struct torpor_meta *m = &img->meta;
	uint8_t *p;
	uint32_t i;

	if (len != image_meta_bytes(m->nr_extents, m->nr_blocks, m->nr_fs))
		return -EINVAL;
	memset(buf, 0, len);
	put_start(buf, TORPOR_META_MAGIC, TORPOR_FORMAT_VERSION, sizeof(struct torpor_meta));
	put_le32(buf + M_PAGE, m->page_size);
	put_le32(buf + M_FLAGS, m->flags);
	put_le32(buf + M_ALG, m->algorithm);
	put_le32(buf + M_BLOCK_PAGES, m->block_pages);
	put_le64(buf + M_STREAM, m->stream_bytes);
	put_le64(buf + M_STORED, m->stored_bytes);
	put_le64(buf + M_DATA_PAGES, m->data_pages);
	put_le32(buf + M_NR_BLOCKS, m->nr_blocks);
	put_le32(buf + M_NR_EXT, m->nr_extents);
	put_le32(buf + M_NR_FS, m->nr_fs);
	put_le64(buf + M_MEM_PAGES, m->mem_pages);
	put_le64(buf + M_CREATED, m->created);
	memcpy(buf + M_RELEASE, m->release, TORPOR_UTS_LEN - 1);
	memcpy(buf + M_KVERSION, m->kversion, TORPOR_UTS_LEN - 1);
	memcpy(buf + M_MACHINE, m->machine, TORPOR_UTS_LEN - 1);
	buf[M_FEATURES] = m->features;
	p = buf + sizeof(struct torpor_meta);
	for (i = 0; i < m->nr_extents; i++, p += 16) {
		put_le64(p, img->extents[i].offset);
		put_le32(p + 8, img->extents[i].pages);
	}
	for (i = 0; i < m->nr_blocks; i++, p += 16) {
		put_le32(p, img->blocks[i].stored_len);
		put_le32(p + 4, img->blocks[i].flags);
		put_le64(p + 8, img->blocks[i].hash);
	}
	for (i = 0; i < m->nr_fs; i++, p += 48) {
		put_le32(p, img->fs[i].dev);
		put_le32(p + 4, img->fs[i].kind);
		memcpy(p + 8, img->fs[i].uuid, 16);
		put_le64(p + 24, img->fs[i].mount_count);
		put_le64(p + 32, img->fs[i].mount_time);
		put_le64(p + 40, img->fs[i].write_time);
	}
	return 0;
}

static int check_meta_header(const struct torpor_meta *m, size_t len)
{
	uint64_t bb, nr;

	if (memcmp(m->magic, TORPOR_META_MAGIC, 8))
		return -EBADMSG;
	if (m->version != TORPOR_FORMAT_VERSION)
		return -EPROTO;
	if (m->meta_size != sizeof(struct torpor_meta) || m->flags || m->reserved0)
		return -EBADMSG;
	if (!valid_page_size(m->page_size))
		return -EBADMSG;
	if (m->algorithm != TORPOR_ALG_LZ4 && m->algorithm != TORPOR_ALG_NONE)
		return -EBADMSG;
	if (m->block_pages == 0 || m->block_pages > TORPOR_BLOCK_PAGES_MAX ||
	    (uint64_t)m->block_pages * m->page_size > TORPOR_BLOCK_BYTES_MAX)
		return -EBADMSG;
	if (m->stream_bytes == 0 || m->stream_bytes % m->page_size ||
	    m->stream_bytes > (1ULL << 46))
		return -EBADMSG;
	bb = (uint64_t)m->block_pages * m->page_size;
	nr = (m->stream_bytes + bb - 1) / bb;
	if (nr != m->nr_blocks || m->nr_blocks > TORPOR_BLOCKS_MAX)
		return -EBADMSG;
	if (m->nr_extents == 0 || m->nr_extents > TORPOR_EXTENTS_MAX || m->nr_fs > TORPOR_FS_MAX)
		return -EBADMSG;
	if (image_meta_bytes(m->nr_extents, m->nr_blocks, m->nr_fs) != len)
		return -EBADMSG;
	if (m->release[TORPOR_UTS_LEN - 1] || m->kversion[TORPOR_UTS_LEN - 1] ||
	    m->machine[TORPOR_UTS_LEN - 1])
		return -EBADMSG;
	return 0;
}

static void decode_meta_header(const uint8_t *buf, struct torpor_meta *m)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->magic, buf + M_MAGIC, 8);
	m->version = get_le32(buf + M_VERSION);
	m->meta_size = get_le32(buf + M_SIZE);
	m->page_size = get_le32(buf + M_PAGE);
	m->flags = get_le32(buf + M_FLAGS);
	m->algorithm = get_le32(buf + M_ALG);
	m->block_pages = get_le32(buf + M_BLOCK_PAGES);
	m->stream_bytes = get_le64(buf + M_STREAM);
	m->stored_bytes = get_le64(buf + M_STORED);
	m->data_pages = get_le64(buf + M_DATA_PAGES);
	m->nr_blocks = get_le32(buf + M_NR_BLOCKS);
	m->nr_extents = get_le32(buf + M_NR_EXT);
	m->nr_fs = get_le32(buf + M_NR_FS);
	m->reserved0 = get_le32(buf + M_NR_FS + 4);
	m->mem_pages = get_le64(buf + M_MEM_PAGES);
	m->created = get_le64(buf + M_CREATED);
	memcpy(m->release, buf + M_RELEASE, TORPOR_UTS_LEN);
	memcpy(m->kversion, buf + M_KVERSION, TORPOR_UTS_LEN);
	memcpy(m->machine, buf + M_MACHINE, TORPOR_UTS_LEN);
	/* bits this reader does not know are kept and ignored (enum torpor_meta_features) */
	m->features = buf[M_FEATURES];
}

/* Each block's stored length must be possible for its raw length. */
static int check_blocks(const struct torpor_image *img)
{
	const struct torpor_meta *m = &img->meta;
	uint64_t stored = 0, pages = 0, raw, bound;
	uint32_t i;

	for (i = 0; i < m->nr_blocks; i++) {
		const struct torpor_block *b = &img->blocks[i];

		raw = image_block_raw_bytes(m, i);
		bound = raw + raw / 255 + 16;	/* LZ4_COMPRESSBOUND */
		if ((b->flags & ~TORPOR_BLOCK_RAW) || b->stored_len == 0)
			return -EBADMSG;
		if (b->flags & TORPOR_BLOCK_RAW ? b->stored_len != raw : b->stored_len > bound)
			return -EBADMSG;
		if (!(b->flags & TORPOR_BLOCK_RAW) && m->algorithm != TORPOR_ALG_LZ4)
			return -EBADMSG;
		stored += b->stored_len;
		pages += image_block_pages_stored(b, m->page_size);
	}
	if (stored != m->stored_bytes || pages != m->data_pages)
		return -EBADMSG;
	return 0;
}

/**
 * image_meta_decode() - check and decode a meta blob read from disk
 * @buf: the blob, @len: its length (the root's meta_bytes; its hash already checked)
 * @dev_bytes: size of the resume device, @header_offset: byte offset of the swap header page
 * @img: filled on success (tables allocated; release with image_free()); img->root is
 *       left as the caller set it
 *
 * Return: 0, -ENOMEM, -EPROTO (another format version) or -EBADMSG (inconsistent).
 */
int image_meta_decode(const uint8_t *buf, size_t len, uint64_t dev_bytes,
		      uint64_t header_offset, struct torpor_image *img)
{
	struct torpor_meta m;
	const uint8_t *p;
	uint64_t pages;
	uint32_t i;
	int r;

	if (len < sizeof(struct torpor_meta))
		return -EBADMSG;
	decode_meta_header(buf, &m);
	r = check_meta_header(&m, len);
	if (r < 0)
		return r;
	img->meta = m;
	img->extents = calloc(m.nr_extents, sizeof(*img->extents));
	img->blocks = calloc(m.nr_blocks ? m.nr_blocks : 1, sizeof(*img->blocks));
	img->fs = calloc(m.nr_fs ? m.nr_fs : 1, sizeof(*img->fs));
	if (!img->extents || !img->blocks || !img->fs) {
		image_free(img);
		return -ENOMEM;
	}
	p = buf + sizeof(struct torpor_meta);
	for (i = 0; i < m.nr_extents; i++, p += 16) {
		img->extents[i].offset = get_le64(p);
		img->extents[i].pages = get_le32(p + 8);
		img->extents[i].reserved = get_le32(p + 12);
	}
	for (i = 0; i < m.nr_blocks; i++, p += 16) {
		img->blocks[i].stored_len = get_le32(p);
		img->blocks[i].flags = get_le32(p + 4);
		img->blocks[i].hash = get_le64(p + 8);
	}
	for (i = 0; i < m.nr_fs; i++, p += 48) {
		img->fs[i].dev = get_le32(p);
		img->fs[i].kind = get_le32(p + 4);
		memcpy(img->fs[i].uuid, p + 8, 16);
		img->fs[i].mount_count = get_le64(p + 24);
		img->fs[i].mount_time = get_le64(p + 32);
		img->fs[i].write_time = get_le64(p + 40);
		if (img->fs[i].kind != TORPOR_FS_EXT && img->fs[i].kind != TORPOR_FS_BTRFS &&
		    img->fs[i].kind != TORPOR_FS_XFS) {
			image_free(img);
			return -EBADMSG;
		}
	}
	r = check_blocks(img);
	if (r == 0)
		r = image_extents_check(img->extents, m.nr_extents, m.page_size, dev_bytes,
					header_offset, &pages);
	if (r == 0 && pages != m.data_pages)
		r = -EBADMSG;
	if (r < 0)
		image_free(img);
	return r;
}

/* Release the tables of a decoded image; safe to call twice. */
void image_free(struct torpor_image *img)
{
	free(img->extents);
	free(img->blocks);
	free(img->fs);
	img->extents = NULL;
	img->blocks = NULL;
	img->fs = NULL;
}

#define L_HDR	((size_t)sizeof(struct torpor_late))
#define L_ENT	((size_t)sizeof(struct torpor_late_fs))
#define L_MAX	(L_HDR + TORPOR_LATE_MAX * L_ENT)

/*
 * The CRC-32 of a note of @nr entries at @r: its header with the crc field
 * taken as 0, then the entries.
 */
static uint32_t late_crc(const uint8_t *r, uint32_t nr)
{
	static const uint8_t zero[4];
	uint32_t crc;

	crc = crc32_update(0, r, L_HDR - 4);
	crc = crc32_update(crc, zero, 4);
	return crc32_update(crc, r + L_HDR, nr * L_ENT);
}

/**
 * image_late_encode() - write the late check's note where the root record was
 * @late: the note; late_size and crc are filled in here, at most TORPOR_LATE_MAX entries
 * @page: the swap header page, its signature already mkswap's; @page_size: its size
 */
void image_late_encode(const struct image_late *late, uint8_t *page, size_t page_size)
{
	uint8_t *r = page + TORPOR_ROOT_OFFSET, *e;
	uint32_t i, nr = late->hdr.nr < TORPOR_LATE_MAX ? late->hdr.nr : TORPOR_LATE_MAX;

	(void)page_size;
	memset(r, 0, L_MAX);
	put_start(r, TORPOR_LATE_MAGIC, TORPOR_LATE_VERSION, (uint32_t)L_HDR);
	put_le64(r + 16, late->hdr.created);
	put_le32(r + 24, late->hdr.nr_fs);
	put_le32(r + 28, nr);
	for (i = 0; i < nr; i++) {
		e = r + L_HDR + i * L_ENT;
		put_le32(e, late->fs[i].index);
		put_le32(e + 4, late->fs[i].flags);
		put_le64(e + 8, late->fs[i].mount_count);
		put_le64(e + 16, late->fs[i].mount_time);
		put_le64(e + 24, late->fs[i].write_time);
	}
	put_le32(r + 36, late_crc(r, nr));
}

/**
 * image_late_decode() - read the late check's note of a swap header page
 * @ret: the note in host order, written only on success
 *
 * Return: 0; -ENOENT when the page holds none (no magic: an older torpor-resume
 * checked every filesystem at boot); -EBADMSG when it is damaged or does not
 * fit; -EPROTO for another version of it; -EEXIST when the page carries our
 * signature (an image that was never restored: no note belongs there).
 */
int image_late_decode(const uint8_t *page, size_t page_size, struct image_late *ret)
{
	const uint8_t *r = page + TORPOR_ROOT_OFFSET, *e;
	struct image_late late;
	uint32_t i;

	if (page_size < 4096)
		return -EBADMSG;
	if (image_classify(page, page_size) == IMAGE_SIG_TORPOR)
		return -EEXIST;
	if (memcmp(r, TORPOR_LATE_MAGIC, 8))
		return -ENOENT;
	if (get_le32(r + 8) != TORPOR_LATE_VERSION)
		return -EPROTO;
	memset(&late, 0, sizeof(late));
	memcpy(late.hdr.magic, r, 8);
	late.hdr.version = TORPOR_LATE_VERSION;
	late.hdr.late_size = get_le32(r + 12);
	late.hdr.created = get_le64(r + 16);
	late.hdr.nr_fs = get_le32(r + 24);
	late.hdr.nr = get_le32(r + 28);
	late.hdr.reserved = get_le32(r + 32);
	late.hdr.crc = get_le32(r + 36);
	if (late.hdr.late_size != L_HDR || late.hdr.nr > TORPOR_LATE_MAX ||
	    late.hdr.nr > late.hdr.nr_fs || late.hdr.reserved ||
	    late.hdr.crc != late_crc(r, late.hdr.nr))
		return -EBADMSG;
	for (i = 0; i < late.hdr.nr; i++) {
		e = r + L_HDR + i * L_ENT;
		late.fs[i].index = get_le32(e);
		late.fs[i].flags = get_le32(e + 4);
		late.fs[i].mount_count = get_le64(e + 8);
		late.fs[i].mount_time = get_le64(e + 16);
		late.fs[i].write_time = get_le64(e + 24);
		if (late.fs[i].index >= late.hdr.nr_fs || late.fs[i].flags & ~TORPOR_LATE_UNSEEN)
			return -EBADMSG;
	}
	*ret = late;
	return 0;
}

/* Byte offsets in the note of a hibernation that was not resumed. */
#define N_CREATED	16
#define N_NOTED		24
#define N_CAUSE		32
#define N_RESERVED0	36
#define N_RELEASE	40
#define N_REASON	(N_RELEASE + TORPOR_UTS_LEN)
#define N_RESERVED1	(N_REASON + TORPOR_LOST_REASON_LEN)
#define N_CRC		(N_RESERVED1 + 3)
#define N_SIZE		((size_t)sizeof(struct torpor_lost))

_Static_assert(N_CRC + 4 == sizeof(struct torpor_lost), "lost note offsets");
_Static_assert(offsetof(struct torpor_lost, reason) == N_REASON, "lost note reason offset");
_Static_assert(N_SIZE <= L_MAX, "the lost note fits where the late check's was");

/* @src into the text field @dst of @len bytes: printable ASCII ('?' for others), NUL-padded */
static void put_text(uint8_t *dst, const char *src, size_t len)
{
	size_t i;

	memset(dst, 0, len);
	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? (uint8_t)src[i] : '?';
}

/*
 * Is @p (@len bytes) a text as put_text() writes it: printable ASCII, at
 * least @min of it, then NUL up to the end?
 */
static int valid_text(const uint8_t *p, size_t len, size_t min)
{
	size_t i, n = 0;

	for (; n < len && p[n]; n++)
		if (p[n] < 0x20 || p[n] >= 0x7f)
			return 0;
	if (n >= len || n < min)
		return 0;
	for (i = n; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

static uint32_t lost_crc(const uint8_t *r)
{
	static const uint8_t zero[4];

	return crc32_update(crc32_update(0, r, N_CRC), zero, 4);
}

/**
 * image_lost_encode() - write the note of a hibernation that was not resumed
 * where the root record (and the late check's note) was
 * @lost: the note; magic, version, lost_size and crc are filled in here, the
 *        texts cut to their fields and any byte not printable ASCII made '?'
 * @page: the swap header page, its signature mkswap's; @page_size: its size
 */
void image_lost_encode(const struct torpor_lost *lost, uint8_t *page, size_t page_size)
{
	uint8_t *r = page + TORPOR_ROOT_OFFSET;

	(void)page_size;
	/* the late check's note ends here too: nothing of it is left to mistake */
	memset(r, 0, L_MAX);
	put_start(r, TORPOR_LOST_MAGIC, TORPOR_LOST_VERSION, (uint32_t)N_SIZE);
	put_le64(r + N_CREATED, lost->created);
	put_le64(r + N_NOTED, lost->noted);
	put_le32(r + N_CAUSE, lost->cause);
	put_text(r + N_RELEASE, lost->release, TORPOR_UTS_LEN);
	put_text(r + N_REASON, lost->reason, TORPOR_LOST_REASON_LEN);
	put_le32(r + N_CRC, lost_crc(r));
}

/**
 * image_lost_decode() - read the note of a hibernation that was not resumed
 * @ret: the note in host order, its texts NUL-terminated, written only on success
 *
 * Return: 0; -ENOENT when the page holds none, or is no swap area; -EEXIST
 * when it carries our signature (an image: no note belongs there); -EPROTO
 * for another version of it; -EBADMSG when it is damaged (size, CRC, a
 * reserved byte, a text that is empty, unterminated or not printable ASCII).
 */
int image_lost_decode(const uint8_t *page, size_t page_size, struct torpor_lost *ret)
{
	const uint8_t *r = page + TORPOR_ROOT_OFFSET;
	struct torpor_lost n;

	if (page_size < 4096)
		return -EBADMSG;
	switch (image_classify(page, page_size)) {
	case IMAGE_SIG_TORPOR:
		return -EEXIST;
	case IMAGE_SIG_OTHER:
		return -ENOENT;
	case IMAGE_SIG_SWAP:
		break;
	}
	if (memcmp(r, TORPOR_LOST_MAGIC, 8))
		return -ENOENT;
	if (get_le32(r + R_VERSION) != TORPOR_LOST_VERSION)
		return -EPROTO;
	if (get_le32(r + R_SIZE) != N_SIZE || get_le32(r + N_CRC) != lost_crc(r) ||
	    get_le32(r + N_CAUSE) == 0 || get_le32(r + N_RESERVED0) ||
	    r[N_RESERVED1] || r[N_RESERVED1 + 1] || r[N_RESERVED1 + 2] ||
	    !valid_text(r + N_RELEASE, TORPOR_UTS_LEN, 0) ||
	    !valid_text(r + N_REASON, TORPOR_LOST_REASON_LEN, 1))
		return -EBADMSG;
	memset(&n, 0, sizeof(n));
	memcpy(n.magic, r, 8);
	n.version = TORPOR_LOST_VERSION;
	n.lost_size = (uint32_t)N_SIZE;
	n.created = get_le64(r + N_CREATED);
	n.noted = get_le64(r + N_NOTED);
	n.cause = get_le32(r + N_CAUSE);
	memcpy(n.release, r + N_RELEASE, TORPOR_UTS_LEN);
	memcpy(n.reason, r + N_REASON, TORPOR_LOST_REASON_LEN);
	n.crc = get_le32(r + N_CRC);
	*ret = n;
	return 0;
}
