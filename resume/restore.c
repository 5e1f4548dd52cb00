// SPDX-License-Identifier: GPL-2.0-only
/*
 * restore.c - torpor-resume's main sequence: find the image, check it, restore or discard it
 *
 * Every path ends in a normal boot except the one where ATOMIC_RESTORE
 * succeeds.  The image is invalidated whenever it is looked at for real: a
 * resume attempt, noresume, or a rejection.  Only a missing image, a missing
 * device or --dump leave the disk untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "civtime.h"
#include "devname.h"
#include "devwait.h"
#include "fscheck.h"
#include "imagedump.h"
#include "loader.h"
#include "loadshow.h"
#include "msg.h"
#include "restore.h"
#include "skipsay.h"
#include "snapshot.h"
#include "syscheck.h"
#include "usage.h"
#include "util.h"
#include "wallclock.h"

/*
 * No image: say whether the restored system of the last one gave up, still
 * frozen, and left the reason in the swap header before it reset the machine
 * (image.h, struct torpor_lost).  At every boot while the note is there: it
 * lasts until the next hibernation writes its image over it, and nothing at a
 * boot without an image writes the swap area.
 */
static void say_lost(const struct loader *l)
{
	static struct torpor_lost n;
	char when[48];

	if (image_lost_decode(l->header_page, l->ps, &n) < 0)
		return;
	civtime_format(n.created, when, sizeof(when));
	msg_info("the last hibernation (written %s by kernel %s) was not resumed: %s", when,
		 n.release[0] ? n.release : "unknown", n.reason);
}

/* Discard the image after a rejection; says so, or says it could not. */
static void reject(struct loader *l, const char *name)
{
	if (loader_invalidate(l) == 0) {
		msg_info("discarded the hibernation image on %s, continuing boot", name);
		return;
	}
	msg_error("could not invalidate the hibernation image on %s", name);
	msg_hint("do not mount filesystems read-write before running 'mkswap' on %s", name);
}

/* Steps 4-5: the point of no return is ATOMIC_RESTORE; before it, close() undoes all. */
static int load_and_restore(struct loader *l, const char *name)
{
	long long t0 = wallclock_ms();
	unsigned long long cpu_self, cpu_workers;
	int snap_fd, r;

	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0)
		msg_debug("mlockall failed: %s", msg_errname(-errno));
	snap_fd = snap_open(O_WRONLY);
	if (snap_fd < 0) {
		msg_error("cannot open %s: %s, continuing boot", SNAPSHOT_PATH,
			  msg_errname(snap_fd));
		if (snap_fd == -EPERM)
			msg_hint("Secure Boot lockdown (or nohibernate) forbids resuming");
		return snap_fd;
	}
	msg_info("restoring %llu MiB image from %s", MIB(l->img.meta.stream_bytes), name);
	loadshow_start();
	l->progress = loadshow_progress;
	l->profile = msg_debug_enabled();
	cpu_self = usage_cpu_ms(RUSAGE_SELF);
	cpu_workers = usage_cpu_ms(RUSAGE_CHILDREN);
	r = loader_feed(l, snap_fd);
	/* the workers are reaped by now: their time is in RUSAGE_CHILDREN */
	cpu_self = usage_cpu_ms(RUSAGE_SELF) - cpu_self;
	cpu_workers = usage_cpu_ms(RUSAGE_CHILDREN) - cpu_workers;
	/* plymouth's client is not left to be frozen, and on a failure the boot goes on */
	loadshow_stop();
	if (r < 0) {
		if (l->failed_block || !strncmp(l->failed, "data", 4))
			msg_error("bad hibernation image on %s: %s (block %u): %s, continuing boot",
				  name, l->failed, l->failed_block, msg_errname(r));
		else
			msg_error("restoring the image from %s failed: %s: %s, continuing boot",
				  name, l->failed, msg_errname(r));
		goto out;
	}
	loadshow_loaded(l, t0, cpu_self, cpu_workers);
	msg_flush();
	r = snap_freeze(snap_fd);
	if (r < 0) {
		msg_error("freezing for the restore failed: %s, continuing boot", msg_errname(r));
		goto out;
	}
	r = snap_atomic_restore(snap_fd);
	/* only reached when the restore failed */
	msg_error("the kernel could not restore the image: %s, continuing boot",
		  msg_errname(r));
	msg_hint("'dmesg | grep -i -e hibernat -e PM:' shows the kernel's reason");
	(void)snap_unfreeze(snap_fd);
out:
	close(snap_fd);
	munlockall();
	return r;
}

