// SPDX-License-Identifier: GPL-2.0-only
/*
 * target.c - match the resume device and offset to an active swap area
 *
 * The kernel's SET_SWAP_AREA only says -ENODEV when nothing matches.  Looking
 * at /proc/swaps ourselves first lets torpor-suspend say which areas exist and
 * what resume= / resume_offset= would select them, and check that a swap file
 * is private to root before all of memory is written into it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btrfsmap.h"
#include "swaps.h"
#include "target.h"

/* the active swap areas target_find() reads: /proc/swaps (tests: a file) */
const char *target_swaps = "/proc/swaps";

/**
 * target_file_offset() - page index of the first block of a swap file
 * @fd: the open file, @page_size: page size
 * @ret_pages: physical offset on the filesystem's device / page size
 *
 * Return: 0, -EMEDIUMTYPE when the first extent is not a plain mapped one
 * (inline, encoded, unknown: btrfs and friends need their own tool), -errno.
 */
int target_file_offset(int fd, uint32_t page_size, uint64_t *ret_pages)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[1];
	} q;

	memset(&q, 0, sizeof(q));
	q.fm.fm_start = 0;
	q.fm.fm_length = page_size;
	q.fm.fm_flags = FIEMAP_FLAG_SYNC;
	q.fm.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &q.fm) < 0)
		return -errno;
	if (q.fm.fm_mapped_extents < 1 || q.ext[0].fe_logical != 0)
		return -EMEDIUMTYPE;
	if (q.ext[0].fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_ENCODED |
				 FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED))
		return -EMEDIUMTYPE;
	if (q.ext[0].fe_physical % page_size)
		return -EMEDIUMTYPE;
	*ret_pages = q.ext[0].fe_physical / page_size;
	return 0;
}

/*
 * target_fd_location() - the device and header page of the open swap file @fd.
 * On btrfs st_dev is anonymous and FIEMAP answers logical addresses: btrfsmap
 * asks the filesystem instead.
 * Return: 0 with @ret_dev (and @ret_pages, or the reason in @ret_offset_err),
 * -errno when its device cannot be found.
 */
int target_fd_location(int fd, dev_t *ret_dev, int *ret_offset_err, uint64_t *ret_pages)
{
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	struct stat st;
	int r;

	if (fstat(fd, &st) < 0)
		return -errno;
	r = btrfsmap_is_btrfs(fd);
	if (r < 0)
		return r;
	if (r) {
		r = btrfsmap_fs_device(fd, ret_dev);
		if (r < 0)
			return r;
		*ret_offset_err = btrfsmap_file_offset(fd, ps, ret_pages);
	} else {
		*ret_dev = st.st_dev;
		*ret_offset_err = target_file_offset(fd, ps, ret_pages);
	}
	return 0;
}

/*
 * target_file_location() - target_fd_location() of the file at @path
 * Return: 1 with @ret_dev (and @ret_pages, or the reason in @ret_offset_err),
 * 0 when the file cannot be opened, -errno when its device cannot be found.
 */
int target_file_location(const char *path, dev_t *ret_dev, int *ret_offset_err,
			 uint64_t *ret_pages)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;	/* not ours to judge: not matched */
	r = target_fd_location(fd, ret_dev, ret_offset_err, ret_pages);
	close(fd);
	return r < 0 ? r : 1;
}

/*
 * Does this /proc/swaps entry live at (dev, offset)?  Fills the target if so.
 * A swap file on @dev whose computed header page is not @offset fills @mismatch.
 */
static int match_entry(const struct swap_entry *e, dev_t dev, int has_offset, uint64_t offset,
		       struct hib_target *t, struct hib_target *mismatch)
{
	const char *path = e->path;
	struct stat st;
	uint64_t off = 0;
	dev_t fdev;
	int r, oerr = 0;

