// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsstamp.c - read the mount stamp of an ext2/3/4 superblock
 *
 * The superblock sits at byte 1024: s_mtime (last mount time) at +0x2c,
 * s_wtime at +0x30, s_mnt_count (16 bit) at +0x34, the magic 0xef53 at +0x38,
 * s_uuid at +0x68.  ext4 bumps s_mnt_count and sets s_mtime whenever it is
 * mounted read-write (ext4_setup_super), which is what we want to notice.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blkio.h"
#include "fsstamp.h"

static uint32_t le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return le16(p) | le16(p + 2) << 16;
}

/**
 * fsstamp_parse() - the stamp of a filesystem from its first @len bytes
 * Return: 0; -EMEDIUMTYPE when it is not a filesystem we know; -EINVAL when @len is short.
 */
int fsstamp_parse(const uint8_t *buf, size_t len, struct torpor_fsrec *ret)
{
	const uint8_t *sb = buf + 1024;
	struct torpor_fsrec f;

	if (len < FSSTAMP_READ_BYTES)
		return -EINVAL;
	if (le16(sb + 0x38) != 0xef53)
		return -EMEDIUMTYPE;
	memset(&f, 0, sizeof(f));
	f.kind = TORPOR_FS_EXT;
	memcpy(f.uuid, sb + 0x68, 16);
	f.mount_count = le16(sb + 0x34);
	f.mount_time = le32(sb + 0x2c);
	f.write_time = le32(sb + 0x30);
	*ret = f;
	return 0;
}

/* Read and parse the stamp of the filesystem on @fd; 0 or -errno. */
int fsstamp_read(int fd, struct torpor_fsrec *ret)
{
	uint8_t *buf = blkio_alloc(4096);
	int r;

	if (!buf)
		return -ENOMEM;
	r = blkio_pread(fd, buf, 4096, 0);
	if (r == 0)
		r = fsstamp_parse(buf, 4096, ret);
	blkio_free(buf, 4096);
	return r;
}

/* 1 when @now shows no mount since @then (the write time may move: it is not compared). */
int fsstamp_same(const struct torpor_fsrec *then, const struct torpor_fsrec *now)
{
	return then->kind == now->kind && !memcmp(then->uuid, now->uuid, 16) &&
	       then->mount_count == now->mount_count && then->mount_time == now->mount_time;
}

/* The UUID in its canonical 8-4-4-4-12 text form. */
void fsstamp_uuid_str(const uint8_t u[16], char out[37])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
}
