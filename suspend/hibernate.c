// SPDX-License-Identifier: GPL-2.0-only
/*
 * hibernate.c - torpor-suspend's main sequence: check, allocate, lock, then
 * freeze and save (snapseq.c), and unwind
 *
 * The order follows Documentation/power/userland-swsusp.rst: resolve and
 * allocate first, mlockall() before FREEZE, act on CREATE_IMAGE's answer, and
 * on any failure free the swap pages, restore the header, UNFREEZE and close,
 * so the system always keeps running.  From before FREEZE until the commit,
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT and Esc on the terminal abort the same way
 * (interrupt.h); from the commit on the signals are ignored.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "devname.h"
#include "efiwrite.h"
#include "fitgate.h"
#include "freezecheck.h"
#include "hibernate.h"
#include "hibsay.h"
#include "imagesize.h"
#include "interrupt.h"
#include "lateguard.h"
#include "mountguard.h"
#include "msg.h"
#include "snapseq.h"
#include "splash.h"
#include "sysmem.h"
#include "target.h"
#include "testhook.h"
#include "util.h"
#include "warmback.h"
#include "writer.h"

/* plymouth's client, when its daemon runs */
static struct splash splash;

/* Once per block: did a signal or the key ask us to stop? */
static int poll_abort(uint64_t done, uint64_t total)
{
	testhook_block(done * 100 / total);
	return interrupt_check() != 0;
}

/* The point of no return: from here on the abort signals are ignored. */
static int before_root(void)
{
	testhook_before_root();
	return interrupt_commit() != 0;
}

/*
 * No resume= names the area, the next boot's torpor-resume finds it by the EFI
 * variable: what it will say, in @t.  0, or -errno (reported).
 */
static int plan_efi(const struct hib_opts *o, struct hib_target *t)
{
	char spec[80];
	int r;

	r = efiwrite_plan(t, &t->efi, spec, sizeof(spec));
	if (r == -ENOTUNIQ) {
		hibernate_say_ambiguous(spec);
		return r;
	}
	if (r < 0) {
		msg_error("the kernel command line has no resume=, and %s cannot be named in EFI "
			  "variable %s: %s", t->dev_name, EFILOC_NAME,
			  r == -ENOENT ? (t->is_file ? "its filesystem has no UUID" :
					  "its swap header has no UUID") : msg_errname(r));
		msg_hint("put resume= (and resume_offset= for a swap file) on the kernel command "
			 "line ('torpor-suspend --print-cmdline' prints it)");
		return r;
	}
	t->efi_location = 1;
	if (o->check_only)
		msg_info("no resume= on the kernel command line: the next boot finds the area by "
			 "EFI variable %s (%s, offset %llu), written when hibernating", EFILOC_NAME,
			 spec, (unsigned long long)t->efi.offset_pages);
	return 0;
}

/*
 * Before the freeze: write the EFI variable of @t, in place before the image is
 * committed and removed again on any failure; or remove one left by an earlier
 * hibernation (efiwrite_settle()).  0, or -errno (reported).
 */
static int settle_efi(const struct hib_target *t)
{
	int r = efiwrite_settle(t);

	if (r == 1)
		msg_info("removed EFI variable %s, left by an earlier hibernation whose boot did "
			 "not read it", EFILOC_NAME);
	if (r >= 0)
		return 0;
	if (t->efi_location) {
		msg_error("cannot write EFI variable %s: %s: the next boot would not find the "
			  "image", EFILOC_NAME, msg_errname(r));
	} else if (t->efi_unnamed) {
		msg_error("cannot remove EFI variable %s, left by an earlier hibernation: %s: "
			  "the next boot would read it instead of the initramfs's RESUME=",
			  EFILOC_NAME, msg_errname(r));
	} else {
		/* resume= on the command line: the next boot does not read it */
		msg_warn("cannot remove EFI variable %s, left by an earlier hibernation: %s, "
			 "ignoring", EFILOC_NAME, msg_errname(r));
		return 0;
	}
	msg_hint("put resume= (and resume_offset= for a swap file) on the kernel command "
		 "line ('torpor-suspend --print-cmdline' prints it)");
	return r;
}

