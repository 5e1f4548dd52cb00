// SPDX-License-Identifier: GPL-2.0-only
/*
 * restore.c - torpor-resume's main sequence and everything it tells the user
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
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "blkio.h"
#include "devname.h"
#include "fsstamp.h"
#include "loader.h"
#include "mountinfo.h"
#include "msg.h"
#include "progress.h"
#include "restore.h"
#include "skipsay.h"
#include "snapshot.h"
#include "splash.h"
#include "sysmem.h"
#include "usage.h"
#include "util.h"
#include "wallclock.h"

/* the progress line: rewritten in place on a terminal, a line each 10% elsewhere */
static struct progress prog;
/* plymouth's client, when its daemon runs in the initramfs: told each 10% */
static struct splash splash;
static int splash_pct = -100;	/* no message yet: the first call sends one */

static void show_progress(uint64_t done, uint64_t total)
{
	char line[160];
	int pct = progress_pct(done, total);

	if (progress_line(&prog, done, total, wallclock_ms(), line, sizeof(line))) {
		if (prog.live)
			msg_live("%s", line);
		else
			msg_progress("%s", line);
	}
	if (splash.bin && pct / 10 != splash_pct / 10) {
		char text[64];

		snprintf(text, sizeof(text), "Resuming from hibernation: %d%%", pct);
		if (splash_message(&splash, text) == 0)
			splash_pct = pct;
	}
}

/*
 * One deadline for every device torpor-resume waits for: the resume device and
 * then each filesystem the image recorded share the @seconds given to the first
 * wait (torpor.wait=), so that missing disks cost the boot that much at most.
 */
static long long wait_deadline;

/*
 * Wait for the device named @spec to appear, until the shared deadline; with
 * @by_content, @spec is a bare filesystem UUID looked up by content alone.
 */
static int wait_device(const char *spec, int by_content, int seconds, dev_t *ret_dev)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	char what[300];
	int r;

	if (!wait_deadline)
		wait_deadline = wallclock_ms() + (long long)seconds * 1000;
	for (;;) {
		r = by_content ? devname_resolve_uuid(spec, ret_dev) :
				 devname_resolve(spec, ret_dev);
		if (r != -ENOENT || wallclock_ms() >= wait_deadline)
			break;
		nanosleep(&ts, NULL);
	}
	snprintf(what, sizeof(what), by_content ? "filesystem %s" : "resume device '%s'", spec);
	skipsay(what);
	return r;
}

/* The image must come from this very kernel build: x86 does not check it itself. */
static int check_kernel(const struct loader *l, int force)
{
	const struct torpor_meta *m = &l->img.meta;
	struct utsname u;

	if (uname(&u) < 0)
		return -errno;
	if (!strcmp(u.release, m->release) && !strcmp(u.version, m->kversion) &&
	    !strcmp(u.machine, m->machine))
		return 0;
	if (force) {
		msg_warn("image written by kernel %s, running %s: restoring anyway (torpor.force)",
			 m->release, u.release);
		return 0;
	}
	msg_error("image was written by kernel %s (%s), this is kernel %s (%s): not restoring it",
		  m->release, m->kversion, u.release, u.version);
	msg_hint("boot kernel %s to resume, or add torpor.force to restore across kernels "
		 "at your own risk", m->release);
	return -EXDEV;
}

static int check_memory(const struct loader *l)
{
	uint64_t pages;

	if (!l->img.meta.mem_pages || sysmem_present_pages(&pages) < 0)
		return 0;
	if (pages == l->img.meta.mem_pages)
		return 0;
	if (MIB(l->img.meta.mem_pages * l->ps) != MIB(pages * l->ps))
		msg_error("image was written with %llu MiB of memory present, this boot has "
			  "%llu MiB: not restoring it", MIB(l->img.meta.mem_pages * l->ps),
			  MIB(pages * l->ps));
	else
		msg_error("image was written with %llu pages of memory present, this boot has "
			  "%llu: not restoring it", (unsigned long long)l->img.meta.mem_pages,
			  (unsigned long long)pages);
	msg_hint("boot with the same amount of memory to resume");
	return -ENOMEM;
}

