// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscheck.c - can this boot take the image: its kernel, its memory (as much
 * present, enough free), no disk filesystem mounted, no reader of ours stuck
 *
 * Each check says why it refuses, and returns -errno then.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "devname.h"
#include "mountinfo.h"
#include "msg.h"
#include "restoreneed.h"
#include "snapinfo.h"
#include "syscheck.h"
#include "sysmem.h"
#include "util.h"

/* The image must come from this very kernel build: x86 does not check it itself. */
int syscheck_kernel(const struct loader *l, int force)
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

/* The image must come from a boot with as much memory present as this one. */
int syscheck_memory(const struct loader *l)
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

/* The pages the kernel allocates for @l's image: from the stream's header page, else its length */
static uint64_t restore_pages(struct loader *l)
{
	uint64_t pages = l->img.meta.stream_bytes / l->ps;
	uint8_t *page = malloc(l->ps);
	int r = page ? loader_read_head(l, page) : -ENOMEM;

	if (r == 0)
		r = snapinfo_restore_pages(page, l->ps, l->img.meta.stream_bytes, &pages);
	free(page);
	/* the load then says what is wrong with the block; the stream's pages are the least */
	if (r < 0)
		msg_debug("no page count from the kernel's header page (%s), counting the "
			  "stream's %llu pages", msg_errname(r), (unsigned long long)pages);
	return pages;
}

/*
 * The kernel takes a free page for every page of the image as the load begins
 * (restoreneed.h) and cannot reclaim any then: an image that needs more than
 * this boot has free fails part way with ENOMEM, or the OOM killer ends
 * torpor-resume.  Said before a page goes to the kernel; 0 or -ENOMEM.
 */
int syscheck_free_memory(struct loader *l)
{
	uint64_t pages = restore_pages(l), ram, total, free_bytes, need;
	int r;

	if (sysmem_present_pages(&ram) < 0)
		ram = l->img.meta.mem_pages;
	r = sysmem_meminfo(&total, &free_bytes);
	if (r < 0) {
		msg_debug("cannot read /proc/meminfo (%s): free memory not checked",
			  msg_errname(r));
		return 0;
	}
	need = restoreneed_bytes(pages, ram, l->ps);
	msg_debug("this boot uses %llu MiB of %llu MiB, %llu MiB free; the image's %llu pages "
		  "need %llu MiB", MIB_UP(total - (free_bytes < total ? free_bytes : total)),
		  MIB(total), MIB(free_bytes), (unsigned long long)pages, MIB_UP(need));
	if (need <= free_bytes)
		return 0;
	msg_error("the image needs %llu MiB of free memory, this boot has %llu MiB: not "
		  "restoring it", MIB_UP(need), MIB(free_bytes));
	msg_hint("an initramfs with fewer modules (MODULES=dep) leaves more free, and "
		 "'image_size = kernel' in /etc/torpor.conf makes smaller images");
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
int syscheck_nothing_mounted(void)
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
		goto out;
	}
	if (r < 0)
		msg_error("cannot parse line %u of %s: %s: cannot tell whether a disk "
			  "filesystem is mounted, not restoring", rd.lineno, MOUNTINFO_PATH,
			  msg_errname(r));
out:
	mountinfo_close(&rd);
	return r;
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
int syscheck_stuck_readers(void)
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
