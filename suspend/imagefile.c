// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile.c - the image file: a swap file on the root filesystem that is
 * swap only while torpor-suspend writes the image into it
 *
 * The kernel cannot hibernate into zram, and many systems swap only to zram.
 * So the file stays inactive: torpor-suspend swapon()s it at the default
 * priority (below every area given one, and below every area activated
 * earlier: zram keeps taking the ordinary swapping), names it with
 * SET_SWAP_AREA, which makes the kernel allocate the image's slots there only,
 * and swapoff()s it again after the resume and after any failure.  The boot
 * side sees a plain swap file (resume= its filesystem, resume_offset= its first
 * page): nothing changes there.
 *
 * Default size: half of RAM, rounded up to a MiB.  The kernel shrinks the
 * snapshot to /sys/power/image_size, two fifths of RAM by default, so half of
 * RAM holds that image even uncompressed, with its map; lz4 usually halves it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <time.h>
#include <stdint.h>
#include <unistd.h>

#include "cmdline.h"
#include "decimal.h"
#include "devname.h"
#include "imagefile.h"
#include "interrupt.h"
#include "msg.h"
#include "printcmd.h"
#include "swaps.h"
#include "target.h"

#ifndef SWAP_FLAG_DISCARD_ONCE
#define SWAP_FLAG_DISCARD_ONCE	0x20000	/* discard the whole area at swapon: linux/swap.h */
#endif

#define MIB(x) ((unsigned long long)((x) >> 20))

uint64_t imagefile_default_bytes(void)
{
	struct sysinfo si;
	uint64_t ram;

	if (sysinfo(&si) < 0)
		return 1ull << 30;
	ram = (uint64_t)si.totalram * si.mem_unit;
	return ((ram / 2 + (1u << 20) - 1) >> 20) << 20;
}

/* statfs magic numbers (linux/magic.h) */
static const struct {
	unsigned long magic;
	const char *name;
	int ok;
} fs_types[] = {
	{ 0xEF53, "ext4", 1 },
	{ 0x58465342, "xfs", 1 },
	{ 0x9123683E, "btrfs", 1 },
	{ 0xF2F52010, "f2fs", 1 },
	{ 0x01021994, "tmpfs", 0 },
	{ 0x858458f6, "ramfs", 0 },
	{ 0x6969, "nfs", 0 },
	{ 0x794c7630, "overlayfs", 0 },
	{ 0x2fc12fc1, "zfs", 0 },
	{ 0x65735546, "fuse", 0 },
	{ 0xFF534D42, "cifs", 0 },
	{ 0xFE534D42, "smb2", 0 },
	{ 0x73717368, "squashfs", 0 },
	{ 0x4d44, "vfat", 0 },
};

int imagefile_fs_check(int fd, const char **ret_name)
{
	struct statfs sf;
	size_t i;

	if (fstatfs(fd, &sf) < 0)
		return -errno;
	for (i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++) {
		if ((unsigned long)sf.f_type == fs_types[i].magic) {
			*ret_name = fs_types[i].name;
			return fs_types[i].ok ? 0 : -EOPNOTSUPP;
		}
	}
	*ret_name = "an unknown filesystem";
	return -EOPNOTSUPP;
}

int imagefile_extents_check(int fd, uint64_t bytes)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[32];
	} q;
	uint64_t pos = 0;
	uint32_t i;

	while (pos < bytes) {
		memset(&q, 0, sizeof(q));
		q.fm.fm_start = pos;
		q.fm.fm_length = bytes - pos;
		q.fm.fm_flags = FIEMAP_FLAG_SYNC;
		q.fm.fm_extent_count = 32;
		if (ioctl(fd, FS_IOC_FIEMAP, &q.fm) < 0)
			return -errno;
		if (q.fm.fm_mapped_extents == 0)
			return -EMEDIUMTYPE;
		for (i = 0; i < q.fm.fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &q.ext[i];

			if (e->fe_logical > pos)
				return -EMEDIUMTYPE;	/* a hole before it */
			if (e->fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
					   FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_DATA_INLINE |
					   FIEMAP_EXTENT_NOT_ALIGNED))
				return -EMEDIUMTYPE;
			if (e->fe_logical + e->fe_length > pos)
				pos = e->fe_logical + e->fe_length;
		}
	}
	return 0;
}

