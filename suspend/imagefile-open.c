// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-open.c - the image file opened for a command: located, its folders
 * and itself trusted, on a filesystem it may use; each refusal explained
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hibernate.h"
#include "imagefile.h"
#include "msg.h"

void imagefile_say_open_error(const char *path, int r, const char *bad)
{
	struct stat st;

	if (bad[0] && r == -EPERM) {
		msg_error("refusing image file '%s': folder '%s' on its path is not owned by "
			  "root, so its owner could put another file in its place", path, bad);
		msg_hint("chown root '%s' (or put the file in a folder only root can write "
			 "to, as the default %s)", bad, IMAGEFILE_DEFAULT);
	} else if (bad[0] && r == -EACCES) {
		msg_error("refusing image file '%s': folder '%s' on its path is writable by "
			  "group or others, who could put another file in its place", path, bad);
		/* a sticky shared folder (/tmp) is meant to stay writable: move the file */
		if (stat(bad, &st) == 0 && (st.st_mode & S_ISVTX))
			msg_hint("put the file in a folder only root can write to, as the "
				 "default %s", IMAGEFILE_DEFAULT);
		else
			msg_hint("chmod go-w '%s' (or put the file in a folder only root can "
				 "write to, as the default %s)", bad, IMAGEFILE_DEFAULT);
	} else if (bad[0]) {
		msg_error("cannot check folder '%s' of image file '%s': %s", bad, path,
			  msg_errname(r));
	} else if (r == -EPERM || r == -EACCES) {
		msg_error("refusing image file '%s': it must be owned by root and private "
			  "(mode 0600): the image holds all of memory", path);
		msg_hint("chown root:root '%s' && chmod 600 '%s'", path, path);
	} else if (r == -ELOOP || r == -EINVAL) {
		msg_error("refusing image file '%s': %s", path, r == -ELOOP ?
			  "it is a symbolic link" : "not a regular file");
		msg_hint("name the file itself (image_file = PATH in torpor.conf), or make it "
			 "with 'torpor-suspend --setup-image-file'");
	} else if (r == -ENOENT) {
		msg_error("no image file '%s'", path);
		msg_hint("make it with 'torpor-suspend --setup-image-file'");
	} else {
		msg_error("cannot open image file '%s': %s", path, msg_errname(r));
	}
}

int imagefile_locate_and_warn(const char *path, struct imagefile_loc *loc)
{
	int r = imagefile_locate(path, loc);

	if (r == -ENOENT) {
		msg_error("no image file '%s'", path);
		msg_hint("make it with 'torpor-suspend --setup-image-file'");
	} else if (r == -EXDEV) {
		msg_error("cannot hibernate into image file '%s': its btrfs filesystem has "
			  "several devices or a RAID/DUP data profile", path);
	} else if (r == -EMEDIUMTYPE) {
		msg_error("cannot locate the first page of image file '%s'", path);
		msg_hint("make it again with 'torpor-suspend --setup-image-file'");
	} else if (r < 0) {
		msg_error("cannot locate image file '%s': %s", path, msg_errname(r));
	}
	return r;
}

int imagefile_open_located(const char *path, int flags, struct imagefile_loc *loc)
{
	const char *fsname = "?", *why = NULL;
	struct imagefile_loc by_path;
	char bad[PATH_MAX];
	int fd, r;

	r = imagefile_locate_and_warn(path, &by_path);
	if (r < 0)
		return r;
	fd = imagefile_open(path, flags, IMAGEFILE_OWNER, bad, sizeof(bad));
	if (fd < 0) {
		imagefile_say_open_error(path, fd, bad);
		return fd;
	}
	r = imagefile_locate_fd(fd, loc);
	if (r == 0 && (loc->st_dev != by_path.st_dev || loc->st_ino != by_path.st_ino ||
		       loc->dev != by_path.dev || loc->offset_pages != by_path.offset_pages))
		r = -ESTALE;
	if (r < 0) {
		msg_error("image file '%s' changed while it was checked (%s)", path,
			  msg_errname(r));
		msg_hint("run torpor-suspend again; if it persists, 'ls -li %s'", path);
		close(fd);
		return r;
	}
	/* its filesystem on a loop device or zram: --check says so too */
	r = hibernate_check_answers(loc->dev, path);
	if (r < 0) {
		close(fd);
		return r;
	}
	/* one made before f2fs was refused, or moved there since */
	r = imagefile_fs_check(fd, &fsname, &why);
	if (r < 0) {
		msg_error("cannot use image file '%s' on %s: %s", path, fsname,
			  r == -EOPNOTSUPP ? why : msg_errname(r));
		msg_hint("remove it ('swapoff %s; rm %s') and make one on ext4, xfs or a "
			 "single-device btrfs (image_file = PATH in torpor.conf, then "
			 "'torpor-suspend --setup-image-file')", path, path);
		close(fd);
		return r;
	}
	return fd;
}