	if (stat(path, &st) < 0)
		return 0;
	snprintf(t->swap_path, sizeof(t->swap_path), "%s", path);
	if (!e->is_file) {
		if (!S_ISBLK(st.st_mode) || st.st_rdev != dev || (has_offset && offset != 0))
			return 0;
		t->is_file = 0;
	} else {
		if (!S_ISREG(st.st_mode))
			return 0;
		r = target_file_location(path, &fdev, &oerr, &off);
		if (r <= 0)
			return r;
		if (fdev != dev)
			return 0;
		if (oerr < 0 && !has_offset)
			return oerr;
		if (oerr == 0 && has_offset && off != offset) {
			*mismatch = *t;
			mismatch->dev = dev;
			mismatch->is_file = 1;
			mismatch->offset_pages = off;
			return 0;
		}
		if (oerr < 0)
			off = offset;	/* trust the user's resume_offset; the kernel checks it */
		t->is_file = 1;
	}
	t->dev = dev;
	t->offset_pages = t->is_file ? off : 0;
	t->swap_bytes = e->kib * 1024;
	t->swap_used = (e->used_kib < e->kib ? e->used_kib : e->kib) * 1024;
	return 1;
}

/**
 * target_find() - find the active swap area at @dev (and @offset_pages, if given)
 * @ret: filled when found
 *
 * A swap file is found from its filesystem's device alone when it is the only
 * one there, so resume_offset= may be left out.  Return: TARGET_FOUND (0);
 * TARGET_NONE when no active swap area matches; TARGET_OTHER_PAGE when none
 * matches but a swap file on @dev begins at another page than @offset_pages
 * (@ret names it, with its page); TARGET_SEVERAL when several swap files on
 * @dev match and no offset was given; -errno when /proc/swaps cannot be read,
 * or the errors of btrfsmap_file_offset() and target_file_offset() when a
 * file's offset cannot be computed (-EMEDIUMTYPE, -EXDEV, ...; @ret names the
 * file).
 */
int target_find(dev_t dev, int has_offset, uint64_t offset_pages, struct hib_target *ret)
{
	struct hib_target t, found, mismatch, failed;
	struct swap_entry *sw;
	size_t nsw, i;
	int n = 0, r, err = 0;

	r = swaps_read(target_swaps, &sw, &nsw);
	if (r < 0)
		return r;
	memset(&mismatch, 0, sizeof(mismatch));
	memset(&failed, 0, sizeof(failed));
	for (i = 0; i < nsw; i++) {
		memset(&t, 0, sizeof(t));
		r = match_entry(&sw[i], dev, has_offset, offset_pages, &t, &mismatch);
		if (r < 0 && !err) {
			err = r;
			failed = t;
		}
		if (r > 0 && n++ == 0)
			found = t;
	}
	free(sw);
	if (n == 0 && mismatch.is_file) {
		*ret = mismatch;
		return TARGET_OTHER_PAGE;
	}
	if (n == 0 && err) {
		*ret = failed;
		return err;
	}
	if (n == 0)
		return TARGET_NONE;
	if (n > 1)
		return TARGET_SEVERAL;
	*ret = found;
	return TARGET_FOUND;
}

/**
 * target_find_only() - the one active swap area, when no resume device is named
 * @ret: filled when found, as target_find() fills it
 *
 * Return: TARGET_FOUND (0); TARGET_NONE when no swap area is active (or its
 * partition is not a block device); TARGET_SEVERAL when several are; -EACCES
 * when the swap file cannot be opened (not root); target_find()'s for its
 * device.
 */
int target_find_only(struct hib_target *ret)
{
	struct swap_entry *sw;
	struct stat st;
	uint64_t off;
	size_t nsw;
	dev_t dev = 0;
	int r, oerr;

	r = swaps_read(target_swaps, &sw, &nsw);
	if (r < 0)
		return r;
	if (nsw != 1) {
		r = nsw ? TARGET_SEVERAL : TARGET_NONE;
		goto out;
	}
	if (!sw[0].is_file) {
		if (stat(sw[0].path, &st) < 0)
			r = -errno;
		else if (!S_ISBLK(st.st_mode))
			r = TARGET_NONE;
		else
			dev = st.st_rdev;
	} else {
		r = target_file_location(sw[0].path, &dev, &oerr, &off);
		if (r == 0)
			r = -EACCES;
		else if (r > 0)
			r = 0;
	}
out:
	free(sw);
	return r != 0 ? r : target_find(dev, 0, 0, ret);
}