/* A version-1 swap header, as mkswap writes it (kernel union swap_header). */
static int write_swap_header(int fd, uint32_t ps, uint64_t pages)
{
	unsigned char *page;
	uint32_t v[3];
	ssize_t n;
	int r = 0;

	if (pages - 1 > UINT32_MAX)
		return -EFBIG;
	page = calloc(1, ps);
	if (!page)
		return -ENOMEM;
	v[0] = 1;			/* version */
	v[1] = (uint32_t)(pages - 1);	/* last_page */
	v[2] = 0;			/* nr_badpages */
	memcpy(page + 1024, v, sizeof(v));
	if (getrandom(page + 1036, 16, 0) != 16) {
		r = -EIO;
		goto out;
	}
	page[1036 + 6] = (page[1036 + 6] & 0x0f) | 0x40;	/* UUID version 4 */
	page[1036 + 8] = (page[1036 + 8] & 0x3f) | 0x80;
	memcpy(page + ps - 10, "SWAPSPACE2", 10);
	n = pwrite(fd, page, ps, 0);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != ps)
		r = -EIO;
out:
	free(page);
	return r;
}

/* btrfs: no copy-on-write (chattr +C), set while the file is still empty */
static int set_nocow(int fd)
{
	int flags = 0;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		return -errno;
	flags |= FS_NOCOW_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
		return -errno;
	return 0;
}

int imagefile_locate(const char *path, struct imagefile_loc *ret)
{
	struct imagefile_loc loc;
	struct stat st;
	int r, oerr = 0;

	memset(&loc, 0, sizeof(loc));
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	r = target_file_location(path, &loc.dev, &oerr, &loc.offset_pages);
	if (r == 0)
		return -EACCES;
	if (r < 0)
		return r;
	if (oerr < 0)
		return oerr;
	loc.bytes = (uint64_t)st.st_size;
	*ret = loc;
	return 0;
}

/* Fill the open, empty file @fd with @pages pages of swap; 0 or -errno. */
static int fill_file(int fd, uint32_t ps, uint64_t pages)
{
	const char *fsname;
	int r;

	r = imagefile_fs_check(fd, &fsname);
	if (r < 0)
		return r;
	if (!strcmp(fsname, "btrfs")) {
		r = set_nocow(fd);
		if (r < 0)
			return r;
	}
	if (geteuid() == 0 && fchown(fd, 0, 0) < 0)
		return -errno;
	r = posix_fallocate(fd, 0, (off_t)(pages * ps));
	if (r)
		return -r;
	r = write_swap_header(fd, ps, pages);
	if (r < 0)
		return r;
	if (fsync(fd) < 0)
		return -errno;
	return imagefile_extents_check(fd, pages * ps);
}

int imagefile_create(const char *path, uint64_t bytes, struct imagefile_loc *ret)
{
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	uint64_t pages = (bytes + ps - 1) / ps;
	char tmp[PATH_MAX];
	int fd, r;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.new", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	(void)unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	r = fill_file(fd, ps, pages);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0)
		r = imagefile_locate(tmp, ret);
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		(void)unlink(tmp);
	return r;
}

int imagefile_is_active(const char *path)
{
	struct swap_entry *sw = NULL;
	struct stat f, s;
	size_t n = 0, i;
	int r, found = 0;

	if (stat(path, &f) < 0)
		return -errno;
	r = swaps_read("/proc/swaps", &sw, &n);
	if (r < 0)
		return r;
	for (i = 0; i < n; i++)
		if (sw[i].is_file && stat(sw[i].path, &s) == 0 && s.st_dev == f.st_dev &&
		    s.st_ino == f.st_ino)
			found = 1;
	free(sw);
	return found;
}

