/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devname.h - find the resume device from what the user wrote
 *
 * Works with or without udev: /dev/disk/by-* links are used when present,
 * otherwise sysfs and the devices' own bytes (swap, ext2/3/4, xfs, btrfs
 * superblocks; GPT and MBR partition tables; see probe.h) answer the question.
 * The devices are opened as devopen.h and read as devread.h says; both are
 * included here for the callers.
 */
#ifndef CORE_DEVNAME_H
#define CORE_DEVNAME_H

#include <stddef.h>
#include <sys/types.h>

#include "devopen.h"
#include "devread.h"
#include "devroot.h"

/**
 * devname_resolve() - turn a resume= spec into a block device number
 * @spec: what resume= holds; every form it takes, and what each means, is
 *        listed once, above the table of forms in devname.c
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

#endif
