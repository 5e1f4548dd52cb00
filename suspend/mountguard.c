// SPDX-License-Identifier: GPL-2.0-only
/*
 * mountguard.c - the mounted filesystems of a hibernation: listed and stamped
 * before the freeze (refused when one is hidden from torpor-suspend or has a
 * copy the next boot would find), looked for again and synced after the freeze
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "checksay.h"
#include "devname.h"
#include "fsstamp.h"
#include "fsunique.h"
#include "monoclock.h"
#include "mountguard.h"
#include "mountinfo.h"
#include "mounts.h"
#include "msg.h"
#include "skipsay.h"

/* The mounted filesystems: stamped in mountguard_record(), synced after the freeze. */
static struct mounts mounts;

/*
 * A filesystem mounted where torpor-suspend cannot see it (another mount
 * namespace, a chroot, lazily unmounted), or (@since_list) mounted since the
 * list was made, would be neither synced nor guarded: refused.  0, or -errno
 * (reported).
 */
static int check_foreign(int since_list)
{
	char dev[NAME_MAX + 1];
	const char *type = NULL;
	int r;

	r = mounts_foreign(&mounts, dev, sizeof(dev), &type);
	if (r == 0)
		return 0;
	checksay_foreign(&mounts, r, dev, type, since_list);
	return r == 1 ? -EBUSY : r;
}

static int collect_mounts(struct torpor_image *img)
{
	uint32_t i;
	int r;

	r = mounts_collect(&mounts);
	if (r < 0) {
		/* without the stamps nothing guards the filesystems, without the list no sync */
		msg_error("cannot record the mounted filesystems from %s: %s", MOUNTINFO_PATH,
			  msg_errname(r));
		return r;
	}
	r = check_foreign(0);
	if (r < 0)
		return r;
	if (mounts.nr_fs) {
		free(img->fs);
		img->fs = mounts.fs;
		img->meta.nr_fs = mounts.nr_fs;
		mounts.fs = NULL;
	}
	for (i = 0; i < mounts.nr_unstamped; i++)
		checksay_unstamped(&mounts.unstamped[i]);
	for (i = 0; i < mounts.nr_unsynced; i++)
		checksay_unsynced(&mounts.unsynced[i]);
	return 0;
}

/*
 * The next boot finds each stamped filesystem by its UUID, reading the
 * devices, and discards the image when a copy (an LVM snapshot, a cloned disk
 * attached) makes that ambiguous: the same lookup now, to refuse instead.
 */
static int check_unique(const struct torpor_image *img)
{
	static const char *const fix[] = {
		[TORPOR_FS_EXT] = "tune2fs -U random DEVICE",
		[TORPOR_FS_BTRFS] = "btrfstune -u DEVICE",
		[TORPOR_FS_XFS] = "xfs_admin -U generate DEVICE",
	};
	char uuid[37], list[200] = "", name[64], mounted[64];
	const struct torpor_fsrec *f;
	enum fsunique_result r;
	struct fsunique_clash c;
	size_t i, at = 0;
	int among = 0;

	r = fsunique_check(img->fs, img->meta.nr_fs, skipsay, &c);
	if (r == FSUNIQUE_ALONE)
		return 0;
	f = &img->fs[c.index];
	fsstamp_uuid_str(f->uuid, uuid);
	devname_name(c.mounted, mounted, sizeof(mounted));
	if (r == FSUNIQUE_UNREAD) {
		devname_name(c.devs[0], name, sizeof(name));
		msg_error("cannot check that %s filesystem %s is on %s alone: no process to read "
			  "%s could be started: %s", fsstamp_kind_name(f->kind), uuid, mounted,
			  name, msg_errname(c.err));
		msg_hint("a copy there would make the next boot discard the image; hibernate "
			 "again when memory or the process limit is less short");
		return -ECHILD;
	}
	/* btrfs: every device that shows the same id; else the others, the copies */
	for (i = 0; i < c.n && at < sizeof(list); i++) {
		if (c.devs[i] == c.mounted)
			among = 1;
		if (c.devs[i] == c.mounted && f->kind != TORPOR_FS_BTRFS)
			continue;
		devname_name(c.devs[i], name, sizeof(name));
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", name);
	}
	if (f->kind == TORPOR_FS_BTRFS)
		msg_error("btrfs %s (mounted from %s): %s show the same device of it (a copy of "
			  "a disk?): the next boot could not check it and would discard the image",
			  uuid, mounted, list);
	else if (among)
		msg_error("%s filesystem %s mounted from %s is also on %s (a copy: an LVM "
			  "snapshot, a cloned disk?): the next boot could not tell which one was "
			  "mounted and would discard the image", fsstamp_kind_name(f->kind), uuid,
			  mounted, list);
	else
		msg_error("%s filesystem %s is mounted from %s, but the next boot would find it "
			  "on %s and discard the image", fsstamp_kind_name(f->kind), uuid, mounted,
			  list);
	msg_hint("detach the copy or remove the snapshot (or deactivate it: 'lvchange -an "
		 "VG/LV'), or give the copy a UUID of its own ('%s' while it is not mounted), "
		 "then hibernate again", f->kind < sizeof(fix) / sizeof(fix[0]) && fix[f->kind] ?
		 fix[f->kind] : "see its filesystem's tools");
	return -ENOTUNIQ;
}

