// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-check.c - torpor-suspend --check with an image file: zram, the file,
 * its header, size and place, the kernel command line and the initramfs
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hibernate.h"
#include "imagefile.h"
#include "msg.h"
#include "swaps.h"
#include "util.h"

/* --check: the active swap areas that are zram, named in an info line */
static void check_zram(void)
{
	struct swap_entry *sw = NULL;
	size_t n = 0, i, z = 0;

	(void)swaps_read("/proc/swaps", &sw, &n);
	for (i = 0; i < n; i++) {
		if (!strncmp(sw[i].path, "/dev/zram", 9)) {
			msg_info("zram swap '%s' is active (%llu MiB): ordinary swapping goes "
				 "there, the image to the image file", sw[i].path, sw[i].kib >> 10);
			z++;
		}
	}
	free(sw);
	if (!z)
		msg_info("no zram swap is active");
}

int imagefile_check_run(const char *path, const struct hib_opts *o)
{
	struct imagefile_loc loc;
	uint64_t want = imagefile_default_bytes();
	int r, fd, active;

	check_zram();
	fd = imagefile_open_located(path, O_RDONLY, &loc);
	if (fd < 0)
		return fd;
	r = imagefile_extents_check(fd, loc.bytes);
	if (r < 0) {
		msg_error("image file '%s' has holes or compressed extents: %s", path,
			  msg_errname(r));
		msg_hint("make it again with 'torpor-suspend --setup-image-file'");
		goto out;
	}
	active = imagefile_fd_is_active(fd);
	/* an active file has a swap header, or swapon would have refused it */
	r = active > 0 ? 0 : imagefile_header_and_warn(fd, &loc, path, 0);
	if (loc.bytes < want)
		msg_warn("image file '%s' is %llu MiB, less than half of RAM (%llu MiB): a "
			 "large image may not fit", path, MIB(loc.bytes), MIB(want));
	if (imagefile_cmdline_check("/proc/cmdline", path, &loc) < 0 && r == 0)
		r = -EINVAL;
	if (hibernate_check_initramfs(o, 0, 0) < 0 && r == 0)
		r = -ENOEXEC;
	if (r == 0)
		msg_info("ready to hibernate to image file '%s' (%llu MiB, %s): "
			 "resume_offset=%llu", path, MIB(loc.bytes), active > 0 ? "active" :
			 "activated only while hibernating", (unsigned long long)loc.offset_pages);
out:
	close(fd);
	return r;
}
