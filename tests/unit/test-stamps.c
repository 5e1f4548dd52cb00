// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-stamps.c - the small parsers: /proc/zoneinfo, and ext, btrfs and xfs mount
 * stamps (crafted superblocks, and real mke2fs, mkfs.btrfs and mkfs.xfs images).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crc32.h"
#include "fsstamp.h"
#include "sysmem.h"
#include "tap.h"

static const char zoneinfo[] =
	"Node 0, zone      DMA\n"
	"  per-node stats\n"
	"      nr_inactive_anon 12\n"
	"  pages free     3840\n"
	"        min      12\n"
	"        present  3998\n"
	"        managed  3840\n"
	"        cma      0\n"
	"Node 0, zone    DMA32\n"
	"  pages free     200000\n"
	"        present  258016\n"
	"        nr_present_like_field 99\n";

static void test_zoneinfo(void)
{
	uint64_t pages = 0;

	tap_ok(sysmem_parse_zoneinfo(zoneinfo, &pages) == 0 && pages == 3998 + 258016,
	       "sysmem: sums the present lines of every zone (%llu)", (unsigned long long)pages);
	tap_ok(sysmem_parse_zoneinfo("Node 0\n  pages free 1\n", &pages) == -EINVAL,
	       "sysmem: text without present lines is an error");
	tap_ok(sysmem_present_pages(&pages) == 0 && pages > 0,
	       "sysmem: this machine's /proc/zoneinfo parses");
}

static void test_fsstamp(void)
{
	static uint8_t buf[FSSTAMP_READ_BYTES];
	struct torpor_fsrec a, b;
	char uuid[37], cmd[256], what[96], path[] = "/tmp/torpor-stamp-XXXXXX";
	int fd;

	memset(buf, 0, sizeof(buf));
	tap_ok(fsstamp_parse(buf, sizeof(buf), &a) == -EMEDIUMTYPE, "fsstamp: zeroes are no filesystem");
	buf[1024 + 0x38] = 0x53;
	buf[1024 + 0x39] = 0xef;
	buf[1024 + 0x34] = 7;
	buf[1024 + 0x2c] = 0x10;
	buf[1024 + 0x68] = 0xab;
	tap_ok(fsstamp_parse(buf, sizeof(buf), &a) == 0 && a.mount_count == 7 &&
	       a.mount_time == 0x10 && a.uuid[0] == 0xab, "fsstamp: ext superblock fields read");
	tap_ok(fsstamp_parse(buf, 4096, &a) == -EINVAL, "fsstamp: a short buffer is refused");
	b = a;
	b.write_time += 100;
	tap_ok(fsstamp_same(&a, &b), "fsstamp: a later write time alone is no new mount");
	b.mount_count++;
	tap_ok(!fsstamp_same(&a, &b), "fsstamp: a new mount count is a new mount");
	b = a;
	b.mount_time++;
	tap_ok(!fsstamp_same(&a, &b), "fsstamp: a new mount time is a new mount");
	/* a read-only mount elsewhere: same count and time, the journal replayed */
	buf[1024 + 0x60] = 0x46;	/* filetype, RECOVER, extents */
	tap_ok(fsstamp_parse(buf, sizeof(buf), &a) == 0 && (a.write_time & FSSTAMP_EXT_RECOVER),
	       "fsstamp: ext needs_recovery flag read");
	buf[1024 + 0x60] = 0x42;
	tap_ok(fsstamp_parse(buf, sizeof(buf), &b) == 0 && !fsstamp_same(&a, &b),
	       "fsstamp: ext journal recovered since (read-only mount) is a new mount");
	fsstamp_describe(&a, &b, what, sizeof(what));
	tap_ok(strstr(what, "journal recovered") != NULL, "fsstamp: describe says '%s'", what);
	tap_ok(fsstamp_same(&b, &a), "fsstamp: ext needs_recovery set since alone is no mount");
	buf[1024 + 0x60] = 0;
	tap_ok(fsstamp_parse(buf, sizeof(buf), &a) == 0, "fsstamp: ext superblock read again");

	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 8 << 20) < 0) {
		tap_ok(0, "fsstamp: scratch file");
		return;
	}
	snprintf(cmd, sizeof(cmd), "mke2fs -q -F -t ext4 -U 0c5e6a1b-2d30-4b0a-9d41-7f3c1c9e4c2e "
		 "%s >/dev/null 2>&1", path);
	if (system(cmd) != 0) {
		tap_ok(0, "fsstamp: mke2fs made an ext4 image (install e2fsprogs)");
	} else {
		tap_ok(fsstamp_read(fd, FSSTAMP_NO_LOG_HEAD, &a) == 0 && a.kind == TORPOR_FS_EXT,
		       "fsstamp: reads a real mke2fs image");
		fsstamp_uuid_str(a.uuid, uuid);
		tap_ok(!strcmp(uuid, "0c5e6a1b-2d30-4b0a-9d41-7f3c1c9e4c2e") && a.mount_count == 0,
		       "fsstamp: UUID %s, never mounted", uuid);
	}
	close(fd);
	unlink(path);
}