/* Is the filesystem of @e on a disk?  Its source is a block device, or it is a real device
 * number (the kernel's /dev/root), or it is a disk filesystem without one (zfs). */
static int on_disk(const struct mountinfo_entry *e)
{
	struct stat st;

	if (e->source[0] == '/' && stat(e->source, &st) == 0 && S_ISBLK(st.st_mode))
		return 1;	/* whatever its st_dev: btrfs shows an anonymous 0:N */
	return e->major != 0 || !strcmp(e->fstype, "zfs");
}

/*
 * Restoring is only safe before any disk filesystem is mounted read-write: the
 * hibernated kernel still believes it owns them.  From an initramfs nothing is;
 * run by hand on a live system, plenty is.  What cannot be read or parsed here
 * cannot be proven safe either.
 */
static int check_nothing_mounted(void)
{
	struct mountinfo_reader rd;
	struct mountinfo_entry e;
	int r;

	r = mountinfo_open(&rd, MOUNTINFO_PATH);
	if (r < 0) {
		msg_error("cannot read %s: %s: cannot tell whether a disk filesystem is "
			  "mounted, not restoring", MOUNTINFO_PATH, msg_errname(r));
		msg_hint("mount /proc before running torpor-resume");
		return r;
	}
	while ((r = mountinfo_next(&rd, &e)) > 0) {
		if (!(mountinfo_has_option(e.mount_opts, "rw") ||
		      mountinfo_has_option(e.super_opts, "rw")) || !on_disk(&e))
			continue;
		msg_error("a disk filesystem (%s on %s) is mounted read-write at '%s': restoring "
			  "now would corrupt it", e.fstype, e.source, e.mount_point);
		msg_hint("torpor-resume belongs in the initramfs, before the root filesystem "
			 "is mounted");
		r = -EBUSY;
		break;
	}
	if (r < 0 && r != -EBUSY)
		msg_error("cannot parse line %u of %s: %s: cannot tell whether a disk "
			  "filesystem is mounted, not restoring", rd.lineno, MOUNTINFO_PATH,
			  msg_errname(r));
	mountinfo_close(&rd);
	return r;
}

#define BTRFS_DEVS_MAX 64

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
 * deadline for them all.  Return: 0; 1 when none of its devices appeared (left
 * to the late check, see check_filesystems()); -errno, said, when some did but
 * not all, or one cannot be checked.
 */
static int check_btrfs(const struct torpor_fsrec *f, const char *uuid, int wait_seconds)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	struct devname_skip k[SKIPSAY_MAX];
	dev_t devs[BTRFS_DEVS_MAX];
	uint64_t num = 0;
	char spec[48], what[64];
	size_t n = 0, nk;
	int r;

	snprintf(spec, sizeof(spec), "UUID=%s", uuid);
	snprintf(what, sizeof(what), "filesystem %s", uuid);
	if (!wait_deadline)
		wait_deadline = wallclock_ms() + (long long)wait_seconds * 1000;
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
			return 0;
		}
		if (wallclock_ms() >= wait_deadline)
			break;
		nanosleep(&ts, NULL);
	}
	skipsay_list(what, k, nk);
	if (r == -ENOENT)
		return 1;
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
static int check_filesystems(const struct loader *l, int wait_seconds,
			     struct image_late *late)
{
	const struct torpor_fsrec *f;
	struct devname_stamp now;
	char uuid[37], name[64], what[96];
	dev_t dev;
	uint32_t i;
	int r;