/* After a failure or the resume: no variable left to name an image that is gone */
static void remove_efi(void)
{
	int r = efiloc_remove(efiwrite_dir);

	if (r < 0 && r != -ENOENT)
		msg_warn("cannot remove EFI variable %s: %s, ignoring", EFILOC_NAME,
			 msg_errname(r));
}

/**
 * hibernate_preflight() - the checks made before anything changes
 * @o: the options
 * @t: filled with the swap area to hibernate into; NULL to check only where
 *     torpor-suspend runs, when the area does not exist yet (an image file)
 *
 * Root, the host's namespaces and root (hibernate_check_namespaces()), then the
 * area (hibernate_resolve()), that the next boot's command line names it
 * (hibernate_check_next_boot()) and that the next boot's initramfs resumes it
 * (hibernate_check_initramfs()).
 * Return: 0, or -errno (reported).
 */
int hibernate_preflight(const struct hib_opts *o, struct hib_target *t)
{
	int r;

	if (geteuid() != 0) {
		msg_error("hibernating needs root");
		msg_hint("run 'sudo torpor-suspend'");
		return -EPERM;
	}
	r = hibernate_check_namespaces();
	if (r < 0 || !t)
		return r;
	memset(t, 0, sizeof(*t));
	r = hibernate_resolve(o, t);
	if (r == 0)
		r = hibernate_check_next_boot(t, o->resume);
	if (r < 0)
		return r;
	/* 1: no resume= names the area, the initramfs must know it (bootready.c) */
	t->efi_unnamed = r == 1;
	r = hibernate_check_initramfs(o, r == 1, t->dev);
	r = r == 1 ? plan_efi(o, t) : r;
	if (r == 0 && o->check_only && !t->efi_location &&
	    efiloc_read(efiwrite_dir, &(struct efiloc){ 0 }) != -ENOENT)
		msg_info("EFI variable %s is left by an earlier hibernation whose boot did not "
			 "read it: hibernating removes it", EFILOC_NAME);
	return r;
}

/* The swap area's device, large enough for its header page.  fd, or -errno (reported). */
static int open_device(const struct hib_target *t, uint32_t ps)
{
	unsigned long long size;
	int fd, r;

	if (t->offset_pages >= UINT64_MAX / ps - 1) {
		msg_error("resume_offset %llu is beyond any device",
			  (unsigned long long)t->offset_pages);
		return -ERANGE;
	}
	fd = devname_open(t->dev, O_RDWR | O_DIRECT);
	if (fd == -EINVAL)
		fd = devname_open(t->dev, O_RDWR);
	if (fd < 0) {
		msg_error("cannot open resume device %s: %s", t->dev_name, msg_errname(fd));
		return fd;
	}
	r = devname_size(fd, &size);
	if (r == 0 && size < (t->offset_pages + 1) * ps)
		r = -ENOSPC;
	if (r < 0) {
		msg_error("resume device %s is smaller than its swap header offset", t->dev_name);
		close(fd);
		return r;
	}
	return fd;
}

/* The writer's buffers, for an image of all of memory.  0, or -errno (reported). */
static int init_writer(struct writer *w, int dev_fd, const struct hib_target *t, uint32_t ps)
{
	struct sysinfo si;
	int r;

	if (sysinfo(&si) < 0)
		si.totalram = 0, si.mem_unit = 1;
	r = writer_init(w, dev_fd, t->offset_pages * ps, ps,
			(uint64_t)si.totalram * si.mem_unit + (64u << 20));
	if (r == -EFBIG)
		msg_error("this machine has more memory than torpor's image format can describe "
			  "(%llu MiB, at most 1 TiB)", MIB((uint64_t)si.totalram * si.mem_unit));
	else if (r < 0)
		msg_error("cannot allocate buffers: %s", msg_errname(r));
	return r;
}

