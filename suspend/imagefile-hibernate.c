// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-hibernate.c - hibernating into the image file: the checks before
 * anything is activated, swapon just for the write, swapoff and the discard after
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hibernate.h"
#include "imagefile.h"
#include "interrupt.h"
#include "msg.h"
#include "util.h"

/* imagefile_hibernate_run() under the abort signals' flag, after every check */
static int image_file_run(struct hib_opts *o, const char *path, int fd,
			  const struct imagefile_loc *loc, int active, int discard)
{
	char kpath[64];
	int r;

	/* the kernel opens the very file checked: no path to swap in between */
	snprintf(kpath, sizeof(kpath), "/proc/self/fd/%d", fd);
	if (!active) {
		r = imagefile_activate(kpath, path, fd);
		if (r < 0)
			return r;
	}
	snprintf(o->resume, sizeof(o->resume), "%u:%u", major(loc->dev), minor(loc->dev));
	o->offset = loc->offset_pages;
	o->has_offset = 1;
	r = hibernate_run(o);
	if (r == -ENOSPC)
		msg_hint("image file '%s' is %llu MiB: make it larger with "
			 "'torpor-suspend --setup-image-file=SIZE'", path, MIB(loc->bytes));
	if (active) {
		msg_debug("image file '%s' was active before: left active", path);
		if (discard)
			msg_warn("image file '%s' was an active swap area before: its pages "
				 "are not discarded", path);
		return r;
	}
	if (imagefile_deactivate(kpath, path) < 0) {
		if (discard)
			msg_warn("image file '%s' is still active: its pages are not discarded",
				 path);
		return r;
	}
	if (discard)
		(void)imagefile_forget_pages(path, kpath, fd, loc);
	return r;
}

/* The image file's checks before anything is activated; 0 or -errno (reported) */
static int prepare(struct hib_opts *o, const char *path, int fd,
		   const struct imagefile_loc *loc, int *ret_active)
{
	int r;

	r = imagefile_check_resume(o, path, loc);
	r = r < 0 ? r : imagefile_cmdline_check("/proc/cmdline", path, loc);
	/* before the file is activated; hibernate_run() does not read it again */
	r = r < 0 ? r : hibernate_check_initramfs(o, 0, 0);
	if (r < 0)
		return r;
	o->initramfs_checked = 1;
	*ret_active = imagefile_fd_is_active(fd);
	if (*ret_active < 0) {
		msg_error("cannot read /proc/swaps: %s", msg_errname(*ret_active));
		return *ret_active;
	}
	if (*ret_active)
		return 0;
	return imagefile_header_and_warn(fd, loc, path, 1);
}

int imagefile_hibernate_run(const struct hib_opts *opts, const char *path, int discard)
{
	struct hib_opts o = *opts;
	struct imagefile_loc loc;
	int r, fd, active = 0, sig;

	/* refused where hibernate_run() would refuse, before the file is activated */
	r = hibernate_preflight(&o, NULL);
	if (r < 0)
		return r;
	fd = imagefile_open_located(path, O_RDWR, &loc);
	if (fd < 0)
		return fd;
	r = prepare(&o, path, fd, &loc, &active);
	if (r < 0)
		goto out;
	/*
	 * From before the swapon to after the swapoff the abort signals only set a
	 * flag (hibernate_run() nests its own install in this one) and the others
	 * wait: no SIGTERM, SIGALRM or SIGUSR1 may end torpor-suspend with the file
	 * an active swap area.  Those held are delivered after the swapoff.
	 */
	r = interrupt_install_hold();
	if (r < 0) {
		msg_error("cannot set up the abort signals: %s", msg_errname(r));
		goto out;
	}
	r = image_file_run(&o, path, fd, &loc, active, discard);
	sig = interrupt_pending();
	interrupt_restore();
	/* one that came after the resume, while the file was put away: it is due now */
	if (r == 0 && sig > 0)
		(void)raise(sig);
out:
	close(fd);
	return r;
}