/* Step 3's checks of this boot, then steps 4-5; a refusal discards the image. */
static int check_and_restore(const struct restore_opts *o, struct loader *l, const char *name)
{
	static struct image_late late;
	int r;

	r = syscheck_kernel(l, o->force);
	if (r == 0)
		r = syscheck_memory(l);
	if (r == 0)
		r = fscheck_filesystems(l, o->wait_seconds, &late);
	if (r == 0)
		r = syscheck_nothing_mounted();
	if (r == 0)
		r = syscheck_stuck_readers();
	/* last: what this boot has free just before the load */
	if (r == 0)
		r = syscheck_free_memory(l);
	if (r < 0) {
		reject(l, name);
		return r;
	}
	l->late = &late;
	r = loader_invalidate(l);
	if (r < 0) {
		msg_error("not restoring: %s on %s failed: %s", l->failed, name, msg_errname(r));
		return r;
	}
	return load_and_restore(l, name);
}

/* Steps 2-3 on an open device. */
static int examine(const struct restore_opts *o, int fd, const char *name)
{
	struct loader l;
	unsigned long long size = 0;
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	int r;

	r = devname_size(fd, &size);
	if (r == 0 && o->offset >= size / ps) {
		/* the kernel would find nothing there either; o->offset * ps could wrap */
		msg_error("resume_offset=%llu is past the end of %s (%llu pages): no image there",
			  (unsigned long long)o->offset, name, size / ps);
		msg_hint("torpor-suspend --check prints the right resume_offset=");
		return -ERANGE;
	}
	if (r == 0)
		r = loader_init(&l, fd, size, o->offset * ps, ps);
	if (r < 0) {
		msg_error("cannot read resume device %s: %s", name, msg_errname(r));
		return r;
	}
	r = loader_read_root(&l);
	if (r == -ENOENT) {
		say_lost(&l);
		msg_debug("no torpor image on %s, normal boot", name);
		goto out;
	}
	if (r == 0 && (o->noresume || o->discard_reason) && !o->dump) {
		if (o->discard_reason)
			msg_warn("%s: not restoring the image on %s", o->discard_reason, name);
		else
			msg_info("noresume given: not restoring the image on %s", name);
		reject(&l, name);
		goto out;
	}
	if (r == 0)
		r = loader_read_meta(&l);
	if (o->dump) {
		if (r == 0 || l.img.root.version)
			imagedump_print(&l, name);
		if (r < 0)
			msg_error("image on %s is invalid: %s", name, l.failed);
		goto out;
	}
	if (r == -EPROTO && l.other_version) {
		/* an intact image that this torpor cannot read: not damage, an upgrade */
		msg_error("rejected the hibernation image on %s: written by %s torpor in format %u, "
			  "this torpor reads format %u", name,
			  l.other_version < TORPOR_FORMAT_VERSION ? "an older" : "a newer",
			  l.other_version, TORPOR_FORMAT_VERSION);
		reject(&l, name);
		goto out;
	}
	if (r < 0) {
		msg_error("rejected the hibernation image on %s: %s: %s", name, l.failed,
			  msg_errname(r));
		reject(&l, name);
		goto out;
	}
	r = check_and_restore(o, &l, name);
out:
	loader_release(&l);
	return r;
}

/*
 * Open @dev with @flags, for direct I/O when it allows it: the image then
 * passes through no page cache the kernel needs for it.  The descriptor, or -errno.
 */
static int open_direct(dev_t dev, int flags)
{
	int fd = devname_open(dev, flags | O_DIRECT);

	return fd == -EINVAL ? devname_open(dev, flags) : fd;
}

/* Open @dev and examine it as @o says (the caller set a discard reason). */
static int examine_dev(const struct restore_opts *o, dev_t dev)
{
	char name[64];
	int fd, r;

	devname_name(dev, name, sizeof(name));
	fd = open_direct(dev, O_RDWR);
	if (fd < 0) {
		msg_error("cannot open resume device %s: %s", name, msg_errname(fd));
		return fd;
	}
	r = examine(o, fd, name);
	close(fd);
	return r;
}

/*
 * Every device @spec may name, up to @cap: by content, and where udev's link
 * points (a device the scan skips or cannot read).  How many.
 */
static size_t every_device(const char *spec, dev_t *devs, size_t cap)
{
	char what[300];
	size_t i, n = 0;
	dev_t link;

	if (devname_resolve_all(spec, devs, cap, &n) < 0)
		n = 0;
	snprintf(what, sizeof(what), "'%s'", spec);
	skipsay(what);
	if (n < cap && devname_link(spec, &link) == 0) {
		for (i = 0; i < n && devs[i] != link; i++)
			;
		if (i == n)
			devs[n++] = link;
	}
	return n;
}

