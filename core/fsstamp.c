// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsstamp.c - read the mount stamp of an ext2/3/4, btrfs or xfs filesystem
 *
 * ext2/3/4: the superblock sits at byte 1024: s_mtime (last mount time) at
 * +0x2c, s_wtime at +0x30, s_mnt_count (16 bit) at +0x34, the magic 0xef53 at
 * +0x38, s_feature_incompat at +0x60, s_uuid at +0x68.  ext4 bumps s_mnt_count
 * and sets s_mtime whenever it is mounted read-write (ext4_setup_super), which is
 * what we want to notice.  A read-only mount does neither, yet when the journal
 * needs recovery (always, for a journalled filesystem mounted read-write when
 * hibernating) it replays the journal, deletes the orphan inodes (files deleted
 * while still open) and clears the needs_recovery flag (INCOMPAT_RECOVER) on
 * disk; so does e2fsck.  That flag, set then and clear now, is a mount too.
 *
 * btrfs: the primary superblock at 64 KiB, little-endian: fsid (the UUID) at
 * +0x20, the magic "_BHRfS_M" at +0x40, generation at +0x48, the tree root at
 * +0x50, the log tree root at +0x60.  Every transaction commit writes a
 * superblock with the next generation, and an unmount always commits one; an
 * fsync between commits writes the log tree and a superblock naming its root.
 * Swapping into a swap file writes its blocks directly and commits nothing.
 *
 * xfs: the superblock at 0, BIG-endian: magic "XFSB", sb_blocksize at 4, sb_uuid
 * at 32, sb_logstart at 48, sb_agblocks at 84, sb_agcount at 88, sb_logblocks at
 * 96, sb_agblklog at 124, sb_logsectsize at 194, sb_lsn at 240 (v5: the log
 * sequence number of the checkpoint that last wrote the superblock).  Any mount
 * that writes (read-write, and read-only without norecovery, which replays the
 * log of a filesystem not unmounted and then cleans it) writes log records at
 * the head of the log, and an unmount or a log clean logs and writes back the
 * superblock (xfs_log_cover), so sb_lsn moves.  The head (cycle:block, from
 * /sys/fs/xfs/<dev>/log/log_head_lsn when hibernating) is where the next record
 * goes: a checksum of the log sector there, unchanged, proves nobody wrote after.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blkio.h"
#include "crc32.h"
#include "fsstamp.h"
#include "le.h"

#define BTRFS_SB	65536
#define EXT_INCOMPAT_RECOVER	0x4	/* the journal needs recovery */
#define XFS_BB		512

/*
 * xfs: the byte offset and length of the log sector that holds basic block
 * @head_bb of the internal log, from the superblock @sb; -ERANGE when the
 * superblock's geometry is implausible, the log is external or @head_bb is past it.
 */
static int xfs_log_sector(const uint8_t *sb, uint64_t head_bb, uint64_t *ret_off,
			  uint32_t *ret_len)
{
	uint32_t bsize = get_be32(sb + 4), agblocks = get_be32(sb + 84), agcount = get_be32(sb + 88);
	uint32_t logblocks = get_be32(sb + 96), agblklog = sb[124], sect = get_be16(sb + 194);
	uint64_t logstart = get_be64(sb + 48), agno, agbno, fsb, off;

	if (sect == 0)
		sect = XFS_BB;
	if (bsize < 512 || bsize > 65536 || (bsize & (bsize - 1)) || sect < XFS_BB ||
	    sect > 65536 || (sect & (sect - 1)) || agblklog > 31 || agblocks == 0 ||
	    logstart == 0 || logblocks == 0)
		return -ERANGE;
	agno = logstart >> agblklog;
	agbno = logstart & ((1ULL << agblklog) - 1);
	if (agno >= agcount || agbno >= agblocks ||
	    head_bb >= (uint64_t)logblocks * (bsize / XFS_BB))
		return -ERANGE;
	fsb = agno * agblocks + agbno;
	if (fsb >= 1ULL << 47)
		return -ERANGE;
	off = fsb * bsize + head_bb * XFS_BB;
	*ret_off = off - off % sect;
	*ret_len = sect;
	return 0;
}

/**
 * fsstamp_parse() - the stamp of a filesystem from its first @len bytes
 * For xfs the log fields are left "unknown" (mount_time FSSTAMP_NO_LOG_HEAD,
 * write_time 0): fsstamp_read() fills them in.
 * Return: 0; -EMEDIUMTYPE when it is not a filesystem we know; -EINVAL when @len is short.
 */
