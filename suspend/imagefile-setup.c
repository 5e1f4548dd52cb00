// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-setup.c - torpor-suspend --setup-image-file: make the image file and
 * print the kernel parameters that name it
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "imagefile.h"
#include "msg.h"
#include "util.h"

/* The parent folder of the default file, private to root. */
static int make_parent(const char *path)
{
	if (strcmp(path, IMAGEFILE_DEFAULT))
		return 0;
	if (mkdir("/var/lib/torpor", 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static void say_create_error(const char *path, uint64_t bytes, int r, int fd_dir)
{
	const char *fsname = "?", *why = IMAGEFILE_SWAP_NO;
	struct statfs sf;

	if (r == -EOPNOTSUPP) {
		if (fd_dir >= 0)
			(void)imagefile_fs_check(fd_dir, &fsname, &why);
		msg_error("cannot make image file '%s' on %s: %s", path, fsname,
			  why ? why : IMAGEFILE_SWAP_NO);
		msg_hint("put it on ext4, xfs or a single-device btrfs (image_file = PATH "
			 "in torpor.conf)");
	} else if (r == -EXDEV) {
		msg_error("cannot make image file '%s': its btrfs filesystem has several devices "
			  "or a RAID/DUP data profile", path);
		msg_hint("put it on a single-device filesystem (image_file = PATH in torpor.conf)");
	} else if (r == -EMEDIUMTYPE && fd_dir >= 0 && fstatfs(fd_dir, &sf) == 0 &&
		   (unsigned long)sf.f_bsize < (unsigned long)sysconf(_SC_PAGESIZE)) {
		msg_error("cannot make image file '%s': its filesystem's blocks are %lu bytes, "
			  "smaller than a page, so the file's pages need not lie on page "
			  "boundaries of the disk", path, (unsigned long)sf.f_bsize);
		msg_hint("put it on a filesystem with blocks of %ld bytes or more (mkfs.ext4 -b "
			 "4096; image_file = PATH)", sysconf(_SC_PAGESIZE));
	} else if (r == -EMEDIUMTYPE) {
		msg_error("cannot make image file '%s': the filesystem left holes or compressed "
			  "extents in it", path);
		msg_hint("put it on a filesystem without compression (image_file = PATH)");
	} else if (r == -ENOSPC) {
		msg_error("cannot make image file '%s' of %llu MiB: no space left on its "
			  "filesystem", path, MIB(bytes));
		msg_hint("free space, or give a smaller size: --setup-image-file=SIZE");
	} else {
		msg_error("cannot make image file '%s': %s", path, msg_errname(r));
		if (r == -EACCES || r == -EPERM)
			msg_hint("run 'sudo torpor-suspend --setup-image-file'");
	}
}

int imagefile_setup_run(const char *path, uint64_t bytes)
{
	struct imagefile_loc loc;
	char dir[PATH_MAX], *slash;
	int r, dfd;

	if (!bytes)
		bytes = imagefile_default_bytes();
	if (bytes < IMAGEFILE_MIN_BYTES) {
		msg_error("image file size %llu bytes is too small: at least 1 MiB",
			  (unsigned long long)bytes);
		return -EINVAL;
	}
	r = make_parent(path);
	if (r < 0) {
		msg_error("cannot make folder /var/lib/torpor: %s", msg_errname(r));
		return r;
	}
	dfd = imagefile_open_dir(path, IMAGEFILE_OWNER, dir, sizeof(dir));
	if (dfd == -ENOENT && !dir[0]) {
		msg_error("cannot make image file '%s': its folder does not exist", path);
		msg_hint("make the folder first (owned by root, mode 0700)");
		return dfd;
	}
	if (dfd < 0) {
		imagefile_say_open_error(path, dfd, dir);
		return dfd;
	}
	close(dfd);
	r = imagefile_is_active(path);
	if (r > 0) {
		msg_error("image file '%s' is an active swap area: not replacing it", path);
		msg_hint("swapoff '%s' first", path);
		return -EBUSY;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	r = (r < 0 && r != -ENOENT) ? r : imagefile_create(path, bytes, &loc);
	if (r < 0) {
		say_create_error(path, bytes, r, dfd);
		goto out;
	}
	if (dfd >= 0)
		(void)fsync(dfd);
	msg_info("created image file '%s': %llu MiB%s", path, MIB(loc.bytes),
		 loc.bytes == imagefile_default_bytes() ? " (half of RAM: the kernel's "
		 "default image_size is two fifths of it)" : "");
	if (strcmp(path, IMAGEFILE_DEFAULT))
		msg_hint("put 'image_file = %s' in torpor.conf", path);
	else
		msg_hint("put 'image_file = %s' in torpor.conf (it is used only when named)",
			 path);
	msg_hint("add this line to the kernel command line, and rebuild the initramfs:");
	r = imagefile_print_line(path, &loc);
out:
	if (dfd >= 0)
		close(dfd);
	return r;
}
