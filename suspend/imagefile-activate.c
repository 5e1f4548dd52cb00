// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-activate.c - the image file as a swap area: whether it is active,
 * the swapon just for the hibernation and the swapoff after it
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/swap.h>

#include "imagefile-activate.h"
#include "monoclock.h"
#include "msg.h"
#include "swaps.h"

/* Is the file of @f among the active swap areas?  1, 0, or -errno. */
static int stat_is_active(const struct stat *f)
{
	struct swap_entry *sw = NULL;
	struct stat s;
	size_t n = 0, i;
	int r, found = 0;

	r = swaps_read("/proc/swaps", &sw, &n);
	if (r < 0)
		return r;
	for (i = 0; i < n; i++)
		if (sw[i].is_file && stat(sw[i].path, &s) == 0 && s.st_dev == f->st_dev &&
		    s.st_ino == f->st_ino)
			found = 1;
	free(sw);
	return found;
}

int imagefile_is_active(const char *path)
{
	struct stat f;

	if (stat(path, &f) < 0)
		return -errno;
	return stat_is_active(&f);
}

int imagefile_fd_is_active(int fd)
{
	struct stat f;

	if (fstat(fd, &f) < 0)
		return -errno;
	return stat_is_active(&f);
}

int imagefile_activate(const char *kpath, const char *path, int fd)
{
	double t0 = mono_s();
	int r;

	/* no SWAP_FLAG_PREFER: the default priority is below every other area's */
	if (swapon(kpath, 0) < 0) {
		r = -errno;
		msg_error("cannot activate image file '%s' as swap: %s", path,
			  msg_errname(r));
		msg_hint(r == -EINVAL ? "the kernel refused it (holes? 'dmesg | tail'); "
			 "make it again with 'torpor-suspend --setup-image-file'" :
			 "'dmesg | tail' says why");
		return r;
	}
	msg_debug("swapon '%s' took %.3f s", path, mono_s() - t0);
	if (imagefile_fd_is_active(fd) != 1) {
		msg_error("image file '%s' is not the swap area activated: refusing to "
			  "hibernate", path);
		(void)imagefile_deactivate(kpath, path);
		return -ESTALE;
	}
	return 0;
}

int imagefile_deactivate(const char *kpath, const char *path)
{
	double t0 = mono_s();
	int r, tries = 0;

	/* a signal pending makes swapoff give up with EINTR: try again */
	while ((r = swapoff(kpath)) < 0 && errno == EINTR && ++tries < 100)
		;
	if (r == 0) {
		msg_debug("swapoff '%s' took %.3f s", path, mono_s() - t0);
		return 0;
	}
	r = -errno;
	if (r == -ENOMEM) {
		msg_warn("image file '%s' stays an active swap area: not enough memory to "
			 "take back what was swapped to it", path);
		msg_hint("'swapoff %s' once memory is free", path);
		return r;
	}
	msg_error("cannot deactivate image file '%s': %s; it stays an active swap area",
		  path, msg_errname(r));
	msg_hint("'swapoff %s'", path);
	return r;
}