int fsstamp_parse(const uint8_t *buf, size_t len, struct torpor_fsrec *ret)
{
	const uint8_t *sb = buf + 1024, *bt = buf + BTRFS_SB;
	struct torpor_fsrec f;

	if (len < FSSTAMP_READ_BYTES)
		return -EINVAL;
	memset(&f, 0, sizeof(f));
	if (!memcmp(buf, "XFSB", 4)) {
		f.kind = TORPOR_FS_XFS;
		memcpy(f.uuid, buf + 32, 16);
		f.mount_count = get_be64(buf + 240);
		f.mount_time = FSSTAMP_NO_LOG_HEAD;
	} else if (get_le16(sb + 0x38) == 0xef53) {
		f.kind = TORPOR_FS_EXT;
		memcpy(f.uuid, sb + 0x68, 16);
		f.mount_count = get_le16(sb + 0x34);
		f.mount_time = get_le32(sb + 0x2c);
		f.write_time = get_le32(sb + 0x30);
		if (get_le32(sb + 0x60) & EXT_INCOMPAT_RECOVER)
			f.write_time |= FSSTAMP_EXT_RECOVER;
	} else if (!memcmp(bt + 0x40, "_BHRfS_M", 8)) {
		f.kind = TORPOR_FS_BTRFS;
		memcpy(f.uuid, bt + 0x20, 16);
		f.mount_count = get_le64(bt + 0x48);
		f.mount_time = get_le64(bt + 0x60);
		f.write_time = get_le64(bt + 0x50);
	} else {
		return -EMEDIUMTYPE;
	}
	*ret = f;
	return 0;
}

/**
 * fsstamp_read_buf() - read and parse the stamp of the filesystem on @fd
 * @buf: FSSTAMP_READ_BYTES from blkio_alloc() (so @fd may be O_DIRECT)
 * @log_head: xfs: the log head (cycle << 32 | basic block) to checksum the log
 *            sector of, or FSSTAMP_NO_LOG_HEAD; ignored for the other kinds
 *
 * An xfs @log_head that lies outside this filesystem's log is kept as
 * FSSTAMP_NO_LOG_HEAD in @ret, so that it differs from a record that had it.
 * Return: 0 or -errno (-EMEDIUMTYPE: no filesystem we know).
 */
int fsstamp_read_buf(int fd, uint8_t *buf, uint64_t log_head, struct torpor_fsrec *ret)
{
	struct torpor_fsrec f;
	uint64_t off;
	uint32_t len;
	int r;

	r = blkio_pread(fd, buf, FSSTAMP_READ_BYTES, 0);
	if (r == 0)
		r = fsstamp_parse(buf, FSSTAMP_READ_BYTES, &f);
	if (r < 0)
		return r;
	if (f.kind == TORPOR_FS_XFS && log_head != FSSTAMP_NO_LOG_HEAD &&
	    xfs_log_sector(buf, log_head & 0xffffffffu, &off, &len) == 0) {
		r = blkio_pread(fd, buf, len, off);
		if (r < 0)
			return r;
		f.mount_time = log_head;
		f.write_time = crc32_update(0, buf, len);
	}
	*ret = f;
	return 0;
}

/* fsstamp_read_buf() with a buffer of its own; 0 or -errno. */
int fsstamp_read(int fd, uint64_t log_head, struct torpor_fsrec *ret)
{
	uint8_t *buf = blkio_alloc(FSSTAMP_READ_BYTES);
	int r;

	if (!buf)
		return -ENOMEM;
	r = fsstamp_read_buf(fd, buf, log_head, ret);
	blkio_free(buf, FSSTAMP_READ_BYTES);
	return r;
}

/**
 * fsstamp_btrfs_dev() - which device of its btrfs filesystem @buf shows
 * @buf: FSSTAMP_READ_BYTES from the start of the device
 * @ret_devid: the superblock's dev_item.devid (at +0xc9), unique in a filesystem
 * @ret_num_devices: num_devices (at +0x88), how many devices the filesystem has
 * Return: 0; -EMEDIUMTYPE when it is not btrfs; -EINVAL when @len is short.
 */
int fsstamp_btrfs_dev(const uint8_t *buf, size_t len, uint64_t *ret_devid,
		      uint64_t *ret_num_devices)
{
	const uint8_t *bt = buf + BTRFS_SB;

	if (len < FSSTAMP_READ_BYTES)
		return -EINVAL;
	if (memcmp(bt + 0x40, "_BHRfS_M", 8))
		return -EMEDIUMTYPE;
	*ret_devid = get_le64(bt + 0xc9);
	*ret_num_devices = get_le64(bt + 0x88);
	return 0;
}