/* Compression and its threads: --threads=N, else one per online CPU; 1 = no worker. */
static int setup_pack(const struct hib_opts *o, struct writer *w)
{
	struct pack_setting set = o->pack;
	unsigned n = o->threads ? o->threads : pack_default_threads();
	char name[32];
	int r;

	if (set.kind == PACK_LZ4 && set.level < 1)
		set.level = 1;
	r = writer_setup_pack(w, &set, n > 1 ? n : 0);
	pack_setting_name(&w->pack, name, sizeof(name));
	if (r < 0) {
		msg_error("cannot allocate buffers for %u compression threads: %s", n,
			  msg_errname(r));
		msg_hint("give fewer with --threads=N (or threads = N in torpor.conf)");
		return r;
	}
	msg_debug("compression %s on %u thread%s", name, n > 1 ? n : 1, n > 1 ? "s" : "");
	return 0;
}

/*
 * The swap header of @t: a swap area's, its signature kept in @orig_sig (an
 * old image of ours there invalidated, but for --check).  0, or -errno (reported).
 */
static int check_header(const struct hib_opts *o, struct writer *w, const struct hib_target *t,
			char orig_sig[10])
{
	int r;

	r = writer_check_header(w, orig_sig, !o->check_only);
	if (r == WRITER_HEADER_BAD_PAGES) {
		msg_error("the swap header of %s lists more than 128 bad pages: torpor's "
			  "record would overwrite the list", t->dev_name);
		msg_hint("use another swap area, or mkswap this one without -c");
		return -E2BIG;
	}
	if (r == WRITER_HEADER_NOT_SWAP) {
		msg_error("no swap signature at page %llu of %s: not a swap area",
			  (unsigned long long)t->offset_pages, t->dev_name);
		return -EMEDIUMTYPE;
	}
	if (r < 0)
		msg_error("cannot read or write the swap header at page %llu of %s: %s",
			  (unsigned long long)t->offset_pages, t->dev_name, msg_errname(r));
	return r;
}

/* What the image says of the system it was made on, and its filesystems' stamps */
static int fill_identity(struct torpor_image *img)
{
	struct torpor_meta *m = &img->meta;
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(m->release, sizeof(m->release), "%s", u.release);
		snprintf(m->kversion, sizeof(m->kversion), "%s", u.version);
		snprintf(m->machine, sizeof(m->machine), "%s", u.machine);
	}
	if (sysmem_present_pages(&m->mem_pages) < 0)
		m->mem_pages = 0;
	m->created = (uint64_t)time(NULL);
	return mountguard_record(img);
}

/*
 * image_size @bytes (fitgate_check(); UINT64_MAX: left as it is): a
 * preference, so a failure only warns.  The old value in @ret_old, to put back.
 */
static void set_image_size(uint64_t bytes, uint64_t *ret_old)
{
	int r;

	if (bytes == UINT64_MAX)
		return;
	r = imagesize_swap(IMAGESIZE_PATH, bytes, ret_old);
	if (r < 0)
		msg_warn("cannot set %s: %s, ignoring", IMAGESIZE_PATH, msg_errname(r));
	else
		msg_debug("%s: %llu, was %llu", IMAGESIZE_PATH,
			  (unsigned long long)bytes, (unsigned long long)*ret_old);
}

/*
 * pthread_create() takes a few hundred bytes of heap for each thread (its TLS
 * table) even with our own stack, after the snapshot: keep a locked, untrimmed
 * slack at the top of the heap so that comes from memory already held.
 */
static void keep_heap_slack(void)
{
	void *p;

	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 1 << 20);
	p = malloc(64 << 10);	/* under the mmap threshold: from the heap itself */
	if (p)
		memset(p, 0, 64 << 10);
	free(p);
}

/*
 * Steps 2-4, locked in memory, quiet when stderr is a file, under plymouth's
 * message.  snapseq_run()'s result, or -errno (reported).
 */
