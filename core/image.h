/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * image.h - torpor's on-disk image format, the only place it is defined
 *
 * An image lives inside the resume swap area.  Three parts, written in this order:
 *
 *   data   the snapshot stream read from /dev/snapshot, cut into blocks of
 *          block_pages pages, each LZ4-compressed (or stored raw when LZ4 does
 *          not help) and padded to a whole page, laid into swap slots that
 *          SNAPSHOT_ALLOC_SWAP_PAGE handed out.  The slots form extents.
 *   meta   struct torpor_meta, then the data extents, then one struct
 *          torpor_block per block, then one struct torpor_fsrec per mounted
 *          local filesystem.  Also in allocated slots.
 *   root   struct torpor_root at TORPOR_ROOT_OFFSET inside the swap header page
 *          (page 0 of a swap partition, page resume_offset of a swap file),
 *          plus the signature TORPOR_SIG at page_size - 10, where mkswap put
 *          "SWAPSPACE2".  The root points at the meta extents and carries the
 *          checksum of the meta blob; the root is written last, after a flush,
 *          so a half-written image never looks valid (the commit).
 *
 * Checksums (format 2): each block carries the XXH3-64 (core/hash.c) of its
 * stored bytes, exactly as they are on disk before the page padding, so
 * torpor-resume checks a block before it decodes it (lz4dec is exact: the
 * stored bytes decide the output); the root carries the XXH3-64 of the meta
 * blob.  The root record itself keeps a CRC-32 at its end, over root_size
 * bytes: magic, version and root_size sit at the same offsets in every format,
 * so any torpor can tell an intact record of another format, which it refuses
 * by its version, from a damaged one.  Format 1 had a CRC-32 of each
 * uncompressed block and of the meta blob, and a 1080-byte root.
 *
 * The swap header page keeps mkswap's own fields (bootbits, the v1 header at
 * 1024 with UUID and label) untouched: torpor only writes the root record and
 * the signature, as the kernel's swsusp_header only replaces its own fields.
 *
 * Why "S2SUSPEND" at the signature position:
 *  - never "S1SUSPEND": the kernel's own resume would try to load our image;
 *  - util-linux swapon and libblkid recognise S2SUSPEND as software-suspend
 *    data (TYPE=swsuspend): a boot without torpor that activates this swap
 *    area rewrites the signature to SWAPSPACE2, so the stale image can never be
 *    restored later ("software suspend data detected.  Rewriting the swap
 *    signature");
 *  - klibc fstype calls it "suspend", so initramfs-tools' get_fstype succeeds
 *    at once instead of waiting 30 s for an unknown signature;
 *  - no current kernel or tool writes S2SUSPEND ("ULSUSPEND" is uswsusp's):
 *    the root record's own magic and checksum tell our image from others.
 *  dracut's udev rules will see TYPE=swsuspend and hand the device to the
 *  kernel (/sys/power/resume); the kernel looks for S1SUSPEND only and ignores
 *  it, so that is harmless.
 *
 * All integers are little-endian on disk; image.c converts.  Sizes are checked
 * at compile time below.  Everything read back is untrusted: image.c validates
 * every count, length and offset before anyone uses it.
 */
#ifndef CORE_IMAGE_H
#define CORE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define TORPOR_SIG		"S2SUSPEND"	/* 9 chars + NUL = 10 bytes on disk */
#define TORPOR_SIG_LEN		10
#define SWAP_SIG		"SWAPSPACE2"
#define SWAP_SIG_OLD		"SWAP-SPACE"
#define TORPOR_ROOT_OFFSET	2048		/* after mkswap's v1 header (ends at 1540) */
#define TORPOR_ROOT_MAGIC	"TORPORRT"
#define TORPOR_META_MAGIC	"TORPORMT"
#define TORPOR_FORMAT_VERSION	2
/*
 * torpor-resume carries this string (NUL-terminated) in its bytes: the image
 * formats it reads, decimal, separated by commas.  torpor-suspend looks for it in
 * the initramfs before it hibernates (suspend/initramfs.c); make check-klibc
 * checks that the binary holds it.
 */
#define TORPOR_MARKER_PREFIX	"torpor-resume image-format="
#define TORPOR_STR_(x)		#x
#define TORPOR_STR(x)		TORPOR_STR_(x)
#define TORPOR_RESUME_MARKER	TORPOR_MARKER_PREFIX TORPOR_STR(TORPOR_FORMAT_VERSION)
#define TORPOR_ROOT_EXTENTS	64		/* meta blob extents the root can name */
#define TORPOR_BLOCK_PAGES	64		/* 256 KiB blocks with 4 KiB pages */
#define TORPOR_BLOCK_PAGES_MAX	1024
/*
 * Bounds that keep both programs' memory small whatever the machine: a block
 * is at most 4 MiB uncompressed (torpor-suspend picks larger blocks on larger
 * machines, see writer_block_pages()), the block table at most 266240 entries
 * (4.06 MiB: a 1 TiB machine with 4 MiB blocks), the data extents at most
 * 65536 (1 MiB; a swap area more fragmented than that is refused when
 * hibernating).  The meta blob is then at most 5.3 MiB, and torpor-resume
 * stays within 16 MiB (see loadfeed.c).
 */
#define TORPOR_BLOCK_BYTES_MAX	(4u << 20)
#define TORPOR_BLOCKS_MAX	((1u << 18) + (1u << 12))
#define TORPOR_EXTENTS_MAX	(1u << 16)
#define TORPOR_FS_MAX		4096
#define TORPOR_META_MAX		(6u << 20)	/* >= the meta blob of the bounds above */
#define TORPOR_UTS_LEN		65		/* struct new_utsname field size */

enum torpor_alg {
	TORPOR_ALG_NONE = 0,
	TORPOR_ALG_LZ4 = 1,
};

enum torpor_block_flags {
	TORPOR_BLOCK_RAW = 1,		/* stored uncompressed */
};

/*
 * Kinds of filesystem stamps (struct torpor_fsrec).  Kinds 2 and 3 came after
 * format version 1 was fixed and did not change it: an image holding only ext
 * records is the same as before, and a torpor-resume that predates a kind finds
 * it unknown, calls the image inconsistent and discards it, which is the safe
 * answer for a filesystem it cannot check.  A new version number would make
 * every image unreadable across the upgrade instead, with nothing gained.
 */
enum torpor_fs_kind {
	TORPOR_FS_EXT = 1,		/* ext2/3/4: mount count, mount time, write time */
	TORPOR_FS_BTRFS = 2,		/* btrfs: generation, log tree root, tree root */
	TORPOR_FS_XFS = 3,		/* xfs: superblock LSN, log head, log sector crc32 */
};

/*
 * What the writer of an image does beyond the format (struct torpor_meta's
 * features byte).  They came after format version 2 was fixed and did not
 * change it: the byte was reserved1[0], which every reader of format 2 leaves
 * unread, so an image that sets a bit reads as before everywhere, and one from
 * an older writer has it 0.  A reader acts on the bits it knows and ignores
 * the others: each says what the writer will do, never how to read the image.
 */
enum torpor_meta_features {
	/*
	 * the restored torpor-suspend checks, before it thaws, the filesystems
	 * the boot could not see (suspend/latecheck.c): torpor-resume may leave
	 * them to it; without the bit it discards the image, as before
	 */
	TORPOR_META_LATE_CHECK = 1,
};

/* A run of whole pages on the resume device. */
struct torpor_extent {
	uint64_t offset;		/* byte offset on the device, page aligned */
	uint32_t pages;			/* length in pages, > 0 */
	uint32_t reserved;		/* 0 */
};

struct torpor_root {
	char magic[8];			/* TORPOR_ROOT_MAGIC */
	uint32_t version;		/* TORPOR_FORMAT_VERSION */
	uint32_t root_size;		/* sizeof(struct torpor_root) */
	uint32_t page_size;		/* page size of the hibernated kernel */
	uint32_t flags;			/* 0 for now */
	uint64_t meta_bytes;		/* length of the meta blob */
	uint64_t meta_hash;		/* XXH3-64 of the meta blob */
	uint32_t nr_meta_extents;	/* used entries of meta_extents */
	uint32_t reserved0;		/* 0 */
	struct torpor_extent meta_extents[TORPOR_ROOT_EXTENTS];
	char orig_sig[10];		/* the swap signature we replaced */
	uint8_t reserved[2];		/* 0 */
	uint32_t root_crc;		/* crc32 of this record with root_crc = 0 */
};

struct torpor_meta {
	char magic[8];			/* TORPOR_META_MAGIC */
	uint32_t version;		/* TORPOR_FORMAT_VERSION */
	uint32_t meta_size;		/* sizeof(struct torpor_meta) */
	uint32_t page_size;		/* must equal the root's */
	uint32_t flags;			/* 0 for now */
	uint32_t algorithm;		/* enum torpor_alg */
	uint32_t block_pages;		/* uncompressed pages per block */
	uint64_t stream_bytes;		/* length of the snapshot stream */
	uint64_t stored_bytes;		/* sum of the blocks' stored lengths */
	uint64_t data_pages;		/* pages the data occupies (blocks padded) */
	uint32_t nr_blocks;		/* entries in the block table */
	uint32_t nr_extents;		/* entries in the data extent table */
	uint32_t nr_fs;			/* entries in the filesystem table */
	uint32_t reserved0;		/* 0 */
	uint64_t mem_pages;		/* present pages of the hibernated system */
	uint64_t created;		/* seconds since the epoch */
	char release[TORPOR_UTS_LEN];	/* uname -r of the hibernated kernel */
	char kversion[TORPOR_UTS_LEN];	/* uname -v of the hibernated kernel */
	char machine[TORPOR_UTS_LEN];	/* uname -m */
	uint8_t features;		/* enum torpor_meta_features */
	uint8_t reserved1[4];		/* 0, pads to a multiple of 8 */
};

struct torpor_block {
	uint32_t stored_len;		/* bytes on disk, before page padding */
	uint32_t flags;			/* enum torpor_block_flags */
	uint64_t hash;			/* XXH3-64 of the stored_len bytes on disk */
};

/*
 * What changes on a filesystem each time it is mounted again, read from the
 * device once the snapshot is taken (nothing writes it after that), compared
 * before resuming (core/fsstamp.c says why each field moves).  The field names
 * are ext's; per kind they hold:
 *   ext    mount_count s_mnt_count, mount_time s_mtime, write_time s_wtime
 *          and, at bit 32, the needs_recovery flag (a journal replayed since
 *          clears it; s_wtime is recorded, not compared; images written before
 *          the flag have it 0, which compares as before);
 *   btrfs  mount_count the superblock generation, mount_time the log tree root
 *          (0 when no log), write_time the tree root (byte numbers);
 *   xfs    mount_count sb_lsn (cycle << 32 | block), mount_time the log head
 *          when hibernating (same encoding, ~0 when unknown), write_time the
 *          crc32 of the log sector at that head (0 when unknown).
 * The UUID is ext's s_uuid, btrfs's fsid, xfs's sb_uuid: what blkid calls UUID.
 */
struct torpor_fsrec {
	uint32_t dev;			/* device number when hibernating (major << 20 | minor) */
	uint32_t kind;			/* enum torpor_fs_kind */
	uint8_t uuid[16];		/* the filesystem's UUID: device numbers can change */
	uint64_t mount_count;		/* see above, per kind */
	uint64_t mount_time;
	uint64_t write_time;
};

/*
 * The late check's note.  torpor-resume writes it where the root record was
 * when it invalidates an image it is about to restore (the same page write):
 * the image's own stamps of the filesystems, those it could not find at boot
 * (TORPOR_LATE_UNSEEN: a volume only the booted system opens) first.  The
 * restored torpor-suspend reads it back through the swap device it kept open
 * and, still frozen, reads those stamps again before it thaws (suspend/latecheck.c).
 * Its own memory holds the stamps read before the freeze, which a btrfs commit
 * or an xfs log write moved since: the image's are only on the disk.  The
 * signature is mkswap's again by then, so no boot takes the note for an image;
 * the next hibernation writes its root record over it.
 */
#define TORPOR_LATE_MAGIC	"TORPORLC"
#define TORPOR_LATE_VERSION	1
#define TORPOR_LATE_MAX		62		/* entries that fit in a 4 KiB page */

enum torpor_late_flags {
	TORPOR_LATE_UNSEEN = 1,		/* not found at boot: only the late check reads it */
};

struct torpor_late_fs {
	uint32_t index;			/* in the image's filesystem table */
	uint32_t flags;			/* enum torpor_late_flags */
	uint64_t mount_count;		/* the image's stamp (struct torpor_fsrec) */
	uint64_t mount_time;
	uint64_t write_time;
};

struct torpor_late {
	char magic[8];			/* TORPOR_LATE_MAGIC */
	uint32_t version;		/* TORPOR_LATE_VERSION */
	uint32_t late_size;		/* sizeof(struct torpor_late) */
	uint64_t created;		/* the image's meta.created: whose note this is */
	uint32_t nr_fs;			/* the image's meta.nr_fs */
	uint32_t nr;			/* entries that follow */
	uint32_t reserved;		/* 0 */
	uint32_t crc;			/* crc32 of this header with crc = 0, then the entries */
};

/*
 * The note of a hibernation that was not resumed.  When the late check finds a
 * doubt, the restored torpor-suspend, still frozen, writes it over the late
 * check's note, through the swap device it opened before the freeze, then
 * resets the machine: nothing is mounted or running that could keep the reason,
 * and the console that showed it is gone.  The signature stays mkswap's, so no
 * boot takes the page for an image; torpor-resume (at every boot while it is
 * there) and torpor status read it back and say why.  It lasts until the next
 * hibernation's root record is written over it (it is shorter than the root:
 * nothing of it is left), or until mkswap rewrites the page.  Read back as
 * untrusted: magic, version, size, CRC, zero padding, and texts that are
 * printable ASCII ending in NUL.
 */
#define TORPOR_LOST_MAGIC	"TORPORNR"
#define TORPOR_LOST_VERSION	1
#define TORPOR_LOST_REASON_LEN	384

enum torpor_lost_cause {
	TORPOR_LOST_LATE_CHECK = 1,	/* the late check found a doubt (suspend/lateguard.c) */
};

struct torpor_lost {
	char magic[8];			/* TORPOR_LOST_MAGIC */
	uint32_t version;		/* TORPOR_LOST_VERSION */
	uint32_t lost_size;		/* sizeof(struct torpor_lost) */
	uint64_t created;		/* the image's meta.created */
	uint64_t noted;			/* when it was given up (epoch seconds), 0: unknown */
	uint32_t cause;			/* enum torpor_lost_cause */
	uint32_t reserved0;		/* 0 */
	char release[TORPOR_UTS_LEN];	/* the image's meta.release, NUL-terminated */
	char reason[TORPOR_LOST_REASON_LEN];	/* why, one line, NUL-terminated */
	uint8_t reserved1[3];		/* 0 */
	uint32_t crc;			/* crc32 of this record with crc = 0 */
};

_Static_assert(sizeof(struct torpor_extent) == 16, "torpor_extent layout");
_Static_assert(sizeof(struct torpor_root) == 1088, "torpor_root layout");
_Static_assert(TORPOR_ROOT_OFFSET + sizeof(struct torpor_root) <= 4096 - TORPOR_SIG_LEN,
	       "root record must fit before the signature");
_Static_assert(sizeof(struct torpor_meta) == 288, "torpor_meta layout");
_Static_assert(sizeof(struct torpor_block) == 16, "torpor_block layout");
_Static_assert(sizeof(struct torpor_fsrec) == 48, "torpor_fsrec layout");
_Static_assert(sizeof(struct torpor_late_fs) == 32, "torpor_late_fs layout");
_Static_assert(sizeof(struct torpor_late) == 40, "torpor_late layout");
_Static_assert(TORPOR_ROOT_OFFSET + sizeof(struct torpor_late) +
	       TORPOR_LATE_MAX * sizeof(struct torpor_late_fs) <= 4096 - TORPOR_SIG_LEN,
	       "the late check's note must fit before the signature");
_Static_assert(sizeof(struct torpor_lost) == 496, "torpor_lost layout");
_Static_assert(sizeof(struct torpor_lost) <= sizeof(struct torpor_root),
	       "the next image's root record covers the whole note");
_Static_assert(sizeof(struct torpor_meta) + (size_t)TORPOR_EXTENTS_MAX * 16 +
	       (size_t)TORPOR_BLOCKS_MAX * 16 + (size_t)TORPOR_FS_MAX * 48 <= TORPOR_META_MAX,
	       "the largest valid meta blob must pass the root's bound");

/* A decoded, validated image description (host byte order, pointers into a meta buffer). */
struct torpor_image {
	struct torpor_root root;
	struct torpor_meta meta;
	struct torpor_extent *extents;	/* meta.nr_extents entries, host order */
	struct torpor_block *blocks;	/* meta.nr_blocks entries, host order */
	struct torpor_fsrec *fs;	/* meta.nr_fs entries, host order */
};

/* Classification of a swap header page. */
enum image_sig {
	IMAGE_SIG_OTHER = 0,		/* neither swap nor ours */
	IMAGE_SIG_SWAP,			/* SWAPSPACE2 / SWAP-SPACE: plain swap, no image */
	IMAGE_SIG_TORPOR,		/* S2SUSPEND: a torpor image may be present */
};

enum image_sig image_classify(const uint8_t *page, size_t page_size);

size_t image_meta_bytes(uint32_t nr_extents, uint32_t nr_blocks, uint32_t nr_fs);
uint64_t image_block_raw_bytes(const struct torpor_meta *m, uint32_t i);
uint32_t image_block_pages_stored(const struct torpor_block *b, uint32_t page_size);

void image_root_encode(const struct torpor_root *root, uint8_t *page, size_t page_size);
int image_root_decode(const uint8_t *page, size_t page_size, struct torpor_root *ret_root);
uint32_t image_root_version(const uint8_t *page, size_t page_size);

int image_meta_encode(const struct torpor_image *img, uint8_t *buf, size_t len);
int image_meta_decode(const uint8_t *buf, size_t len, uint64_t dev_bytes,
		      uint64_t header_offset, struct torpor_image *img);
void image_free(struct torpor_image *img);

/* The late check's note as it is used: the header and its entries, host order. */
struct image_late {
	struct torpor_late hdr;
	struct torpor_late_fs fs[TORPOR_LATE_MAX];
};

void image_late_encode(const struct image_late *late, uint8_t *page, size_t page_size);
int image_late_decode(const uint8_t *page, size_t page_size, struct image_late *ret);

void image_lost_encode(const struct torpor_lost *lost, uint8_t *page, size_t page_size);
int image_lost_decode(const uint8_t *page, size_t page_size, struct torpor_lost *ret);

int image_extents_check(const struct torpor_extent *ext, uint32_t n, uint32_t page_size,
			uint64_t dev_bytes, uint64_t header_offset, uint64_t *ret_pages);

#endif