	memset(late, 0, sizeof(*late));
	for (i = 0; i < l->img.meta.nr_fs; i++) {
		f = &l->img.fs[i];
		fsstamp_uuid_str(f->uuid, uuid);
		if (f->kind == TORPOR_FS_BTRFS) {
			r = check_btrfs(f, uuid, wait_seconds);
			if (r == 1)
				r = leave_late(late, l, i, uuid, wait_seconds);
			if (r < 0)
				return r;
			continue;
		}
		r = wait_device(uuid, 1, wait_seconds, &dev);
		if (r == -ENOENT) {
			r = leave_late(late, l, i, uuid, wait_seconds);
			if (r < 0)
				return r;
			continue;
		}
		if (r < 0) {
			msg_error("cannot check filesystem %s (mounted when hibernating): %s: not "
				  "restoring the image", uuid, r == -ENOTUNIQ ?
				  "several devices carry its UUID" : msg_errname(r));
			msg_hint("restoring over a filesystem that may have been mounted since "
				 "would corrupt it; the image is discarded");
			return r;
		}
		/* the reader reads it: the lookup's probe did not read an xfs log sector */
		r = read_stamp(f, uuid, dev, &now);
		if (r < 0)
			return r;
		if (fsstamp_same(f, &now.rec))
			continue;
		devname_name(dev, name, sizeof(name));
		fsstamp_describe(f, &now.rec, what, sizeof(what));
		msg_error("filesystem %s on %s was mounted since hibernation (%s): not restoring "
			  "the image", uuid, name, what);
		msg_hint("restoring it would corrupt that filesystem; the image is discarded");
		return -ESTALE;
	}
	late_fill(late, l);
	return 0;
}

/* How long the readers killed at a deadline have to end before the image is loaded. */
#define STUCK_WAIT_MS	1000

/*
 * A reader the lookups killed at its deadline (a device that does not answer)
 * and that lives on, asleep in the kernel until that device answers
 * (devname_stuck()): the sync in the freeze before ATOMIC_RESTORE would wait
 * for it, for ever if the device never answers, and nothing at boot may; the
 * freezer could not freeze it either.  Said now, before the load: 0 or -EBUSY.
 */
static int check_stuck_readers(void)
{
	char name[64];
	dev_t dev = 0;
	pid_t pid = 0;

	if (devname_stuck(STUCK_WAIT_MS, &dev, &pid) == 0)
		return 0;
	devname_name(dev, name, sizeof(name));
	msg_error("cannot restore: process %d, which torpor-resume started to read %s, is "
		  "stuck waiting for it (%s did not answer), and the kernel cannot freeze a "
		  "process in that state: not restoring the image", (int)pid, name, name);
	msg_hint("remove %s or make it answer before the next resume", name);
	return -EBUSY;
}

