// SPDX-License-Identifier: GPL-2.0-only
/*
 * fscheck.c - was a filesystem the image recorded mounted since?  Its stamps,
 * read again, decide, and the late check's note takes those not seen at boot
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "devname.h"
#include "devwait.h"
#include "fscheck.h"
#include "fsstamp.h"
#include "msg.h"
#include "skipsay.h"

#define BTRFS_DEVS_MAX 64

/* What the check of one filesystem found; -errno (said) when it refuses the image. */
enum fs_seen {
	FS_UNCHANGED,			/* there, and not mounted since */
	FS_UNSEEN,			/* not there by the deadline: left to the late check */
};

/*
 * Why reading @dev failed with @r, for a message: the reason the lookup gives
 * when it skipped @dev ("it did not answer within 3 s"), else @r's name.
 */
static const char *why_unread(dev_t dev, int r, char *buf, size_t len)
{
	struct devname_skip k;

	if (devname_skipped(&k, 1) > 0 && k.dev == dev)
		return devname_skip_why(&k, buf, len);
	snprintf(buf, len, "%s", msg_errname(r));
	return buf;
}

/*
 * Read the stamp of filesystem @uuid on @dev (recorded as @f), in the
 * reader process, within its deadline: a device that does not answer is a
 * doubt like any other that cannot be read.  0 and *@ret, or -errno (said).
 */
static int read_stamp(const struct torpor_fsrec *f, const char *uuid, dev_t dev,
		      struct devname_stamp *ret)
{
	char name[64], why[96];
	int r;

	r = devname_read_stamp(dev, fsstamp_log_head(f), ret);
	/* a btrfs' device id and count come from a btrfs only */
	if (r == 0 && f->kind == TORPOR_FS_BTRFS && ret->rec.kind != TORPOR_FS_BTRFS)
		r = -EMEDIUMTYPE;
	if (r == 0)
		return 0;
	why_unread(dev, r, why, sizeof(why));
	devname_name(dev, name, sizeof(name));
	msg_error("cannot check filesystem %s (mounted when hibernating) on %s: %s: not "
		  "restoring the image", uuid, name, why);
	msg_hint("restoring over a filesystem that may have been mounted since would corrupt "
		 "it; the image is discarded");
	return r;
}

/*
 * Read the btrfs stamp of every device in @devs (@n of them) and compare it
 * with @f: -ESTALE (said) when one moved, -ENOTUNIQ when two show the same
 * device id (a copy of a disk), -EIO when they disagree on the number of
 * devices, -errno when one cannot be read (said); 0 and *@ret_num_devices.
 */
static int read_btrfs_devs(const struct torpor_fsrec *f, const char *uuid, const dev_t *devs,
			   size_t n, uint64_t *ret_num_devices)
{
	uint64_t ids[BTRFS_DEVS_MAX], num = 0;
	struct devname_stamp now;
	char name[64], what[96];
	size_t i, j;
	int r = 0;

	for (i = 0; i < n && r == 0; i++) {
		r = read_stamp(f, uuid, devs[i], &now);
		if (r < 0)
			break;
		if (!fsstamp_same(f, &now.rec)) {
			devname_name(devs[i], name, sizeof(name));
			fsstamp_describe(f, &now.rec, what, sizeof(what));
			msg_error("filesystem %s on %s was mounted since hibernation (%s): not "
				  "restoring the image", uuid, name, what);
			msg_hint("restoring it would corrupt that filesystem; the image is "
				 "discarded");
			r = -ESTALE;
			break;
		}
		for (j = 0; j < i; j++)
			if (ids[j] == now.btrfs_devid)
				r = -ENOTUNIQ;
		if (i && now.btrfs_devices != num)
			r = -EIO;
		if (r < 0) {
			msg_error("cannot check filesystem %s (mounted when hibernating): %s: not "
				  "restoring the image", uuid, r == -ENOTUNIQ ?
				  "two devices carry the same device of it (a copy of a disk?)" :
				  "its devices disagree on how many it has");
			msg_hint("restoring over a filesystem that may have been mounted since "
				 "would corrupt it; the image is discarded");
			break;
		}
		ids[i] = now.btrfs_devid;
		num = now.btrfs_devices;
	}
	*ret_num_devices = num;
	return r;
}