/* The log head recorded in @f (xfs), to read its stamp again; else FSSTAMP_NO_LOG_HEAD. */
uint64_t fsstamp_log_head(const struct torpor_fsrec *f)
{
	return f->kind == TORPOR_FS_XFS ? f->mount_time : FSSTAMP_NO_LOG_HEAD;
}

/**
 * fsstamp_parse_log_head() - the text of /sys/fs/xfs/<dev>/log/log_head_lsn
 * @text: "cycle:block\n", NUL-terminated
 * Return: 0 with *@ret = cycle << 32 | block, or -EINVAL.
 */
int fsstamp_parse_log_head(const char *text, uint64_t *ret)
{
	unsigned long long v[2] = { 0, 0 };
	const char *p = text;
	int i, digits;

	for (i = 0; i < 2; i++) {
		for (digits = 0; *p >= '0' && *p <= '9'; p++, digits++) {
			v[i] = v[i] * 10 + (unsigned long long)(*p - '0');
			if (v[i] > 0xffffffffULL)
				return -EINVAL;
		}
		if (!digits || (i == 0 && *p++ != ':'))
			return -EINVAL;
	}
	if (*p != '\n' && *p != '\0')
		return -EINVAL;
	if (v[0] == 0)
		return -EINVAL;
	*ret = v[0] << 32 | v[1];
	return 0;
}

/* ext: the journal was recovered since @then (a read-only mount or e2fsck replayed it) */
static int ext_recovered(const struct torpor_fsrec *then, const struct torpor_fsrec *now)
{
	return (then->write_time & FSSTAMP_EXT_RECOVER) && !(now->write_time & FSSTAMP_EXT_RECOVER);
}

/*
 * 1 when @now shows no mount since @then.  ext: the mount count, mount time and
 * the needs_recovery flag (the write time itself is not compared); btrfs:
 * generation, log tree root and tree root; xfs: superblock LSN, log head and the
 * checksum of its sector.
 */
int fsstamp_same(const struct torpor_fsrec *then, const struct torpor_fsrec *now)
{
	if (then->kind != now->kind || memcmp(then->uuid, now->uuid, 16) ||
	    then->mount_count != now->mount_count || then->mount_time != now->mount_time)
		return 0;
	if (then->kind == TORPOR_FS_EXT)
		return !ext_recovered(then, now);
	return then->write_time == now->write_time;
}

static void lsn_str(uint64_t lsn, char *buf, size_t len)
{
	if (lsn == FSSTAMP_NO_LOG_HEAD)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%u:%u", (unsigned int)(lsn >> 32), (unsigned int)lsn);
}

/**
 * fsstamp_describe() - what differs between two stamps, for a message
 * e.g. "mount count 3, now 4", "generation 123, now 130"
 */
void fsstamp_describe(const struct torpor_fsrec *then, const struct torpor_fsrec *now,
		      char *buf, size_t len)
{
	unsigned long long a = then->mount_count, b = now->mount_count;
	char x[24], y[24];

	if (then->kind != now->kind) {
		snprintf(buf, len, "%s, now %s", fsstamp_kind_name(then->kind),
			 fsstamp_kind_name(now->kind));
	} else if (then->kind == TORPOR_FS_BTRFS) {
		if (a != b)
			snprintf(buf, len, "generation %llu, now %llu", a, b);
		else
			snprintf(buf, len, "generation %llu, log tree %llu, now %llu", a,
				 (unsigned long long)then->mount_time,
				 (unsigned long long)now->mount_time);
	} else if (then->kind == TORPOR_FS_XFS) {
		lsn_str(a, x, sizeof(x));
		lsn_str(b, y, sizeof(y));
		if (a != b) {
			snprintf(buf, len, "superblock lsn %s, now %s", x, y);
		} else {
			lsn_str(then->mount_time, x, sizeof(x));
			snprintf(buf, len, "log written at its head %s", x);
		}
	} else if (a == b && then->mount_time == now->mount_time && ext_recovered(then, now)) {
		snprintf(buf, len, "journal recovered since, by a read-only mount or e2fsck");
	} else {
		snprintf(buf, len, "mount count %llu, now %llu", a, b);
	}
}

/* "ext", "btrfs", "xfs" or "unknown". */
const char *fsstamp_kind_name(uint32_t kind)
{
	switch (kind) {
	case TORPOR_FS_EXT:
		return "ext";
	case TORPOR_FS_BTRFS:
		return "btrfs";
	case TORPOR_FS_XFS:
		return "xfs";
	}
	return "unknown";
}

/* The UUID in its canonical 8-4-4-4-12 text form. */
void fsstamp_uuid_str(const uint8_t u[16], char out[37])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
}