static int lock_and_snapshot(const struct hib_opts *o, struct writer *w,
			     const struct hib_target *t, const char *orig_sig)
{
	struct stat st;
	int r;

	/* after the snapshot no mounted filesystem may be written, not even a log file */
	if (fstat(2, &st) == 0 && S_ISREG(st.st_mode))
		msg_set_quiet(1);
	/*
	 * plymouth, when it runs, is frozen with the rest: it says this until the
	 * thaw.  Before mlockall(): nothing is forked from a locked torpor-suspend
	 */
	if (splash_open(&splash, NULL, 500) > 0) {
		(void)splash_message(&splash, "Hibernating: saving memory to disk");
		splash_wait(&splash, 500);
	}
	keep_heap_slack();
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
		r = -errno;
		msg_set_quiet(0);
		msg_error("cannot lock torpor-suspend in memory: %s", msg_errname(r));
	} else {
		r = snapseq_run(o, w, t, orig_sig);
		msg_set_quiet(0);
		munlockall();
	}
	splash_close(&splash, 500);
	return r;
}

/**
 * hibernate_run() - the whole of torpor-suspend
 * Return: 0 when the machine hibernated and has now resumed, -errno after a
 * failure (already reported; the system is running and thawed).
 */
int hibernate_run(const struct hib_opts *o)
{
	struct wb_notes notes = { .fd = -1 };
	struct hib_target t;
	struct writer w;
	char orig_sig[10];
	uint64_t old_size = UINT64_MAX, image_size;
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	int dev_fd, r;

	r = hibernate_preflight(o, &t);
	if (r < 0)
		return r;
	dev_fd = open_device(&t, ps);
	if (dev_fd < 0)
		return dev_fd;
	r = init_writer(&w, dev_fd, &t, ps);
	if (r < 0)
		goto out_close;
	r = setup_pack(o, &w);
	if (r < 0)
		goto out_release;
	msg_debug("blocks of %u pages, %llu KiB of buffers and tables", w.block_pages,
		  (unsigned long long)(writer_buffer_bytes(&w) >> 10));
	r = check_header(o, &w, &t, orig_sig);
	if (r < 0)
		goto out_release;
	r = fitgate_check(o, &w, &t, &image_size);
	if (r < 0)
		goto out_release;
	if (o->check_only) {
		r = freezecheck_ready(o, &t);
		goto out_release;
	}
	freezecheck_poweroff_mode(o);
	w.progress = o->no_progress ? NULL : hibsay_progress;
	w.poll = poll_abort;
	w.before_root = before_root;
	testhook_init();
	r = fill_identity(&w.img);
	if (r < 0)
		goto out_release;
	r = lateguard_open(&w.img, dev_fd, t.offset_pages * ps, ps);
	if (r < 0)
		goto out_release;
	/* the last lookup is behind: no reader starts after this */
	r = freezecheck_stuck_readers();
	if (r < 0)
		goto out_release;
	lateguard_arm();
	r = interrupt_install();
	if (r < 0) {
		msg_error("cannot set up the abort signals: %s", msg_errname(r));
		goto out_release;
	}
	r = settle_efi(&t);
	if (r < 0)
		goto out_signals;
	set_image_size(image_size, &old_size);
	/* last before the freeze: the working set as the image will find it */
	if (o->warm_back)
		(void)warmback_take(&notes);
	else
		msg_debug("warm-back off (warm_back = no)");
	r = lock_and_snapshot(o, &w, &t, orig_sig);
	/* resumed, or failed and thawed: the variable names no image now */
	if (t.efi_location)
		remove_efi();
	/* put back on every path: resumed, failed, aborted by a signal */
	if (old_size != UINT64_MAX)
		(void)imagesize_swap(IMAGESIZE_PATH, old_size, &old_size);
out_signals:
	interrupt_restore();
out_release:
	lateguard_release();
	mountguard_release();
	writer_release(&w);
out_close:
	close(dev_fd);
	/* /dev/snapshot and the device closed, thawed: evicted pages come back behind us */
	warmback_start(&notes);
	return r;
}