static void put_be(uint8_t *p, uint64_t v, int bytes)
{
	while (bytes--) {
		p[bytes] = (uint8_t)v;
		v >>= 8;
	}
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* A scratch file of @size bytes holding @len bytes of @data at 0; its fd, or -1. */
static int scratch(char *path, off_t size, const uint8_t *data, size_t len)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, size) < 0 || pwrite(fd, data, len, 0) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

static void test_btrfs(void)
{
	static uint8_t buf[FSSTAMP_READ_BYTES];
	uint8_t *sb = buf + 65536;
	struct torpor_fsrec a, b;
	char what[96];

	memset(buf, 0, sizeof(buf));
	memcpy(sb + 0x40, "_BHRfS_M", 8);
	sb[0x20] = 0x5a;
	put_le(sb + 0x48, 123, 8);
	put_le(sb + 0x50, 0x1d2c000, 8);
	put_le(sb + 0x60, 0, 8);
	tap_ok(fsstamp_parse(buf, sizeof(buf), &a) == 0 && a.kind == TORPOR_FS_BTRFS &&
	       a.mount_count == 123 && a.mount_time == 0 && a.write_time == 0x1d2c000 &&
	       a.uuid[0] == 0x5a, "fsstamp: btrfs generation, log root, root and fsid read");
	sb[0x40] = 'x';
	tap_ok(fsstamp_parse(buf, sizeof(buf), &a) == -EMEDIUMTYPE,
	       "fsstamp: btrfs needs its magic");
	sb[0x40] = '_';
	(void)fsstamp_parse(buf, sizeof(buf), &a);
	b = a;
	tap_ok(fsstamp_same(&a, &b), "fsstamp: btrfs, same stamp");
	b.mount_count = 130;
	b.write_time = 0x2000000;
	fsstamp_describe(&a, &b, what, sizeof(what));
	tap_ok(!fsstamp_same(&a, &b) && !strcmp(what, "generation 123, now 130"),
	       "fsstamp: btrfs, a new generation is a mount: \"%s\"", what);
	b = a;
	b.mount_time = 0x3000000;
	fsstamp_describe(&a, &b, what, sizeof(what));
	tap_ok(!fsstamp_same(&a, &b) && strstr(what, "log tree"),
	       "fsstamp: btrfs, a log tree written without a commit is a mount: \"%s\"", what);
	b = a;
	b.write_time++;
	tap_ok(!fsstamp_same(&a, &b), "fsstamp: btrfs, another tree root is a change");
	b = a;
	b.kind = TORPOR_FS_EXT;
	fsstamp_describe(&a, &b, what, sizeof(what));
	tap_ok(!fsstamp_same(&a, &b) && !strcmp(what, "btrfs, now ext"),
	       "fsstamp: another kind is a change: \"%s\"", what);
}