/**
 * mountguard_record() - list and stamp the mounted filesystems into @img
 *
 * Refused when one is mounted where torpor-suspend cannot see it, when the
 * list cannot be made, or when the next boot would find one on another device
 * as well (a copy).
 * Return: 0, or -errno (reported).
 */
int mountguard_record(struct torpor_image *img)
{
	if (collect_mounts(img) < 0)
		return -EIO;
	msg_debug("recorded %u mounted filesystems, %u to sync", img->meta.nr_fs, mounts.nr_sync);
	return check_unique(img);
}

/*
 * mountguard_sync() - sync every filesystem on a local disk, after the freeze
 *
 * Between the kernel's sync in FREEZE and the freeze itself, programs still
 * write; their data sits in the page cache, and so in the snapshot.  Were the
 * power cut while the image is written, it would be lost although the frozen
 * programs saw their writes succeed.  So every filesystem on a local disk is
 * synced now, while only we run: what the snapshot holds is then on disk too.
 * Not FUSE or network filesystems: their servers are frozen, or beyond reach.
 * A failure stops the hibernation: the disk would not agree with the image, and
 * running on, the programs whose data it was hear of the error (fsync reports it).
 * Return: 0, or -errno (reported).
 */
int mountguard_sync(void)
{
	double t0 = mono_s();
	uint32_t i = 0;
	int r;

	r = mounts_sync(&mounts, &i);
	if (r < 0) {
		msg_error("syncing %s %s after freezing failed: %s: the disk would not hold what "
			  "the image holds", mounts.sync[i].fstype, mounts.sync[i].where,
			  msg_errname(r));
		msg_hint("'dmesg | tail' names the error; a full filesystem or a failing disk "
			 "must be dealt with first");
		return r;
	}
	msg_debug("synced %u filesystems in %.2f s", mounts.nr_sync, mono_s() - t0);
	return 0;
}

/*
 * mountguard_check_late() - refuse a filesystem mounted since the list was made
 *
 * The list was made before the freeze (the stamps go into the image's
 * metadata): an ext4, xfs or btrfs mounted since (an automounter, a desktop's
 * disk daemon) would be neither synced nor guarded against a mount elsewhere
 * before the resume.  The kernel lists every one in /sys/fs, whatever the
 * namespace; after the freeze no process can mount another.
 * Return: 0, or -errno (reported).
 */
int mountguard_check_late(void)
{
	return check_foreign(1);
}

/* mountguard_release() - free the list made by mountguard_record() */
void mountguard_release(void)
{
	mounts_release(&mounts);
}
