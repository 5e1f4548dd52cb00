/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devname.h - find the resume device from what the user wrote, and open it
 *
 * Works with or without udev: /dev/disk/by-* links are used when present,
 * otherwise sysfs and the devices' own bytes (swap, ext2/3/4, xfs, btrfs
 * superblocks; GPT and MBR partition tables; see probe.h) answer the question.
 */
#ifndef CORE_DEVNAME_H
#define CORE_DEVNAME_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "image.h"

/**
 * devname_resolve() - turn a resume= spec into a block device number
 * @spec: one of
 *        /dev/NAME (a node, or just a name sysfs knows: no devtmpfs needed),
 *        /dev/mapper/NAME (also found via sysfs dm/name),
 *        /dev/disk/by-{uuid,label,partuuid,partlabel,id,path}/NAME,
 *        UUID=, LABEL= (swap area or filesystem: ext2/3/4, xfs, btrfs),
 *        PARTUUID= (GPT unique GUID, or MBR "SSSSSSSS-PP"), PARTLABEL= (GPT name),
 *        MAJ:MIN (decimal), or the kernel's bare hex form (e.g. fe10 = 254:16).
 *        A tag value may be wrapped in double quotes.
 * @ret_dev: the device number, written on success only
 *
 * Tags are looked up through /dev/disk/by-* first, then by scanning every
 * device in /sys/class/block.  The scan skips devices that have holders (the
 * members of dm or md devices: the holder is the real thing), disks with
 * partitions, empty devices and floppies; UUID= and LABEL= also skip any device
 * that carries an md RAID superblock (0.90, 1.0, 1.1 or 1.2, see probe_md()),
 * a member of an array not assembled yet.  Devices udev marks as not to be
 * probed are not read, nor those that do not answer within devname_probe_ms:
 * devname_skipped() names them.  Only block device numbers are returned;
 * nothing is opened for writing.
 *
 * Return: 0; -ENOENT when no such device exists (yet): the caller may wait and
 * retry; -EINVAL when @spec is malformed (including ".." in a path);
 * -ENOTBLK when a /dev path names something that is not a block device;
 * -ENOTUNIQ when a UUID= or LABEL= scan matched two different devices.
 * Does not log.
 */
int devname_resolve(const char *spec, dev_t *ret_dev);

/**
 * devname_resolve_uuid() - the one device whose content carries filesystem UUID @uuid
 *
 * As devname_resolve("UUID=..."), but read from the devices only: udev's
 * /dev/disk/by-uuid link names one device even when two carry the UUID (a copy
 * of a disk), and not necessarily the one that matters.
 * Return: 0; -ENOENT; -EINVAL; -ENOTUNIQ when two devices carry it.
 */
int devname_resolve_uuid(const char *uuid, dev_t *ret_dev);

/**
 * devname_link() - the device udev's /dev/disk/by-* link for @spec points to
 * @spec: UUID=, LABEL=, PARTUUID=, PARTLABEL= or a /dev/disk/by-* path
 * @ret_dev: the device number, written on success only
 *
 * For what a content scan cannot see (a format the probe does not know, a
 * device it skips): discarding on every device a spec may name.
 * Return: 0; -ENOENT without such a link; -EBUSY when reading the device
 * would hang (a suspended dm device, an offline SCSI disk); -EINVAL for other
 * specs.
 */
int devname_link(const char *spec, dev_t *ret_dev);

/**
 * devname_resolve_all() - every device @spec names, for when one is not enough
 * @spec: as devname_resolve()
 * @ret_devs: filled with up to @cap distinct device numbers
 * @ret_n: how many were written
 *
 * For the tag forms (UUID=, LABEL=, PARTUUID=, PARTLABEL= and their
 * /dev/disk/by-* links) every device in sysfs is scanned by content, never
 * through udev's link, which names only one of two copies; the other forms
 * name one device, as devname_resolve().  Used where all copies matter: to
 * discard an image on every device an ambiguous resume= names, to check every
 * device of a btrfs filesystem.
 * Return: 0 with *@ret_n >= 1; -ENOENT; -EINVAL; other -errno.  Does not log.
 */
int devname_resolve_all(const char *spec, dev_t *ret_devs, size_t cap, size_t *ret_n);

struct probe_id;

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

/**
 * devname_open() - open a block device by number, without trusting /dev
 * @dev: the device number
 * @flags: O_RDONLY or O_RDWR, plus e.g. O_DIRECT, O_EXCL; O_CREAT and O_TRUNC are dropped
 *
 * The node name comes from /sys/dev/block/MAJ:MIN/uevent (DEVNAME).  The node
 * is opened with O_NOFOLLOW and O_CLOEXEC, then fstat() must show a block
 * device numbered @dev.  When /dev has no such node (no devtmpfs), a private
 * node is made with mknod() in /dev/.torpor, or /run/torpor, opened and
 * unlinked again: that needs CAP_MKNOD.
 * With devname_root set (unit tests), a regular file is accepted as the node.
 *
 * Return: the fd; -ENODEV when the node is not block device @dev; -ELOOP when
 * it is a symlink; other -errno from open() or mknod().
 */
int devname_open(dev_t dev, int flags);

/**
 * devname_size() - size of an open block device (or regular file) in bytes
 * @fd: from devname_open()
 * @ret_bytes: written on success only
 *
 * Return: 0, -ENOTBLK for other file types, or -errno from fstat()/ioctl().
 */
int devname_size(int fd, unsigned long long *ret_bytes);

/**
 * devname_name() - a name for @dev in messages: "/dev/vdb", else "254:16"
 * @dev: the device number
 * @buf: where to write the name
 * @len: size of @buf
 *
 * Return: @buf, always NUL-terminated when @len > 0.
 */
const char *devname_name(dev_t dev, char *buf, size_t len);

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
 * Tests only: a prefix put before every /sys, /dev, /run and /proc path ("" by
 * default).  When non-empty, devname_open() also accepts regular files, so a
 * fake tree of image files can stand in for devices.
 */
extern const char *devname_root;

#endif