/*
 * A btrfs may span several devices, each with a superblock carrying the
 * filesystem's UUID: every device is found by content and read, each must
 * show the recorded generation and roots, no two the same device id (a copy),
 * and as many as the filesystem has (a degraded mount elsewhere writes to the
 * devices it has, and the missing one could be that).  Waits until the
 * deadline for them all.  Return: FS_UNCHANGED; FS_UNSEEN when none of its
 * devices appeared (see fscheck_filesystems()); -errno, said, when some did
 * but not all, or one cannot be checked.
 */
static int check_btrfs(const struct torpor_fsrec *f, const char *uuid, int wait_seconds)
{
	struct devname_skip k[SKIPSAY_MAX];
	dev_t devs[BTRFS_DEVS_MAX];
	uint64_t num = 0;
	char spec[48], what[64];
	size_t n = 0, nk;
	int r;

	snprintf(spec, sizeof(spec), "UUID=%s", uuid);
	snprintf(what, sizeof(what), "filesystem %s", uuid);
	devwait_start(wait_seconds);
	for (;;) {
		r = devname_resolve_all(spec, devs, BTRFS_DEVS_MAX, &n);
		/* kept: each read of a stamp is a lookup of its own */
		nk = devname_skipped(k, SKIPSAY_MAX);
		if (r == 0)
			r = read_btrfs_devs(f, uuid, devs, n, &num);
		if (r < 0 && r != -ENOENT) {
			skipsay_list(what, k, nk);
			return r;
		}
		if (r == 0 && num == n) {
			skipsay_list(what, k, nk);
			return FS_UNCHANGED;
		}
		if (!devwait_pause())
			break;
	}
	skipsay_list(what, k, nk);
	if (r == -ENOENT)
		return FS_UNSEEN;
	msg_error("filesystem %s (mounted when hibernating) has %llu devices, %llu appeared "
		  "within %d s: the others cannot be checked, not restoring the image", uuid,
		  (unsigned long long)num, (unsigned long long)n, wait_seconds);
	msg_hint("if only the booted system opens them (separate encrypted or LVM volumes), let "
		 "the initramfs open them too, or unmount it before hibernating; torpor.wait=N "
		 "waits longer");
	return -ENOENT;
}

/* One entry of the late check's note: record @i of @l with @flags. */
static void late_add(struct image_late *late, const struct loader *l, uint32_t i,
		     uint32_t flags)
{
	struct torpor_late_fs *e = &late->fs[late->hdr.nr++];

	e->index = i;
	e->flags = flags;
	e->mount_count = l->img.fs[i].mount_count;
	e->mount_time = l->img.fs[i].mount_time;
	e->write_time = l->img.fs[i].write_time;
}

/*
 * The note for the restored torpor-suspend (image.h, struct torpor_late): the
 * filesystems the boot did not see, already in @late, then as many of those it
 * checked as fit, which the late check reads again too.
 */
static void late_fill(struct image_late *late, const struct loader *l)
{
	uint32_t i, j, unseen = late->hdr.nr;

	memcpy(late->hdr.magic, TORPOR_LATE_MAGIC, 8);
	late->hdr.version = TORPOR_LATE_VERSION;
	late->hdr.created = l->img.meta.created;
	late->hdr.nr_fs = l->img.meta.nr_fs;
	for (i = 0; i < l->img.meta.nr_fs && late->hdr.nr < TORPOR_LATE_MAX; i++) {
		for (j = 0; j < unseen && late->fs[j].index != i; j++)
			;
		if (j == unseen)
			late_add(late, l, i, 0);
	}
	msg_debug("the restored system checks %u filesystems again before it runs, %u of them "
		  "not seen at boot", late->hdr.nr, unseen);
}

/*
 * Filesystem @uuid did not appear by the deadline: the late check reads it.
 * Only when the image's writer says it performs one (TORPOR_META_LATE_CHECK):
 * an older torpor-suspend restored would thaw without reading anything, so
 * the image is discarded then, as before.
 */