/* An xfs superblock like mkfs.xfs makes for 320 MiB, log at basic block 327728. */
static void xfs_sb(uint8_t *buf)
{
	memset(buf, 0, FSSTAMP_READ_BYTES);
	memcpy(buf, "XFSB", 4);
	put_be(buf + 4, 4096, 4);
	buf[32] = 0xc3;
	put_be(buf + 48, 65542, 8);	/* AG 2 (agblklog 15), block 6 */
	put_be(buf + 84, 20480, 4);
	put_be(buf + 88, 4, 4);
	put_be(buf + 96, 16384, 4);
	buf[124] = 15;
	put_be(buf + 240, 0x100000040ULL, 8);
}

static void test_xfs(void)
{
	static uint8_t buf[FSSTAMP_READ_BYTES];
	uint8_t sector[512];
	struct torpor_fsrec a, b;
	char path[] = "/tmp/torpor-xfs-XXXXXX", what[96];
	uint64_t head = 0;
	int fd;

	xfs_sb(buf);
	tap_ok(fsstamp_parse(buf, sizeof(buf), &a) == 0 && a.kind == TORPOR_FS_XFS &&
	       a.mount_count == 0x100000040ULL && a.mount_time == FSSTAMP_NO_LOG_HEAD &&
	       a.write_time == 0 && a.uuid[0] == 0xc3,
	       "fsstamp: xfs superblock LSN (big-endian) and UUID read");
	tap_ok(fsstamp_parse_log_head("3:1234\n", &head) == 0 && head == (3ULL << 32 | 1234),
	       "fsstamp: log_head_lsn 3:1234 parsed");
	tap_ok(fsstamp_parse_log_head("1:0", &head) == 0 && head == 1ULL << 32,
	       "fsstamp: log_head_lsn without a newline parsed");
	tap_ok(fsstamp_parse_log_head("0:5\n", &head) == -EINVAL &&
	       fsstamp_parse_log_head("7\n", &head) == -EINVAL &&
	       fsstamp_parse_log_head(":5\n", &head) == -EINVAL &&
	       fsstamp_parse_log_head("1:5x\n", &head) == -EINVAL &&
	       fsstamp_parse_log_head("4294967296:1\n", &head) == -EINVAL,
	       "fsstamp: malformed log heads are refused");

	fd = scratch(path, 200 << 20, buf, sizeof(buf));
	if (fd < 0) {
		tap_ok(0, "fsstamp: xfs scratch file");
		return;
	}
	memset(sector, 0x77, sizeof(sector));
	tap_ok(pwrite(fd, sector, sizeof(sector), (327728 + 40) * 512ULL) == 512,
	       "fsstamp: a log sector written at the head");
	tap_ok(fsstamp_read(fd, 2ULL << 32 | 40, &a) == 0 && a.mount_time == (2ULL << 32 | 40) &&
	       a.write_time == crc32_update(0, sector, 512),
	       "fsstamp: xfs log sector at head 2:40 checksummed");
	tap_ok(fsstamp_read(fd, 2ULL << 32 | 40, &b) == 0 && fsstamp_same(&a, &b),
	       "fsstamp: xfs, read again: the same stamp");
	sector[100] ^= 1;
	(void)!pwrite(fd, sector, sizeof(sector), (327728 + 40) * 512ULL);
	tap_ok(fsstamp_read(fd, 2ULL << 32 | 40, &b) == 0 && !fsstamp_same(&a, &b),
	       "fsstamp: xfs, a log record written at the old head is a mount");
	fsstamp_describe(&a, &b, what, sizeof(what));
	tap_ok(!strcmp(what, "log written at its head 2:40"), "fsstamp: xfs, \"%s\"", what);
	b = a;
	b.mount_count = 0x200000010ULL;
	fsstamp_describe(&a, &b, what, sizeof(what));
	tap_ok(!fsstamp_same(&a, &b) && !strcmp(what, "superblock lsn 1:64, now 2:16"),
	       "fsstamp: xfs, a new superblock LSN is a mount: \"%s\"", what);
	tap_ok(fsstamp_read(fd, 2ULL << 32 | (16384 * 8), &b) == 0 &&
	       b.mount_time == FSSTAMP_NO_LOG_HEAD && !fsstamp_same(&a, &b),
	       "fsstamp: xfs, a head past the log is unknown, and no match");
	tap_ok(fsstamp_read(fd, FSSTAMP_NO_LOG_HEAD, &b) == 0 && b.write_time == 0,
	       "fsstamp: xfs without a head: the superblock only");
	/* implausible geometry: no log sector is read, nothing breaks */
	xfs_sb(buf);
	put_be(buf + 88, 2, 4);		/* the log's AG 2 is past agcount */
	(void)!pwrite(fd, buf, 512, 0);
	tap_ok(fsstamp_read(fd, 1ULL << 32, &b) == 0 && b.mount_time == FSSTAMP_NO_LOG_HEAD,
	       "fsstamp: xfs, a log outside the AGs is not read");
	xfs_sb(buf);
	put_be(buf + 4, 3000, 4);
	buf[124] = 200;
	put_be(buf + 194, 384, 2);
	(void)!pwrite(fd, buf, 512, 0);
	tap_ok(fsstamp_read(fd, 1ULL << 32, &b) == 0 && b.mount_time == FSSTAMP_NO_LOG_HEAD,
	       "fsstamp: xfs, a block size, sector size or agblklog out of range is refused");
	xfs_sb(buf);
	put_be(buf + 48, 0, 8);
	(void)!pwrite(fd, buf, 512, 0);
	tap_ok(fsstamp_read(fd, 1ULL << 32, &b) == 0 && b.mount_time == FSSTAMP_NO_LOG_HEAD,
	       "fsstamp: xfs, an external log (logstart 0) has no head to read");
	close(fd);
	unlink(path);
}