/*
 * A resume= that names several devices (a copy of the swap disk, two areas with
 * one label): which image is the real one cannot be told, so none is restored,
 * and every one is discarded, or a later boot that sees one copy only would
 * restore a stale image.
 */
static void discard_all(const struct restore_opts *o)
{
	struct restore_opts d = *o;
	dev_t devs[16];
	size_t i, n;

	d.discard_reason = "the resume device is ambiguous";
	n = every_device(o->device, devs, sizeof(devs) / sizeof(devs[0]));
	for (i = 0; i < n; i++)
		(void)examine_dev(&d, devs[i]);
}

/* discard_other() for one device @other the hook names */
static void discard_other_one(const struct restore_opts *o, dev_t other)
{
	struct restore_opts d = *o;

	snprintf(d.device, sizeof(d.device), "%s", o->other_device);
	d.offset = o->other_offset;
	d.other_device[0] = '\0';
	d.discard_reason = "the initramfs hook names another resume area than the kernel "
			   "command line";
	msg_warn("the initramfs hook names resume area '%s' (offset %llu), the kernel "
		 "command line '%s' (offset %llu): restoring only the latter",
		 o->other_device, (unsigned long long)o->other_offset, o->device,
		 (unsigned long long)o->offset);
	(void)examine_dev(&d, other);
}

/*
 * The hook named another device or offset than torpor-resume reads from the
 * kernel command line (initramfs-tools keeps quotes and reads past "--", a
 * configured RESUME= differs): torpor-suspend wrote where the command line
 * says, so that is what may be restored, and an image where the hook points is
 * a doubt: discarded, unless it is the same area (@dev, 0 when not found).
 */
static void discard_other(const struct restore_opts *o, dev_t dev)
{
	dev_t other, all[16];
	size_t i, n;
	int r;

	r = devwait_device(o->other_device, 0, 0, &other);
	if (r == DEVWAIT_AMBIGUOUS) {
		/* several devices carry it: an image on any of them is a doubt */
		n = every_device(o->other_device, all, sizeof(all) / sizeof(all[0]));
		for (i = 0; i < n; i++)
			if (all[i] != dev || o->other_offset != o->offset)
				discard_other_one(o, all[i]);
		return;
	}
	if (r != DEVWAIT_FOUND)
		return;
	if (other == dev && o->other_offset == o->offset)
		return;
	discard_other_one(o, other);
}

/**
 * restore_run() - the whole of torpor-resume
 * Return: 0 or -errno, already reported; the boot goes on either way.
 */
int restore_run(const struct restore_opts *o)
{
	char name[64];
	struct stat st;
	dev_t dev;
	int fd, r;

	if (!o->device[0]) {
		msg_debug("no resume= given, normal boot");
		return 0;
	}
	/* --dump also reads an image file (a copy of a swap area), for inspection */
	if (o->dump && stat(o->device, &st) == 0 && S_ISREG(st.st_mode)) {
		fd = open(o->device, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		r = examine(o, fd, o->device);
		close(fd);
		return r;
	}
	r = devwait_device(o->device, 0, o->wait_seconds, &dev);
	if (o->other_device[0] && !o->dump)
		discard_other(o, r == DEVWAIT_FOUND ? dev : 0);
	if (r == DEVWAIT_MISSING) {
		msg_warn("resume device '%s' did not appear within %d s, continuing boot",
			 o->device, o->wait_seconds);
		return -ENOENT;
	}
	if (r == DEVWAIT_AMBIGUOUS) {
		msg_error("resume device '%s' is ambiguous: several devices carry it, "
			  "not restoring; any image on them is discarded", o->device);
		msg_hint("detach the copy, or name the device by its /dev/disk/by-id/ or "
			 "/dev/mapper/ name instead");
		if (!o->dump)
			discard_all(o);
		return -ENOTUNIQ;
	}
	if (r < 0) {
		msg_error("invalid resume device '%s': %s, continuing boot", o->device,
			  msg_errname(r));
		return r;
	}
	devname_name(dev, name, sizeof(name));
	fd = open_direct(dev, o->dump ? O_RDONLY : O_RDWR);
	if (fd < 0) {
		msg_error("cannot open resume device %s: %s, continuing boot", name,
			  msg_errname(fd));
		return fd;
	}
	r = examine(o, fd, name);
	close(fd);
	return r;
}
