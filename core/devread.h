/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devread.h - what a lookup reads from the devices, read in a reader process
 * within a deadline: a dead disk costs one deadline, never a hang
 */
#ifndef CORE_DEVREAD_H
#define CORE_DEVREAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "image.h"

struct probe_id;
struct probe_part;

/**
 * devname_probe() - what device @dev holds, read from its own first bytes
 * @dev: the device number
 * @ret_id: the UUID and label probe_fs() finds (swap area, ext2/3/4, xfs, btrfs)
 *
 * Read in a child process, as the scans read (devname_skipped()).
 * Return: 1 with @ret_id filled; 0 when nothing is recognised, or the device is
 * an md RAID member; -ETIMEDOUT when it did not answer within devname_probe_ms;
 * -errno from devname_open() or read().  Does not log.
 */
int devname_probe(dev_t dev, struct probe_id *ret_id);

/* What devname_read_stamp() reads. */
struct devname_stamp {
	struct torpor_fsrec rec;	/* the filesystem's stamp (fsstamp.h), dev 0 */
	uint64_t btrfs_devid;		/* a btrfs: which of its devices this is */
	uint64_t btrfs_devices;		/* a btrfs: how many devices it has */
};

/**
 * devname_read_stamp() - the stamp of the filesystem on @dev, read as a lookup reads
 * @dev: the device number
 * @log_head: xfs: the log head whose sector to checksum, or FSSTAMP_NO_LOG_HEAD
 *            (see fsstamp_read_buf())
 * @ret: written on success only
 *
 * Read in the reader process within devname_probe_ms, as devname_probe(): the
 * caller never waits on the device itself, not even for the bytes a lookup
 * did not read (btrfs' superblock at 64 KiB, an xfs log sector).  A lookup of
 * its own: devname_skipped() names @dev when it did not answer, or no reader
 * could be started.
 * Return: 0; -ETIMEDOUT when it did not answer in time (or did not in an
 * earlier lookup); -EMEDIUMTYPE when it holds no filesystem we know; other
 * -errno from devname_open(), read(), pipe() or fork().  Does not log.
 */
int devname_read_stamp(dev_t dev, uint64_t log_head, struct devname_stamp *ret);

/* Why a lookup did not read a device (struct devname_skip). */
enum devname_skip_reason {
	DEVNAME_SKIP_TIMEOUT = 1,	/* it did not answer within devname_probe_ms */
	DEVNAME_SKIP_EARLIER,		/* it did not earlier in this process: not read again */
	DEVNAME_SKIP_UDEV,		/* udev's database says not to probe it: @flag */
	DEVNAME_SKIP_NOREADER,		/* no process to read it could be started: @err */
};

struct devname_skip {
	dev_t dev;
	enum devname_skip_reason reason;
	int err;			/* DEVNAME_SKIP_NOREADER: -errno of fork() or pipe() */
	char flag[64];			/* DEVNAME_SKIP_UDEV: e.g. "DM_NOSCAN=1" */
};

/*
 * How long one device may take to answer a probe: its node opened and its
 * first 68 KiB (or its partition table) read.  A disk that answers at all does
 * in milliseconds, a USB stick or a waking disk in well under a second; by the
 * time a device shows in sysfs at boot, the kernel has read its partition
 * table.  3 s fits within torpor.wait='s default 5 s, so that one dead
 * device leaves the boot time to find the others, and costs each lookup once:
 * a device that did not answer is not read again by the same process.
 */
#define DEVNAME_PROBE_MS	3000

/**
 * devname_skipped() - the devices the last lookup did not read, and why
 * @ret: up to @cap of them, in the order met
 * @cap: room in @ret
 *
 * A lookup is a call of devname_resolve(), devname_resolve_uuid(),
 * devname_resolve_all(), devname_probe() or devname_read_stamp(); each
 * starts the list anew.  Each device read there is read in a child process
 * (see deadline.h) that must answer within devname_probe_ms: a read that
 * never returns (a multipath map queueing I/O with no path, a dead NBD or
 * iSCSI disk) would hang the caller for ever.  Also listed: devices udev
 * marks as not to be probed (udevdb.h).  The caller may tell the user; a
 * device skipped may carry what was looked for.
 * Return: how many were skipped (more than @cap were not kept).
 */
size_t devname_skipped(struct devname_skip *ret, size_t cap);

/**
 * devname_skip_why() - why @k was skipped, for a message
 * @k: from devname_skipped()
 * @buf: where to write, e.g. "it did not answer within 3 s", "udev marks it
 *       not to be probed (DM_NOSCAN=1)"
 * @len: size of @buf
 *
 * Return: @buf, always NUL-terminated when @len > 0.
 */
const char *devname_skip_why(const struct devname_skip *k, char *buf, size_t len);

/**
 * devname_stuck() - the readers killed at a deadline that have not ended yet
 * @ms: how long to give them to end (one killed a moment ago), 0 not to wait
 * @ret_dev: the device the first one was reading, written when there is one
 * @ret_pid: its process
 *
 * A reader killed while asleep in the kernel, waiting for a device that does
 * not answer, ends only when that I/O does: as the device's last opener, its
 * exit drops the device's page cache and waits for the page still under read,
 * holding the disk's open_mutex.  The sync that SNAPSHOT_FREEZE starts with
 * waits on that mutex (for ever, if the device never answers), and the
 * freezer cannot freeze a process in that state anyway.  Those that have
 * ended are reaped.
 * Return: how many live on after at most @ms.
 */
size_t devname_stuck(unsigned int ms, dev_t *ret_dev, pid_t *ret_pid);

/* the deadline of each device's probe, DEVNAME_PROBE_MS; tests shorten it */
extern unsigned int devname_probe_ms;

/* Tests only: what starts the reader process instead of fork() (NULL: fork()). */
extern pid_t (*devname_fork)(void);

/*
 * For devname.c and devscan.c: a lookup, within which the reads share one
 * reader process, begins and ends (they may nest: devname_skipped() tells of
 * the outermost one).
 */
void devread_lookup_start(void);
void devread_lookup_end(void);

/**
 * devread_probe() - devname_probe() within a lookup already started
 * Return: as devname_probe().
 */
int devread_probe(dev_t dev, struct probe_id *ret_id);

/**
 * devread_partition() - entry @partno of disk @disk's partition table, read by the reader
 * @disk: the whole disk
 * @sector: its logical sector size
 * @partno: from 1
 * @ret: written on success only
 *
 * Return: 0; -ETIMEDOUT when the disk did not answer (now or before); -errno
 * from probe_partition(), devname_open() or the reader.
 */
int devread_partition(dev_t disk, unsigned int sector, unsigned long partno,
		      struct probe_part *ret);

/* Note that this lookup did not read @dev, and why (kept once per device). */
void devread_skip(dev_t dev, enum devname_skip_reason why, int err, const char *flag);

#endif