static void dump(const struct loader *l, const char *name)
{
	const struct torpor_root *r = &l->img.root;
	const struct torpor_meta *m = &l->img.meta;
	uint32_t i;

	printf("device=%s\nheader_offset=%llu\nroot_offset=%llu\n", name,
	       (unsigned long long)l->header_offset,
	       (unsigned long long)(l->header_offset + TORPOR_ROOT_OFFSET));
	printf("version=%u\npage_size=%u\nmeta_bytes=%llu\nmeta_hash=0x%016llx\n", r->version,
	       r->page_size, (unsigned long long)r->meta_bytes, (unsigned long long)r->meta_hash);
	for (i = 0; i < r->nr_meta_extents; i++)
		printf("meta_extent=%llu %u\n", (unsigned long long)r->meta_extents[i].offset,
		       r->meta_extents[i].pages);
	if (!l->have_meta)
		return;
	printf("release=%s\nkversion=%s\nmachine=%s\n", m->release, m->kversion, m->machine);
	printf("algorithm=%s\nblock_pages=%u\nstream_bytes=%llu\nstored_bytes=%llu\n"
	       "data_pages=%llu\nnr_blocks=%u\nnr_extents=%u\nnr_fs=%u\nmem_pages=%llu\n"
	       "created=%llu\n", m->algorithm == TORPOR_ALG_LZ4 ? "lz4" : "none",
	       m->block_pages, (unsigned long long)m->stream_bytes,
	       (unsigned long long)m->stored_bytes, (unsigned long long)m->data_pages,
	       m->nr_blocks, m->nr_extents, m->nr_fs, (unsigned long long)m->mem_pages,
	       (unsigned long long)m->created);
	printf("features=0x%02x%s\n", m->features,
	       m->features & TORPOR_META_LATE_CHECK ? " late-check" : "");
	for (i = 0; i < m->nr_fs; i++) {
		char uuid[37];

		fsstamp_uuid_str(l->img.fs[i].uuid, uuid);
		printf("fs=%s %llu %llu\n", uuid, (unsigned long long)l->img.fs[i].mount_count,
		       (unsigned long long)l->img.fs[i].mount_time);
	}
	for (i = 0; i < m->nr_extents; i++)
		printf("extent=%llu %u\n", (unsigned long long)l->img.extents[i].offset,
		       l->img.extents[i].pages);
	for (i = 0; i < m->nr_blocks; i++)
		printf("block=%u %llu %u %s 0x%016llx\n", i,
		       (unsigned long long)loader_block_offset(l, i), l->img.blocks[i].stored_len,
		       l->img.blocks[i].flags & TORPOR_BLOCK_RAW ? "raw" : "lz4",
		       (unsigned long long)l->img.blocks[i].hash);
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
	if (splash_open(&splash, NULL, 300) > 0)
		(void)splash_message(&splash, "Resuming from hibernation");
	progress_start(&prog, "loading image", isatty(2), wallclock_ms());
	l->progress = show_progress;
	l->profile = msg_debug_enabled();
	cpu_self = usage_cpu_ms(RUSAGE_SELF);
	cpu_workers = usage_cpu_ms(RUSAGE_CHILDREN);
	r = loader_feed(l, snap_fd);
	/* the workers are reaped by now: their time is in RUSAGE_CHILDREN */
	cpu_self = usage_cpu_ms(RUSAGE_SELF) - cpu_self;
	cpu_workers = usage_cpu_ms(RUSAGE_CHILDREN) - cpu_workers;
	/* its client is not left to be frozen, and on a failure the boot goes on */
	splash_close(&splash, 300);
	if (r < 0) {
		if (l->failed_block || !strncmp(l->failed, "data", 4))
			msg_error("bad hibernation image on %s: %s (block %u): %s, continuing boot",
				  name, l->failed, l->failed_block, msg_errname(r));
		else
			msg_error("restoring the image from %s failed: %s: %s, continuing boot",
				  name, l->failed, msg_errname(r));
		goto out;
	}
	if (l->workers)
		msg_debug("read, checked and decoded by %u worker process%s, %u slots", l->workers,
			  l->workers > 1 ? "es" : "", l->readahead_slots);
	else
		msg_debug("read, checked and decoded synchronously (no worker process)");
	msg_debug("load phase: waiting for the workers %llu ms, feeding the kernel %llu ms; "
		  "reading %llu ms, checking hashes %llu ms, decoding %llu ms (summed over %u "
		  "workers)", (unsigned long long)(l->t_wait_ns / 1000000),
		  (unsigned long long)(l->t_feed_ns / 1000000),
		  (unsigned long long)(l->t_read_ns / 1000000),
		  (unsigned long long)(l->t_hash_ns / 1000000),
		  (unsigned long long)(l->t_decode_ns / 1000000), l->workers);
	msg_debug("load phase CPU time: %llu ms in this process (feeding the kernel included), "
		  "%llu ms in the workers", cpu_self, cpu_workers);
	/*
	 * A worker's own memory is its read buffer and a few pages of stack: the
	 * ring and the tables are ours, shared (its ru_maxrss would count them again)
	 */
	if (l->workers)
		msg_info("image loaded in %lld ms, peak memory %llu KiB and a %llu KiB buffer in "
			 "each of %u worker process%s, restoring", wallclock_ms() - t0,
			 usage_peak_rss_kib(), (unsigned long long)(l->worker_buffer >> 10), l->workers,
			 l->workers == 1 ? "" : "es");
	else
		msg_info("image loaded in %lld ms, peak memory %llu KiB, restoring", wallclock_ms() - t0,
			 usage_peak_rss_kib());
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

/* Steps 2-3 on an open device. */
static int examine(const struct restore_opts *o, int fd, const char *name)
{
	static struct image_late late;
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
			dump(&l, name);
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
	r = check_kernel(&l, o->force);
	if (r == 0)
		r = check_memory(&l);
	if (r == 0)
		r = check_filesystems(&l, o->wait_seconds, &late);
	if (r == 0)
		r = check_nothing_mounted();
	if (r == 0)
		r = check_stuck_readers();
	if (r < 0) {
		reject(&l, name);
		goto out;
	}
	l.late = &late;
	r = loader_invalidate(&l);
	if (r < 0) {
		msg_error("not restoring: %s on %s failed: %s", l.failed, name, msg_errname(r));
		goto out;
	}
	r = load_and_restore(&l, name);
out:
	loader_release(&l);
	return r;
}

/* Open @dev and examine it as @o says (the caller set a discard reason). */
static int examine_dev(const struct restore_opts *o, dev_t dev)
{
	char name[64];
	int fd, r;

	devname_name(dev, name, sizeof(name));
	fd = devname_open(dev, O_RDWR | O_DIRECT);
	if (fd == -EINVAL)
		fd = devname_open(dev, O_RDWR);
	if (fd < 0) {
		msg_error("cannot open resume device %s: %s", name, msg_errname(fd));
		return fd;
	}
	r = examine(o, fd, name);
	close(fd);
	return r;
}

/*
 * A resume= that names several devices (a copy of the swap disk, two areas with
 * one label): which image is the real one cannot be told, so none is restored,
 * and every one is discarded, or a later boot that sees one copy only would
 * restore a stale image.
 */
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

	r = wait_device(o->other_device, 0, 0, &other);
	if (r == -ENOTUNIQ) {
		/* several devices carry it: an image on any of them is a doubt */
		n = every_device(o->other_device, all, sizeof(all) / sizeof(all[0]));
		for (i = 0; i < n; i++)
			if (all[i] != dev || o->other_offset != o->offset)
				discard_other_one(o, all[i]);
		return;
	}
	if (r < 0)
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
	r = wait_device(o->device, 0, o->wait_seconds, &dev);
	if (o->other_device[0] && !o->dump)
		discard_other(o, r == 0 ? dev : 0);
	if (r == -ENOENT) {
		msg_warn("resume device '%s' did not appear within %d s, continuing boot",
			 o->device, o->wait_seconds);
		return r;
	}
	if (r == -ENOTUNIQ) {
		msg_error("resume device '%s' is ambiguous: several devices carry it, "
			  "not restoring; any image on them is discarded", o->device);
		msg_hint("detach the copy, or name the device by its /dev/disk/by-id/ or "
			 "/dev/mapper/ name instead");
		if (!o->dump)
			discard_all(o);
		return r;
	}
	if (r < 0) {
		msg_error("invalid resume device '%s': %s, continuing boot", o->device,
			  msg_errname(r));
		return r;
	}
	devname_name(dev, name, sizeof(name));
	/* direct I/O: the image passes through no page cache the kernel needs for it */
	fd = devname_open(dev, (o->dump ? O_RDONLY : O_RDWR) | O_DIRECT);
	if (fd == -EINVAL)
		fd = devname_open(dev, o->dump ? O_RDONLY : O_RDWR);
	if (fd < 0) {
		msg_error("cannot open resume device %s: %s, continuing boot", name,
			  msg_errname(fd));
		return fd;
	}
	r = examine(o, fd, name);
	close(fd);
	return r;
}