/* The parent folder of the default file, private to root. */
static int make_parent(const char *path)
{
	if (strcmp(path, IMAGEFILE_DEFAULT))
		return 0;
	if (mkdir("/var/lib/torpor", 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* The resume= line of @loc, on stdout; 0 or -errno (reported). */
static int print_line(const char *path, const struct imagefile_loc *loc)
{
	struct hib_target t;
	struct probe_id id;
	char line[128], dname[64];
	int r;

	memset(&t, 0, sizeof(t));
	t.dev = loc->dev;
	t.is_file = 1;
	t.offset_pages = loc->offset_pages;
	memset(&id, 0, sizeof(id));
	devname_name(loc->dev, dname, sizeof(dname));
	r = devname_probe(loc->dev, &id);
	if (r < 0) {
		msg_error("cannot read %s, the filesystem of '%s': %s", dname, path,
			  msg_errname(r));
		return r;
	}
	r = printcmd_format(&t, r ? &id : &(struct probe_id){ 0 }, line, sizeof(line));
	if (r < 0) {
		msg_error("the filesystem of '%s' on %s has no UUID to name it by", path, dname);
		msg_hint("add resume=%s resume_offset=%llu to the kernel command line", dname,
			 (unsigned long long)loc->offset_pages);
		return r;
	}
	printf("%s\n", line);
	return fflush(stdout) == 0 ? 0 : -EIO;
}

static void say_create_error(const char *path, uint64_t bytes, int r, int fd_dir)
{
	const char *fsname = "?";
	struct statfs sf;

	if (r == -EOPNOTSUPP) {
		if (fd_dir >= 0)
			(void)imagefile_fs_check(fd_dir, &fsname);
		msg_error("cannot make image file '%s' on %s: the kernel cannot swap to a file "
			  "there", path, fsname);
		msg_hint("put it on ext4, xfs, f2fs or a single-device btrfs (image_file = PATH "
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
	r = r < 0 ? r : imagefile_is_active(path);
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
	r = print_line(path, &loc);
out:
	if (dfd >= 0)
		close(dfd);
	return r;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Locate and check the file before anything changes; 0 or -errno (reported). */
static int locate_and_warn(const char *path, struct imagefile_loc *loc)
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

/* swapoff after the hibernation; 0, or -errno when the file stays active (reported) */
static int deactivate(const char *path)
{
	double t0 = now();
	int r, tries = 0;

	/* a signal pending makes swapoff give up with EINTR: try again */
	while ((r = swapoff(path)) < 0 && errno == EINTR && ++tries < 100)
		;
	if (r == 0) {
		msg_debug("swapoff '%s' took %.3f s", path, now() - t0);
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

int imagefile_discard_supported(const char *sys_dev_block, dev_t dev)
{
	char path[512], buf[32];
	unsigned long long v;
	struct stat st;
	ssize_t n;
	size_t len;
	int fd;

	/* a partition's queue is its disk's, one directory up */
	snprintf(path, sizeof(path), "%s/%u:%u/partition", sys_dev_block, major(dev),
		 minor(dev));
	if (stat(path, &st) == 0)
		snprintf(path, sizeof(path), "%s/%u:%u/../queue/discard_max_bytes",
			 sys_dev_block, major(dev), minor(dev));
	else
		snprintf(path, sizeof(path), "%s/%u:%u/queue/discard_max_bytes",
			 sys_dev_block, major(dev), minor(dev));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	len = (size_t)n;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	if (decimal_parse(buf, len, UINT64_MAX, &v) < 0)
		return -EINVAL;
	return v > 0;
}

int imagefile_zero(int fd, uint32_t ps, uint64_t bytes)
{
	static const size_t chunk = 1u << 20;
	uint64_t pos = ps, n;
	ssize_t w;
	void *buf;
	int r = 0, fl;

	/* O_DIRECT: gigabytes of zeroes need not go through the page cache */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && fcntl(fd, F_SETFL, fl | O_DIRECT) < 0)
		fl = -1;
	if (posix_memalign(&buf, 4096, chunk))
		return -ENOMEM;
	memset(buf, 0, chunk);
	while (pos < bytes) {
		n = bytes - pos < chunk ? bytes - pos : chunk;
		w = pwrite(fd, buf, (size_t)n, (off_t)pos);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EINVAL && fl >= 0) {
			/* no O_DIRECT for this size or filesystem: buffered then */
			(void)fcntl(fd, F_SETFL, fl);
			fl = -1;
			continue;
		}
		if (w <= 0) {
			r = w < 0 ? -errno : -EIO;
			break;
		}
		pos += (uint64_t)w;
	}
	free(buf);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl);
	if (r == 0 && fdatasync(fd) < 0)
		r = -errno;
	return r;
}

/* Has @fd (of @bytes) an extent shared with another file (a snapshot, a reflink)? 1, 0, -errno */
static int extents_shared(int fd, uint64_t bytes)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[32];
	} q;
	uint64_t pos = 0, end;
	uint32_t i;

	while (pos < bytes) {
		memset(&q, 0, sizeof(q));
		q.fm.fm_start = pos;
		q.fm.fm_length = bytes - pos;
		q.fm.fm_extent_count = 32;
		if (ioctl(fd, FS_IOC_FIEMAP, &q.fm) < 0)
			return -errno;
		if (q.fm.fm_mapped_extents == 0)
			return -EMEDIUMTYPE;
		end = pos;
		for (i = 0; i < q.fm.fm_mapped_extents; i++) {
			if (q.ext[i].fe_flags & FIEMAP_EXTENT_SHARED)
				return 1;
			if (q.ext[i].fe_logical + q.ext[i].fe_length > end)
				end = q.ext[i].fe_logical + q.ext[i].fe_length;
		}
		if (end <= pos)
			return -EMEDIUMTYPE;
		pos = end;
	}
	return 0;
}

/*
 * discard_after_resume: forget the image's pages in the (inactive) file.  Where
 * the device discards, the kernel does it: swapon() with SWAP_FLAG_DISCARD_ONCE
 * discards every extent of the area but its header, through the very extent map
 * the image was written through; we never write to the block device under a
 * mounted filesystem.  Elsewhere the file's pages are overwritten with zeroes
 * in place, which a shared extent (a btrfs snapshot, a reflink copy) would turn
 * into a copy: refused.  0 or -errno (reported).
 */
static int forget_pages(const char *path, const struct imagefile_loc *loc)
{
	struct imagefile_loc after;
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	double t0 = now();
	int r, fd;

	r = imagefile_discard_supported("/sys/dev/block", loc->dev);
	if (r > 0) {
		if (swapon(path, SWAP_FLAG_DISCARD | SWAP_FLAG_DISCARD_ONCE) < 0) {
			r = -errno;
			msg_error("cannot discard image file '%s': swapon: %s", path,
				  msg_errname(r));
			msg_hint("the image's pages stay in the file; 'dmesg | tail' says why");
			return r;
		}
		r = deactivate(path);
		if (r == 0)
			msg_info("discarded the image's pages in '%s' (%.1f s)", path,
				 now() - t0);
		return r;
	}
	if (r < 0)
		msg_debug("cannot tell whether %u:%u discards (%s): zeroing instead",
			  major(loc->dev), minor(loc->dev), msg_errname(r));
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		r = -errno;
		msg_error("cannot open image file '%s' to zero it: %s", path, msg_errname(r));
		return r;
	}
	r = extents_shared(fd, loc->bytes);
	if (r > 0) {
		close(fd);
		msg_error("image file '%s' shares blocks with another file (a snapshot or a "
			  "copy): zeroing it would move it; the image's pages stay", path);
		msg_hint("delete the snapshot or copy, then make the file again with "
			 "'torpor-suspend --setup-image-file'");
		return -EBUSY;
	}
	if (r == 0)
		r = imagefile_zero(fd, ps, loc->bytes);
	close(fd);
	if (r < 0) {
		msg_error("cannot zero image file '%s': %s; some of the image's pages stay",
			  path, msg_errname(r));
		return r;
	}
	/* the zeroes went in place: the file must be where resume_offset= points */
	r = imagefile_locate(path, &after);
	if (r < 0 || after.dev != loc->dev || after.offset_pages != loc->offset_pages) {
		msg_error("image file '%s' moved while it was zeroed", path);
		msg_hint("run 'torpor-suspend --print-cmdline' and correct resume_offset=");
		return r < 0 ? r : -ESTALE;
	}
	msg_info("zeroed the image's pages in '%s' (%llu MiB, %.1f s; the device does not "
		 "discard)", path, MIB(loc->bytes), now() - t0);
	return 0;
}

/* imagefile_hibernate_run() under the abort signals' flag */
static int image_file_run(struct hib_opts *o, const char *path, const struct imagefile_loc *loc,
			  int active, int discard)
{
	double t0;
	int r;

	if (!active) {
		t0 = now();
		/* no SWAP_FLAG_PREFER: the default priority is below every other area's */
		if (swapon(path, 0) < 0) {
			r = -errno;
			msg_error("cannot activate image file '%s' as swap: %s", path,
				  msg_errname(r));
			msg_hint(r == -EINVAL ? "the kernel refused it (holes? 'dmesg | tail'); "
				 "make it again with 'torpor-suspend --setup-image-file'" :
				 "'dmesg | tail' says why");
			return r;
		}
		msg_debug("swapon '%s' took %.3f s", path, now() - t0);
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
	if (deactivate(path) < 0) {
		if (discard)
			msg_warn("image file '%s' is still active: its pages are not discarded",
				 path);
		return r;
	}
	if (discard)
		(void)forget_pages(path, loc);
	return r;
}

/*
 * The next boot looks where resume= and resume_offset= point (the kernel command
 * line, or --resume and --resume-offset): an image written anywhere else is never
 * found, and the session is lost.  A mismatch is refused before anything is
 * activated; parameters that are missing only draw a warning (the swap-file path
 * does the same: the next boot may get them).  0 or -errno (reported).
 */
int imagefile_check_resume(const struct hib_opts *o, const char *path,
			   const struct imagefile_loc *loc)
{
	unsigned long long page = loc->offset_pages;
	dev_t dev;

	if (o->resume[0] && (devname_resolve(o->resume, &dev) < 0 || dev != loc->dev)) {
		msg_error("resume=%s does not name the filesystem of image file '%s' "
			  "(device %u:%u): the next boot would not find the image", o->resume,
			  path, major(loc->dev), minor(loc->dev));
		msg_hint("'torpor-suspend --print-cmdline' prints the parameters to use");
		return -EINVAL;
	}
	if (o->has_offset && o->offset != loc->offset_pages) {
		msg_error("resume_offset=%llu does not match image file '%s': it begins at "
			  "page %llu, so the next boot would not find the image",
			  (unsigned long long)o->offset, path, page);
		msg_hint("set resume_offset=%llu (the file moved when it was made again?)", page);
		return -ERANGE;
	}
	if (!o->resume[0] || !o->has_offset)
		msg_warn("the kernel command line lacks %s: the next boot finds the image "
			 "only with resume_offset=%llu on the filesystem of '%s'",
			 o->resume[0] ? "resume_offset=" : "resume= and resume_offset=", page,
			 path);
	return 0;
}

int imagefile_hibernate_run(const struct hib_opts *opts, const char *path, int discard)
{
	struct hib_opts o = *opts;
	struct imagefile_loc loc;
	int r, active, sig;

	if (geteuid() != 0) {
		msg_error("hibernating needs root");
		msg_hint("run 'sudo torpor-suspend'");
		return -EPERM;
	}
	r = locate_and_warn(path, &loc);
	if (r < 0)
		return r;
	r = imagefile_check_resume(&o, path, &loc);
	if (r < 0)
		return r;
	active = imagefile_is_active(path);
	if (active < 0) {
		msg_error("cannot read /proc/swaps: %s", msg_errname(active));
		return active;
	}
	/*
	 * From before the swapon to after the swapoff the abort signals only set a
	 * flag (hibernate_run() nests its own install in this one): a SIGTERM must
	 * not end torpor-suspend with the file an active swap area.
	 */
	r = interrupt_install();
	if (r < 0) {
		msg_error("cannot set up the abort signals: %s", msg_errname(r));
		return r;
	}
	r = image_file_run(&o, path, &loc, active, discard);
	sig = interrupt_pending();
	interrupt_restore();
	/* one that came after the resume, while the file was put away: it is due now */
	if (r == 0 && sig > 0)
		(void)raise(sig);
	return r;
}

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

/* --check: resume= and resume_offset= on the kernel command line name @loc? */
static int check_cmdline(const char *path, const struct imagefile_loc *loc)
{
	struct torpor_cmdline cl;
	dev_t dev;
	int r;

	r = cmdline_read("/proc/cmdline", &cl);
	if (r < 0 || !cl.resume[0] || devname_resolve(cl.resume, &dev) < 0 || dev != loc->dev) {
		msg_error("resume= on the kernel command line does not name the filesystem of "
			  "image file '%s'", path);
		msg_hint("'torpor-suspend --print-cmdline' prints the parameters to add");
		return -EINVAL;
	}
	if (!cl.has_resume_offset || cl.resume_offset != loc->offset_pages) {
		msg_error("resume_offset= on the kernel command line is not %llu, the first "
			  "page of image file '%s'", (unsigned long long)loc->offset_pages, path);
		msg_hint("set resume_offset=%llu", (unsigned long long)loc->offset_pages);
		return -EINVAL;
	}
	return 0;
}

int imagefile_check_run(const char *path)
{
	struct imagefile_loc loc;
	struct stat st;
	uint64_t want = imagefile_default_bytes();
	int r, fd;

	check_zram();
	r = locate_and_warn(path, &loc);
	if (r < 0)
		return r;
	if (stat(path, &st) < 0)
		return -errno;
	if (st.st_uid != 0 || (st.st_mode & 077)) {
		msg_error("image file '%s' must be owned by root and private", path);
		msg_hint("chown root:root '%s' && chmod 600 '%s'", path, path);
		return -EACCES;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	r = imagefile_extents_check(fd, loc.bytes);
	close(fd);
	if (r < 0) {
		msg_error("image file '%s' has holes or compressed extents: %s", path,
			  msg_errname(r));
		msg_hint("make it again with 'torpor-suspend --setup-image-file'");
		return r;
	}
	if (loc.bytes < want)
		msg_warn("image file '%s' is %llu MiB, less than half of RAM (%llu MiB): a "
			 "large image may not fit", path, MIB(loc.bytes), MIB(want));
	r = check_cmdline(path, &loc);
	if (r < 0)
		return r;
	msg_info("ready to hibernate to image file '%s' (%llu MiB, %s): resume_offset=%llu",
		 path, MIB(loc.bytes), imagefile_is_active(path) > 0 ? "active" :
		 "activated only while hibernating", (unsigned long long)loc.offset_pages);
	return 0;
}

int imagefile_print_cmdline(const char *path)
{
	struct imagefile_loc loc;
	int r;

	r = locate_and_warn(path, &loc);
	return r < 0 ? r : print_line(path, &loc);
}
