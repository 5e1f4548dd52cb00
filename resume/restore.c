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

#include "devname.h"
#include "fsstamp.h"
#include "loader.h"
#include "mountinfo.h"
#include "msg.h"
#include "restore.h"
#include "snapshot.h"
#include "sysmem.h"

#define MIB(x) ((unsigned long long)((x) >> 20))

static long long now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/* The most memory this process has held (KiB, getrusage). */
static unsigned long long peak_rss_kib(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? (unsigned long long)ru.ru_maxrss : 0;
}

static void show_progress(uint64_t done, uint64_t total)
{
	msg_progress("loading image: %llu%%", (unsigned long long)(done * 100 / total));
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
	int r;

	if (!wait_deadline)
		wait_deadline = now_ms() + (long long)seconds * 1000;
	for (;;) {
		r = by_content ? devname_resolve_uuid(spec, ret_dev) :
				 devname_resolve(spec, ret_dev);
		if (r != -ENOENT || now_ms() >= wait_deadline)
			return r;
		nanosleep(&ts, NULL);
	}
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

/*
 * Was any filesystem that was mounted at hibernation time mounted again since?
 * Each is looked up by UUID (device numbers may change between boots) and
 * waited for until the deadline the resume device's wait started.  One that has
 * not appeared by then cannot be checked, and that is a doubt like the others:
 * a separate /home the initramfs does not unlock may well have been mounted by
 * another system since, so the image is discarded (the hint says how to make
 * the initramfs see it).  So is one that is there but cannot be checked: two
 * devices with its UUID (a copy of the disk: which one was mounted since?), an
 * unreadable device, or no such filesystem on it.  An ext or xfs
 * UUID is looked up by content, never through udev's link alone, which names
 * one of two copies; a btrfs one may be on several devices of one filesystem.
 */
static int check_filesystems(const struct loader *l, int wait_seconds)
{
	const struct torpor_fsrec *f;
	struct torpor_fsrec now;
	char spec[48], uuid[37], name[64], what[96];
	dev_t dev;
	uint32_t i;
	int fd, r;

	for (i = 0; i < l->img.meta.nr_fs; i++) {
		f = &l->img.fs[i];
		fsstamp_uuid_str(f->uuid, uuid);
		snprintf(spec, sizeof(spec), "UUID=%s", uuid);
		if (f->kind == TORPOR_FS_BTRFS)
			r = wait_device(spec, 0, wait_seconds, &dev);
		else
			r = wait_device(uuid, 1, wait_seconds, &dev);
		fd = r == 0 ? devname_open(dev, O_RDONLY) : r;
		r = fd < 0 ? fd : fsstamp_read(fd, fsstamp_log_head(f), &now);
		if (fd >= 0)
			close(fd);
		if (r == -ENOTUNIQ && f->kind == TORPOR_FS_BTRFS) {
			/* the devices of one multi-device btrfs share its UUID */
			msg_warn("cannot check filesystem %s (mounted when hibernating): it is "
				 "on several devices", uuid);
			continue;
		}
		if (r == -ENOENT) {
			msg_error("filesystem %s (mounted when hibernating) did not appear within "
				  "%d s: it cannot be checked, not restoring the image", uuid,
				  wait_seconds);
			msg_hint("if only the booted system opens it (a separate encrypted or LVM "
				 "volume), let the initramfs open it too, or unmount it before "
				 "hibernating; torpor.wait=N waits longer");
			return r;
		}
		if (r < 0) {
			msg_error("cannot check filesystem %s (mounted when hibernating): %s: not "
				  "restoring the image", uuid, r == -ENOTUNIQ ?
				  "several devices carry its UUID" : msg_errname(r));
			msg_hint("restoring over a filesystem that may have been mounted since "
				 "would corrupt it; the image is discarded");
			return r;
		}
		if (fsstamp_same(f, &now))
			continue;
		devname_name(dev, name, sizeof(name));
		fsstamp_describe(f, &now, what, sizeof(what));
		msg_error("filesystem %s on %s was mounted since hibernation (%s): not restoring "
			  "the image", uuid, name, what);
		msg_hint("restoring it would corrupt that filesystem; the image is discarded");
		return -ESTALE;
	}
	return 0;
}

static void dump(const struct loader *l, const char *name)
{
	const struct torpor_root *r = &l->img.root;
	const struct torpor_meta *m = &l->img.meta;
	uint32_t i;

	printf("device=%s\nheader_offset=%llu\nroot_offset=%llu\n", name,
	       (unsigned long long)l->header_offset,
	       (unsigned long long)(l->header_offset + TORPOR_ROOT_OFFSET));
	printf("version=%u\npage_size=%u\nmeta_bytes=%llu\nmeta_crc=0x%08x\n", r->version,
	       r->page_size, (unsigned long long)r->meta_bytes, r->meta_crc);
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
		printf("block=%u %llu %u %s 0x%08x\n", i,
		       (unsigned long long)loader_block_offset(l, i), l->img.blocks[i].stored_len,
		       l->img.blocks[i].flags & TORPOR_BLOCK_RAW ? "raw" : "lz4",
		       l->img.blocks[i].crc);
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
	long long t0 = now_ms();
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
	l->progress = show_progress;
	r = loader_feed(l, snap_fd);
	if (r < 0) {
		if (l->failed_block || !strncmp(l->failed, "data", 4))
			msg_error("bad hibernation image on %s: %s (block %u): %s, continuing boot",
				  name, l->failed, l->failed_block, msg_errname(r));
		else
			msg_error("restoring the image from %s failed: %s: %s, continuing boot",
				  name, l->failed, msg_errname(r));
		goto out;
	}
	msg_info("image loaded in %lld ms, peak memory %llu KiB, restoring", now_ms() - t0,
		 peak_rss_kib());
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
	struct loader l;
	unsigned long long size = 0;
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	int r;

	r = devname_size(fd, &size);
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
		r = check_filesystems(&l, o->wait_seconds);
	if (r == 0)
		r = check_nothing_mounted();
	if (r < 0) {
		reject(&l, name);
		goto out;
	}
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
	if (r == -ENOENT) {
		msg_warn("resume device '%s' did not appear within %d s, continuing boot",
			 o->device, o->wait_seconds);
		return r;
	}
	if (r == -ENOTUNIQ) {
		msg_error("resume device '%s' is ambiguous: several devices carry it, "
			  "continuing boot", o->device);
		msg_hint("name the device by PARTUUID= or /dev/disk/by-id/ instead");
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