/* mkfs @tool on a sparse file of @mib MiB, then read its stamp; 0 or -1. */
static int real_image(const char *mkfs, int mib, struct torpor_fsrec *ret)
{
	char path[] = "/tmp/torpor-mkfs-XXXXXX", cmd[512];
	int fd = mkstemp(path), r = -1;

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)mib << 20) == 0) {
		snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>&1", mkfs, path);
		if (system(cmd) == 0 && fsstamp_read(fd, FSSTAMP_NO_LOG_HEAD, ret) == 0)
			r = 0;
	}
	close(fd);
	unlink(path);
	return r;
}

static void test_real(void)
{
	struct torpor_fsrec a;
	char uuid[37];

	memset(&a, 0, sizeof(a));
	tap_ok(real_image("mkfs.btrfs -q -f -U 5b1f0a2c-3d4e-4f60-8a7b-9c0d1e2f3a4b", 128, &a) == 0,
	       "fsstamp: reads a real mkfs.btrfs image (install btrfs-progs)");
	fsstamp_uuid_str(a.uuid, uuid);
	tap_ok(a.kind == TORPOR_FS_BTRFS && !strcmp(uuid, "5b1f0a2c-3d4e-4f60-8a7b-9c0d1e2f3a4b") &&
	       a.mount_count > 0 && a.mount_time == 0,
	       "fsstamp: btrfs fsid %s, generation %llu, no log tree", uuid,
	       (unsigned long long)a.mount_count);
	memset(&a, 0, sizeof(a));
	tap_ok(real_image("mkfs.xfs -q -f -m uuid=6c2e1b3d-4f5a-4b71-9c8d-0e1f2a3b4c5d", 320, &a) == 0,
	       "fsstamp: reads a real mkfs.xfs image (install xfsprogs)");
	fsstamp_uuid_str(a.uuid, uuid);
	tap_ok(a.kind == TORPOR_FS_XFS && !strcmp(uuid, "6c2e1b3d-4f5a-4b71-9c8d-0e1f2a3b4c5d") &&
	       a.mount_count == 0, "fsstamp: xfs UUID %s, never written by a kernel (lsn 0)", uuid);
}

int main(void)
{
	test_zoneinfo();
	test_fsstamp();
	test_btrfs();
	test_xfs();
	test_real();
	return tap_done();
}
