/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe.h - identify a block device from its own bytes: swap, ext2/3/4, xfs and
 * btrfs superblocks, md RAID member superblocks, GPT and MBR partition tables
 *
 * Pure parsers: no files, no sysfs.  What they read beyond a buffer the caller
 * already holds comes through a read function, so tests and fuzzers can hand
 * them bytes.  Everything read is untrusted; every offset is checked first.
 */
#ifndef CORE_PROBE_H
#define CORE_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* How many bytes from the start of a device probe_fs() and probe_md() look at. */
#define PROBE_HEAD_LEN		(65536 + 4096)	/* btrfs' superblock sits at 64 KiB */

/**
 * struct probe_dev - a device as the probes see it
 * @read: fill @buf with exactly @len bytes at byte @off of the device; return 0,
 *        -EBADMSG when the device ends first, or another -errno
 * @ctx: passed to @read
 * @size: the device's size in bytes
 */
struct probe_dev {
	int (*read)(void *ctx, void *buf, size_t len, uint64_t off);
	void *ctx;
	uint64_t size;
};

/* Identity found in a superblock. */
struct probe_id {
	int has_uuid;			/* the UUID is not all zeroes */
	uint8_t uuid[16];
	char label[257];		/* NUL-terminated, "" when none */
};

/* Identity of a partition, from its disk's partition table. */
struct probe_part {
	char uuid[37];			/* as the kernel's PARTUUID: GUID text, or "SSSSSSSS-PP" */
	char label[112];		/* GPT name as UTF-8, "" for MBR */
};

/**
 * probe_fs() - the UUID and label of what a device's first bytes hold
 * @head: the device's first bytes
 * @len: how many (at most PROBE_HEAD_LEN are looked at)
 * @id: filled when something is recognised
 *
 * Recognises a v1 swap area (also one whose signature a hibernation image
 * replaced), ext2/3/4, xfs and btrfs, in that order.
 *
 * Return: 1 when recognised, else 0.
 */
int probe_fs(const uint8_t *head, size_t len, struct probe_id *id);

/**
 * probe_md() - whether a device carries an md RAID member superblock
 * @dev: the device
 * @head: its first bytes (as for probe_fs())
 * @len: how many
 *
 * Looks where the kernel's md driver does: 0.90 (either byte order) in the
 * last 64 KiB-aligned 64 KiB, 1.0 8 to 12 KiB from the end, 1.1 at the start
 * and 1.2 at 4 KiB.  A 1.x superblock must also name its own sector in
 * super_offset, as the kernel requires.
 *
 * Return: 1 when one is found, 0 when not, or -errno from @dev->read other
 * than -EBADMSG.
 */
int probe_md(const struct probe_dev *dev, const uint8_t *head, size_t len);

/**
 * probe_partition() - PARTUUID and PARTLABEL of partition @partno of a disk
 * @dev: the whole disk
 * @sector_size: its logical sector size: a power of two from 512 to 65536
 * @partno: the partition's number, from 1
 * @pi: filled on success
 *
 * A protective MBR leads to the GPT, checked like the kernel's efi.c (header
 * and entry array CRCs, sizes, bounds), with the backup GPT at the last
 * sector when the primary is invalid.  Any other MBR gives the kernel's
 * "%08x-%02x" of the disk signature and @partno.
 *
 * Return: 0; -ENOENT when the disk has no such partition or no table;
 * -EBADMSG when its GPTs are invalid; -EINVAL for a bad @sector_size or
 * @partno; -ENOMEM; -errno from @dev->read.
 */
int probe_partition(const struct probe_dev *dev, unsigned int sector_size, unsigned long partno,
		    struct probe_part *pi);

/**
 * probe_uuid_hex() - 16 bytes as 32 lower-case hex digits
 * @uuid: the bytes
 * @out: the text, NUL-terminated
 */
void probe_uuid_hex(const uint8_t uuid[16], char out[33]);

#endif