static int leave_late(struct image_late *late, const struct loader *l, uint32_t i,
		      const char *uuid, int wait_seconds)
{
	if (!(l->img.meta.features & TORPOR_META_LATE_CHECK)) {
		msg_error("filesystem %s (mounted when hibernating) did not appear within %d s: "
			  "it cannot be checked, and the image's torpor-suspend does not check "
			  "it after the resume (an older torpor), not restoring the image", uuid,
			  wait_seconds);
		msg_hint("if only the booted system opens it (a separate encrypted or LVM "
			 "volume), let the initramfs open it too; torpor.wait=N waits longer");
		return -ENOENT;
	}
	if (late->hdr.nr >= TORPOR_LATE_MAX) {
		msg_error("more than %u of the filesystems mounted when hibernating are not "
			  "present at boot: the restored system cannot check them all, not "
			  "restoring the image", TORPOR_LATE_MAX);
		msg_hint("let the initramfs open them (separate encrypted or LVM volumes), or "
			 "unmount them before hibernating");
		return -E2BIG;
	}
	msg_info("filesystem %s not present at boot: the restored system checks it before "
		 "it runs", uuid);
	late_add(late, l, i, TORPOR_LATE_UNSEEN);
	return 0;
}

/*
 * An ext or xfs filesystem @uuid (recorded as @f): found by content, waited
 * for until the deadline, and its stamp read again.  Return: FS_UNCHANGED,
 * FS_UNSEEN, or -errno, said.
 */
static int check_one(const struct torpor_fsrec *f, const char *uuid, int wait_seconds)
{
	struct devname_stamp now;
	char name[64], what[96];
	dev_t dev;
	int r;

	r = devwait_device(uuid, 1, wait_seconds, &dev);
	if (r == DEVWAIT_MISSING)
		return FS_UNSEEN;
	if (r != DEVWAIT_FOUND) {
		msg_error("cannot check filesystem %s (mounted when hibernating): %s: not "
			  "restoring the image", uuid, r == DEVWAIT_AMBIGUOUS ?
			  "several devices carry its UUID" : msg_errname(r));
		msg_hint("restoring over a filesystem that may have been mounted since "
			 "would corrupt it; the image is discarded");
		return r == DEVWAIT_AMBIGUOUS ? -ENOTUNIQ : r;
	}
	/* the reader reads it: the lookup's probe did not read an xfs log sector */
	r = read_stamp(f, uuid, dev, &now);
	if (r < 0)
		return r;
	if (fsstamp_same(f, &now.rec))
		return FS_UNCHANGED;
	devname_name(dev, name, sizeof(name));
	fsstamp_describe(f, &now.rec, what, sizeof(what));
	msg_error("filesystem %s on %s was mounted since hibernation (%s): not restoring "
		  "the image", uuid, name, what);
	msg_hint("restoring it would corrupt that filesystem; the image is discarded");
	return -ESTALE;
}

/*
 * Was any filesystem that was mounted at hibernation time mounted again since?
 * Each is looked up by UUID (device numbers may change between boots) and
 * waited for until the deadline the resume device's wait started.  One that has
 * not appeared by then (a separate /home the initramfs does not unlock, an LVM
 * volume it does not activate, a USB disk) is left to the late check: the
 * restored torpor-suspend reads its stamp again, still frozen, through the
 * device it opened before hibernating, and reboots without thawing when it
 * moved (suspend/latecheck.c); @late gets the note it reads.  One that is there
 * but cannot be checked is a doubt: two devices with its UUID (a copy of the
 * disk: which one was mounted since?), an unreadable device, or no such
 * filesystem on it, and the image is discarded.  An ext or xfs UUID is looked
 * up by content, never through udev's link alone, which names one of two
 * copies; a btrfs one may be on several devices of one filesystem, each of
 * which is checked (check_btrfs()).
 */
int fscheck_filesystems(const struct loader *l, int wait_seconds, struct image_late *late)
{
	const struct torpor_fsrec *f;
	char uuid[37];
	uint32_t i;
	int r;

	memset(late, 0, sizeof(*late));
	for (i = 0; i < l->img.meta.nr_fs; i++) {
		f = &l->img.fs[i];
		fsstamp_uuid_str(f->uuid, uuid);
		if (f->kind == TORPOR_FS_BTRFS)
			r = check_btrfs(f, uuid, wait_seconds);
		else
			r = check_one(f, uuid, wait_seconds);
		if (r == FS_UNSEEN)
			r = leave_late(late, l, i, uuid, wait_seconds);
		if (r < 0)
			return r;
	}
	late_fill(late, l);
	return 0;
}
