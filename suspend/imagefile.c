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
#include <limits.h>
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

#include "btrfsmap.h"
#include "cmdline.h"
#include "decimal.h"
#include "devname.h"
#include "image.h"
#include "imagefile.h"
#include "interrupt.h"
#include "monoclock.h"
#include "msg.h"
#include "printcmd.h"
#include "skipsay.h"
#include "swaps.h"
#include "target.h"
#include "util.h"

#ifndef SWAP_FLAG_DISCARD_ONCE
#define SWAP_FLAG_DISCARD_ONCE	0x20000	/* discard the whole area at swapon: linux/swap.h */
#endif


uint64_t imagefile_default_bytes(void)
{
	struct sysinfo si;
	uint64_t ram;

	if (sysinfo(&si) < 0)
		return 1ull << 30;
	ram = (uint64_t)si.totalram * si.mem_unit;
	return ((ram / 2 + (1u << 20) - 1) >> 20) << 20;
}

#define SWAP_NO "the kernel cannot swap to a file there"

/*
 * statfs magic numbers (linux/magic.h); @why says why an image file cannot live
 * there.  f2fs can hold a swap file, but torpor cannot stamp it: a boot without
 * torpor that mounted it read-write would go unseen, nothing else invalidates
 * an image file nobody resumed, and the next boot with torpor would restore
 * stale memory over the changed filesystem.
 */
static const struct {
	unsigned long magic;
	const char *name;
	const char *why;
} fs_types[] = {
	{ 0xEF53, "ext4", NULL },
	{ 0x58465342, "xfs", NULL },
	{ 0x9123683E, "btrfs", NULL },
	{ 0xF2F52010, "f2fs", "torpor cannot stamp f2fs, so a mount by a boot without torpor "
			      "would go unseen and the image be restored over the changes" },
	{ 0x01021994, "tmpfs", SWAP_NO },
	{ 0x858458f6, "ramfs", SWAP_NO },
	{ 0x6969, "nfs", SWAP_NO },
	{ 0x794c7630, "overlayfs", SWAP_NO },
	{ 0x2fc12fc1, "zfs", SWAP_NO },
	{ 0x65735546, "fuse", SWAP_NO },
	{ 0xFF534D42, "cifs", SWAP_NO },
	{ 0xFE534D42, "smb2", SWAP_NO },
	{ 0x73717368, "squashfs", SWAP_NO },
	{ 0x4d44, "vfat", SWAP_NO },
};

int imagefile_fs_by_magic(unsigned long magic, const char **ret_name, const char **ret_why)
{
	size_t i;

	for (i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++) {
		if (magic == fs_types[i].magic) {
			*ret_name = fs_types[i].name;
			*ret_why = fs_types[i].why;
			return fs_types[i].why ? -EOPNOTSUPP : 0;
		}
	}
	*ret_name = "an unknown filesystem";
	*ret_why = SWAP_NO;
	return -EOPNOTSUPP;
}

int imagefile_fs_check(int fd, const char **ret_name, const char **ret_why)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return -errno;
	return imagefile_fs_by_magic((unsigned long)sf.f_type, ret_name, ret_why);
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

int imagefile_locate_fd(int fd, struct imagefile_loc *ret)
{
	struct imagefile_loc loc;
	struct stat st;
	int r, oerr = 0;

	memset(&loc, 0, sizeof(loc));
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	r = target_fd_location(fd, &loc.dev, &oerr, &loc.offset_pages);
	if (r < 0)
		return r;
	if (oerr < 0)
		return oerr;
	loc.bytes = (uint64_t)st.st_size;
	loc.st_dev = st.st_dev;
	loc.st_ino = st.st_ino;
	*ret = loc;
	return 0;
}

int imagefile_locate(const char *path, struct imagefile_loc *ret)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	r = imagefile_locate_fd(fd, ret);
	close(fd);
	return r;
}

/* Fill the open, empty file @fd with @pages pages of swap; 0 or -errno. */
static int fill_file(int fd, uint32_t ps, uint64_t pages)
{
	const char *fsname, *why;
	int r;

	r = imagefile_fs_check(fd, &fsname, &why);
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

/* May @st (a folder, or the file when @file) hold the image?  0, -EPERM, -EACCES */
static int owner_mode_ok(const struct stat *st, uid_t owner, int file)
{
	if (st->st_uid != 0 && st->st_uid != owner)
		return -EPERM;
	if (st->st_mode & (file ? 077 : 022))
		return -EACCES;
	return 0;
}

/* tests: the folders from / down to this one are taken as checked (NULL: none) */
static const char *trusted_dir;

void imagefile_trust_dir(const char *dir)
{
	trusted_dir = dir;
}

/* Is @dir (a resolved path) the trusted folder or one above it? */
static int trusted(const char *dir)
{
	size_t n = strlen(dir);

	if (!trusted_dir)
		return 0;
	if (!strcmp(dir, "/"))
		return 1;
	return !strncmp(trusted_dir, dir, n) && (trusted_dir[n] == '/' || !trusted_dir[n]);
}

int imagefile_open_dir(const char *path, uid_t owner, char *ret_bad, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX], *slash, *comp, *save = NULL;
	struct stat st;
	int fd, nfd, r;

	ret_bad[0] = '\0';
	if (path[0] != '/')
		return -EINVAL;
	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	*(slash == dir ? slash + 1 : slash) = '\0';
	if (!realpath(dir, real))
		return -errno;
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(dir, sizeof(dir), "/");
	comp = strtok_r(real, "/", &save);
	for (;;) {
		r = fstat(fd, &st) < 0 ? -errno : trusted(dir) ? 0 : owner_mode_ok(&st, owner, 0);
		if (r < 0) {
			snprintf(ret_bad, len, "%s", dir);
			close(fd);
			return r;
		}
		if (!comp)
			return fd;
		nfd = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		r = -errno;
		close(fd);
		if (nfd < 0)
			return r;
		fd = nfd;
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "%s%s",
			 strcmp(dir, "/") ? "/" : "", comp);
		comp = strtok_r(NULL, "/", &save);
	}
}

int imagefile_open(const char *path, int flags, uid_t owner, char *ret_bad, size_t len)
{
	const char *base = strrchr(path, '/');
	struct stat st;
	int dfd, fd, r;

	dfd = imagefile_open_dir(path, owner, ret_bad, len);
	if (dfd < 0)
		return dfd;
	/* O_NONBLOCK: a FIFO put there must not hang us; it is refused below */
	fd = openat(dfd, base ? base + 1 : path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	r = -errno;
	close(dfd);
	if (fd < 0)
		return r;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = -EINVAL;
	else
		r = owner_mode_ok(&st, owner, 1);
	if (r == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/* pread()/pwrite() of one aligned page with O_DIRECT, buffered where refused */
static int page_io(int fd, void *page, uint32_t ps, uint64_t off, int write)
{
	int fl = fcntl(fd, F_GETFL), direct = 0;
	ssize_t n;

	if (fl >= 0 && !(fl & O_DIRECT) && fcntl(fd, F_SETFL, fl | O_DIRECT) == 0)
		direct = 1;
	for (;;) {
		n = write ? pwrite(fd, page, ps, (off_t)off) : pread(fd, page, ps, (off_t)off);
		if (n < 0 && errno == EINVAL && direct) {
			(void)fcntl(fd, F_SETFL, fl);
			direct = 0;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	if (direct)
		(void)fcntl(fd, F_SETFL, fl);
	if (n < 0)
		return -errno;
	return (size_t)n == ps ? 0 : -EIO;
}

int imagefile_header_check(int fd, uint64_t off, uint32_t ps, int fix)
{
	struct torpor_root root;
	const char *sig = SWAP_SIG;
	void *page;
	int r;

	if (posix_memalign(&page, 4096, ps))
		return -ENOMEM;
	r = page_io(fd, page, ps, off, 0);
	if (r < 0)
		goto out;
	switch (image_classify(page, ps)) {
	case IMAGE_SIG_SWAP:
		r = 0;
		goto out;
	case IMAGE_SIG_TORPOR:
		break;
	default:
		r = -EMEDIUMTYPE;
		goto out;
	}
	r = 1;
	if (!fix)
		goto out;
	/* as torpor-resume's loader_invalidate() */
	if (image_root_decode(page, ps, &root) == 0 &&
	    (!memcmp(root.orig_sig, SWAP_SIG, 10) || !memcmp(root.orig_sig, SWAP_SIG_OLD, 10)))
		sig = root.orig_sig;
	memset((uint8_t *)page + TORPOR_ROOT_OFFSET, 0, sizeof(struct torpor_root));
	memcpy((uint8_t *)page + ps - TORPOR_SIG_LEN, sig, 10);
	r = page_io(fd, page, ps, off, 1);
	if (r == 0 && fdatasync(fd) < 0)
		r = -errno;
	if (r == 0)
		r = 1;
out:
	free(page);
	return r;
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

/*
 * The kernel parameters that name @loc, in @buf: "resume=UUID=... resume_offset=N",
 * else (no UUID, an unreadable device, a UUID that several devices carry)
 * "resume=/dev/NAME resume_offset=N".
 * Return: 1 with the UUID, 0 without it, -ENOTUNIQ when another device carries
 * it too (@ret_spec, of @spec_len, gets "UUID=..."), -errno from reading the device.
 */
static int format_line(const struct imagefile_loc *loc, char *buf, size_t len,
		       char *ret_spec, size_t spec_len)
{
	struct hib_target t;
	struct probe_id id;
	char dname[64], spec[48];
	dev_t dev;
	int r;

	memset(&t, 0, sizeof(t));
	t.dev = loc->dev;
	t.is_file = 1;
	t.offset_pages = loc->offset_pages;
	memset(&id, 0, sizeof(id));
	devname_name(loc->dev, dname, sizeof(dname));
	r = devname_probe(loc->dev, &id);
	if (r >= 0 && printcmd_format(&t, r ? &id : &(struct probe_id){ 0 }, buf, len) == 0) {
		/* "resume=UUID=<36> resume_offset=N": the next boot must find one device */
		snprintf(spec, sizeof(spec), "%.41s", buf + strlen("resume="));
		if (devname_resolve(spec, &dev) != -ENOTUNIQ) {
			skipsay(spec);
			return 1;
		}
		if (ret_spec)
			snprintf(ret_spec, spec_len, "%s", spec);
		r = -ENOTUNIQ;
	}
	snprintf(buf, len, "resume=%s resume_offset=%llu", dname,
		 (unsigned long long)loc->offset_pages);
	return r < 0 ? r : 0;
}

/* The resume= line of @loc, on stdout; 0 or -errno (reported). */
static int print_line(const char *path, const struct imagefile_loc *loc)
{
	char line[160], dname[64], spec[48];
	int r;

	devname_name(loc->dev, dname, sizeof(dname));
	r = format_line(loc, line, sizeof(line), spec, sizeof(spec));
	if (r == -ENOTUNIQ) {
		hibernate_say_ambiguous(spec);
		return r;
	}
	if (r < 0) {
		msg_error("cannot read %s, the filesystem of '%s': %s", dname, path,
			  msg_errname(r));
		return r;
	}
	if (r == 0) {
		msg_error("the filesystem of '%s' on %s has no UUID to name it by", path, dname);
		msg_hint("add %s to the kernel command line", line);
		return -ENOENT;
	}
	printf("%s\n", line);
	return fflush(stdout) == 0 ? 0 : -EIO;
}

/* imagefile_open() or imagefile_open_dir() refused @path with @r: say why */
static void say_open_error(const char *path, int r, const char *bad)
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

static void say_create_error(const char *path, uint64_t bytes, int r, int fd_dir)
{
	const char *fsname = "?", *why = SWAP_NO;
	struct statfs sf;

	if (r == -EOPNOTSUPP) {
		if (fd_dir >= 0)
			(void)imagefile_fs_check(fd_dir, &fsname, &why);
		msg_error("cannot make image file '%s' on %s: %s", path, fsname,
			  why ? why : SWAP_NO);
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
		say_open_error(path, dfd, dir);
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
	r = print_line(path, &loc);
out:
	if (dfd >= 0)
		close(dfd);
	return r;
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

/* swapoff after the hibernation, by @kpath (/proc/self/fd/N); 0, or -errno when the
 * file stays active (reported) */
static int deactivate(const char *kpath, const char *path)
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

size_t imagefile_sample_pages(uint64_t pages, uint64_t *ret, size_t cap)
{
	uint64_t even = 0, pow = 2, next;
	size_t n = 0, i = 0;

	if (pages < 2)
		return 0;
	/* merge two ascending series: 1 + i * (pages - 2) / 63, and 2, 4, 8, ... */
	while (n < cap) {
		even = i < 64 ? 1 + i * (pages - 2) / 63 : UINT64_MAX;
		next = pow < pages - 1 && pow < even ? pow : even;
		if (next == UINT64_MAX)
			break;
		if (!n || ret[n - 1] != next)
			ret[n++] = next;
		if (next == pow)
			pow *= 2;
		else
			i++;
	}
	return n;
}

int imagefile_pages_zero(int fd, const uint64_t *offs, size_t n, uint32_t ps)
{
	uint64_t *w;
	size_t i, j;
	ssize_t got;
	void *page;
	int r = 1;

	if (posix_memalign(&page, 4096, ps))
		return -ENOMEM;
	w = page;
	for (i = 0; i < n && r == 1; i++) {
		while ((got = pread(fd, page, ps, (off_t)offs[i])) < 0 && errno == EINTR)
			;
		if (got < 0)
			r = -errno;
		else if ((size_t)got != ps)
			r = -EIO;
		for (j = 0; r == 1 && j < ps / sizeof(*w); j++)
			if (w[j])
				r = 0;
	}
	free(page);
	return r;
}

/* Every sampled page of @f's file, read from @f->dev_fd: 1 zeroes, 0 data, -errno */
static int verify_zero(const struct imagefile_forget *f)
{
	uint64_t pages[IMAGEFILE_SAMPLES_MAX];
	size_t n, i;
	int r;

	if (f->dev_fd < 0)
		return -ENODEV;
	n = imagefile_sample_pages(f->loc->bytes / f->ps, pages, IMAGEFILE_SAMPLES_MAX);
	for (i = 0; i < n; i++) {
		r = f->where(f->fd, pages[i] * f->ps, &pages[i]);
		if (r < 0)
			return r;
	}
	return imagefile_pages_zero(f->dev_fd, pages, n, f->ps);
}

/* Is the open file @fd still where @loc says (device, first page, inode)?  0, -ESTALE */
static int still_there(int fd, const struct imagefile_loc *loc)
{
	struct imagefile_loc now;
	int r = imagefile_locate_fd(fd, &now);

	if (r < 0)
		return r;
	if (now.dev != loc->dev || now.offset_pages != loc->offset_pages ||
	    now.st_dev != loc->st_dev || now.st_ino != loc->st_ino)
		return -ESTALE;
	return 0;
}

/* Zeroes over pages 1.. of @f's file, in place: -EBUSY (a shared extent), -ESTALE (moved) */
static int zero_in_place(const struct imagefile_forget *f)
{
	int r;

	r = extents_shared(f->fd, f->loc->bytes);
	if (r > 0)
		return -EBUSY;
	r = r < 0 ? r : still_there(f->fd, f->loc);
	r = r < 0 ? r : imagefile_zero(f->fd, f->ps, f->loc->bytes);
	return r < 0 ? r : still_there(f->fd, f->loc);
}

int imagefile_forget(const struct imagefile_forget *f, struct imagefile_forgot *ret)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	if (f->discard) {
		r = f->discard(f->ctx);
		ret->discard_err = r < 0 ? r : 0;
		if (r == -EBUSY)
			return r;	/* the file stays active: no writing to it */
		if (r == 0) {
			ret->verify = verify_zero(f);
			if (ret->verify == 1) {
				ret->how = IMAGEFILE_DISCARDED;
				return 0;
			}
		}
	}
	r = zero_in_place(f);
	if (r < 0)
		return r;
	ret->how = f->discard ? IMAGEFILE_ZEROED_AFTER_DISCARD : IMAGEFILE_ZEROED;
	return 0;
}

/* The byte on the filesystem's device of byte @off of the open image file @fd */
static int file_where(int fd, uint64_t off, uint64_t *ret_dev_off)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[1];
	} q;
	uint64_t phys;
	int r;

	memset(&q, 0, sizeof(q));
	q.fm.fm_start = off;
	q.fm.fm_length = 1;
	q.fm.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &q.fm) < 0)
		return -errno;
	if (q.fm.fm_mapped_extents < 1 || q.ext[0].fe_logical > off ||
	    q.ext[0].fe_logical + q.ext[0].fe_length <= off ||
	    (q.ext[0].fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_ENCODED |
				  FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED)))
		return -EMEDIUMTYPE;
	phys = q.ext[0].fe_physical + (off - q.ext[0].fe_logical);
	r = btrfsmap_is_btrfs(fd);
	if (r < 0)
		return r;
	/* btrfs answers its own logical addresses */
	if (r)
		return btrfsmap_logical_physical(fd, phys, ret_dev_off);
	*ret_dev_off = phys;
	return 0;
}

struct discard_ctx {
	const char *kpath;		/* /proc/self/fd/N */
	const char *path;		/* for messages */
};

/*
 * The kernel's discard: swapon() with SWAP_FLAG_DISCARD_ONCE discards every
 * extent of the area but its header, through the very extent map the image was
 * written through; then swapoff().  0 or -errno (a swapoff failure reported).
 */
static int kernel_discard(void *ctx)
{
	const struct discard_ctx *c = ctx;

	if (swapon(c->kpath, SWAP_FLAG_DISCARD | SWAP_FLAG_DISCARD_ONCE) < 0)
		return -errno;
	return deactivate(c->kpath, c->path) < 0 ? -EBUSY : 0;
}

/* Say how imagefile_forget() went, or why it failed with @r */
static void say_forgot(const char *path, const struct imagefile_loc *loc,
		       const struct imagefile_forgot *h, int r, double t0)
{
	if (h->discard_err && h->discard_err != -EBUSY)
		msg_warn("cannot discard image file '%s': swapon: %s; zeroing it instead",
			 path, msg_errname(h->discard_err));
	else if (!h->discard_err && h->how != IMAGEFILE_DISCARDED && h->verify == 0)
		msg_warn("the discard of image file '%s' left data in it (the device ignores "
			 "discards or does not read them back as zeroes): zeroing it instead",
			 path);
	else if (!h->discard_err && h->how != IMAGEFILE_DISCARDED && h->verify < 0)
		msg_warn("cannot read back image file '%s' after the discard (%s): zeroing it "
			 "instead", path, msg_errname(h->verify));
	if (r == -EBUSY && h->discard_err == -EBUSY)
		return;		/* the file stays active: deactivate() said so */
	if (r == -EBUSY) {
		msg_error("image file '%s' shares blocks with another file (a snapshot or a "
			  "copy): zeroing it would move it; the image's pages stay", path);
		msg_hint("delete the snapshot or copy, then make the file again with "
			 "'torpor-suspend --setup-image-file'");
	} else if (r == -ESTALE) {
		msg_error("image file '%s' is no longer where the image was written", path);
		msg_hint("run 'torpor-suspend --print-cmdline' and correct resume_offset=");
	} else if (r < 0) {
		msg_error("cannot zero image file '%s': %s; some of the image's pages stay",
			  path, msg_errname(r));
	} else if (h->how == IMAGEFILE_DISCARDED) {
		msg_info("discarded the image's pages in '%s' (%.1f s)", path, mono_s() - t0);
	} else {
		msg_info("zeroed the image's pages in '%s' (%llu MiB, %.1f s; the device does "
			 "not discard%s)", path, MIB(loc->bytes), mono_s() - t0,
			 h->how == IMAGEFILE_ZEROED ? "" : " reliably");
	}
}

/*
 * discard_after_resume: forget the image's pages in the (inactive) file @fd, by
 * the kernel's discard where the device discards, proven by reading pages back
 * from the device (the swap writes went past the filesystem: through the file,
 * preallocated extents read as zeroes whatever the disk holds), else by zeroes
 * written in place.  We never write to the block device under a mounted
 * filesystem.  0 or -errno (reported).
 */
static int forget_pages(const char *path, const char *kpath, int fd,
			const struct imagefile_loc *loc)
{
	struct discard_ctx c = { kpath, path };
	struct imagefile_forget f;
	struct imagefile_forgot h;
	double t0 = mono_s();
	int r;

	memset(&f, 0, sizeof(f));
	f.fd = fd;
	f.loc = loc;
	f.ps = (uint32_t)sysconf(_SC_PAGESIZE);
	f.where = file_where;
	f.ctx = &c;
	r = imagefile_discard_supported("/sys/dev/block", loc->dev);
	if (r > 0) {
		f.discard = kernel_discard;
		f.dev_fd = devname_open(loc->dev, O_RDONLY | O_DIRECT);
		if (f.dev_fd == -EINVAL)
			f.dev_fd = devname_open(loc->dev, O_RDONLY);
	} else {
		f.dev_fd = -1;
		if (r < 0)
			msg_debug("cannot tell whether %u:%u discards (%s): zeroing instead",
				  major(loc->dev), minor(loc->dev), msg_errname(r));
	}
	r = imagefile_forget(&f, &h);
	if (f.dev_fd >= 0)
		close(f.dev_fd);
	say_forgot(path, loc, &h, r, t0);
	return r;
}

/* imagefile_hibernate_run() under the abort signals' flag, after every check */
static int image_file_run(struct hib_opts *o, const char *path, int fd,
			  const struct imagefile_loc *loc, int active, int discard)
{
	char kpath[64];
	double t0;
	int r;

	/* the kernel opens the very file checked: no path to swap in between */
	snprintf(kpath, sizeof(kpath), "/proc/self/fd/%d", fd);
	if (!active) {
		t0 = mono_s();
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
			(void)deactivate(kpath, path);
			return -ESTALE;
		}
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
	if (deactivate(kpath, path) < 0) {
		if (discard)
			msg_warn("image file '%s' is still active: its pages are not discarded",
				 path);
		return r;
	}
	if (discard)
		(void)forget_pages(path, kpath, fd, loc);
	return r;
}

/*
 * The next boot looks where resume= and resume_offset= of the kernel command
 * line point (imagefile_cmdline_check()); torpor.conf and the options may name
 * the place too, and then it must be the file's.  0 or -errno (reported).
 */
int imagefile_check_resume(const struct hib_opts *o, const char *path,
			   const struct imagefile_loc *loc)
{
	unsigned long long page = loc->offset_pages;
	dev_t dev;
	int r;

	r = o->resume[0] ? devname_resolve(o->resume, &dev) : 0;
	if (r == -ENOTUNIQ) {
		hibernate_say_ambiguous(o->resume);
		return r;
	}
	if (o->resume[0])
		skipsay(o->resume);
	if (o->resume[0] && (r < 0 || dev != loc->dev)) {
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
	return 0;
}

int imagefile_cmdline_check(const char *cmdline_path, const char *path,
			    const struct imagefile_loc *loc)
{
	struct torpor_cmdline cl;
	char line[160], what[CMDLINE_RESUME_MAX + 96];
	dev_t dev;
	int r;

	r = cmdline_read(cmdline_path, &cl);
	if (r < 0)
		snprintf(what, sizeof(what), "cannot read %s: %s", cmdline_path, msg_errname(r));
	else if (cl.noresume)
		snprintf(what, sizeof(what), "it has noresume (or nohibernate, hibernate=no): "
			 "the next boot would discard the image");
	else if (cl.malformed_why)
		snprintf(what, sizeof(what), "%s: the next boot would discard the image",
			 cl.malformed_why);
	else if (cl.resume_bad || cl.resume_offset_bad)
		snprintf(what, sizeof(what), "its %s is malformed",
			 cl.resume_bad ? "resume=" : "resume_offset=");
	else if (!cl.resume[0])
		snprintf(what, sizeof(what), "it has no resume=");
	else if ((r = devname_resolve(cl.resume, &dev)) == -ENOTUNIQ)
		snprintf(what, sizeof(what), "its resume=%s names several devices (a copy of "
			 "a disk?): the next boot would discard the image", cl.resume);
	else if (r < 0 || dev != loc->dev)
		snprintf(what, sizeof(what), "its resume=%s does not name the file's "
			 "filesystem", cl.resume);
	else if (!cl.has_resume_offset)
		snprintf(what, sizeof(what), "it has no resume_offset=");
	else if (cl.resume_offset != loc->offset_pages)
		snprintf(what, sizeof(what), "its resume_offset=%llu is not the file's first "
			 "page, %llu", cl.resume_offset, (unsigned long long)loc->offset_pages);
	else
		return 0;
	msg_error("the kernel command line does not name image file '%s' (%s): the next "
		  "boot would not find the image", path, what);
	(void)format_line(loc, line, sizeof(line), NULL, 0);
	msg_hint("put %s on the kernel command line (in place of any resume= and "
		 "resume_offset=), rebuild the initramfs and reboot", line);
	return -EINVAL;
}

/*
 * The image file's header page where the next boot reads it: through the block
 * device at the file's first page (a write through the file may be copied
 * elsewhere on btrfs or xfs; --check looks there too), through the file only
 * where the device cannot be opened.  With @fix a leftover image is invalidated
 * there and the file's cached first page dropped (swapon reads the header
 * through it).  As imagefile_header_check().
 */
static int header_on_disk(int fd, const struct imagefile_loc *loc, uint32_t ps, int fix)
{
	int mode = fix ? O_RDWR : O_RDONLY, dev_fd, r;

	dev_fd = devname_open(loc->dev, mode | O_DIRECT);
	if (dev_fd < 0)
		dev_fd = devname_open(loc->dev, mode);
	if (dev_fd < 0)
		return imagefile_header_check(fd, 0, ps, fix);
	r = imagefile_header_check(dev_fd, loc->offset_pages * ps, ps, fix);
	close(dev_fd);
	if (fix)
		(void)posix_fadvise(fd, 0, ps, POSIX_FADV_DONTNEED);
	return r;
}

/* The image file's checks before anything is activated; 0 or -errno (reported) */
static int prepare(struct hib_opts *o, const char *path, int fd,
		   const struct imagefile_loc *loc, int *ret_active)
{
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	char line[160];
	int r;

	r = imagefile_check_resume(o, path, loc);
	r = r < 0 ? r : imagefile_cmdline_check("/proc/cmdline", path, loc);
	/* before the file is activated; hibernate_run() does not read it again */
	r = r < 0 ? r : hibernate_check_initramfs(o);
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
	r = header_on_disk(fd, loc, ps, 1);
	if (r == 1) {
		(void)format_line(loc, line, sizeof(line), NULL, 0);
		msg_warn("an image that no boot resumed was left in '%s': discarded", path);
		msg_hint("the boot after a hibernation must have %s on its kernel command line, "
			 "and torpor in its initramfs", line);
		return 0;
	}
	if (r == -EMEDIUMTYPE) {
		msg_error("image file '%s' has no swap signature: not a swap area", path);
		msg_hint("make it again with 'torpor-suspend --setup-image-file', then correct "
			 "resume_offset= ('torpor-suspend --print-cmdline')");
	} else if (r < 0) {
		msg_error("cannot %s the header of image file '%s': %s", r == -EIO ? "read" :
			  "read or restore", path, msg_errname(r));
	}
	return r;
}

/* Open image file @path checked, and locate it; the descriptor or -errno (reported) */
static int open_located(const char *path, int flags, struct imagefile_loc *loc)
{
	const char *fsname = "?", *why = NULL;
	struct imagefile_loc by_path;
	char bad[PATH_MAX];
	int fd, r;

	r = locate_and_warn(path, &by_path);
	if (r < 0)
		return r;
	fd = imagefile_open(path, flags, IMAGEFILE_OWNER, bad, sizeof(bad));
	if (fd < 0) {
		say_open_error(path, fd, bad);
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

int imagefile_hibernate_run(const struct hib_opts *opts, const char *path, int discard)
{
	struct hib_opts o = *opts;
	struct imagefile_loc loc;
	int r, fd, active = 0, sig;

	if (geteuid() != 0) {
		msg_error("hibernating needs root");
		msg_hint("run 'sudo torpor-suspend'");
		return -EPERM;
	}
	/* refused where hibernate_run() would refuse, before the file is activated */
	r = hibernate_check_namespaces();
	if (r < 0)
		return r;
	fd = open_located(path, O_RDWR, &loc);
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
	fd = open_located(path, O_RDONLY, &loc);
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
	r = active > 0 ? 0 : header_on_disk(fd, &loc, (uint32_t)sysconf(_SC_PAGESIZE), 0);
	if (r == 1) {
		msg_error("image file '%s' holds an image that no boot resumed: the boot after "
			  "the hibernation did not look there", path);
		msg_hint("hibernating discards it; check the kernel command line below, and "
			 "that the initramfs has torpor");
	} else if (r == -EMEDIUMTYPE) {
		msg_error("image file '%s' has no swap signature: not a swap area", path);
		msg_hint("make it again with 'torpor-suspend --setup-image-file'");
	} else if (r < 0) {
		msg_error("cannot read the header of image file '%s': %s", path,
			  msg_errname(r));
	}
	if (loc.bytes < want)
		msg_warn("image file '%s' is %llu MiB, less than half of RAM (%llu MiB): a "
			 "large image may not fit", path, MIB(loc.bytes), MIB(want));
	if (imagefile_cmdline_check("/proc/cmdline", path, &loc) < 0 && r == 0)
		r = -EINVAL;
	if (hibernate_check_initramfs(o) < 0 && r == 0)
		r = -ENOEXEC;
	if (r == 0)
		msg_info("ready to hibernate to image file '%s' (%llu MiB, %s): "
			 "resume_offset=%llu", path, MIB(loc.bytes), active > 0 ? "active" :
			 "activated only while hibernating", (unsigned long long)loc.offset_pages);
out:
	close(fd);
	return r < 0 ? r : (r ? -EEXIST : 0);
}

int imagefile_print_cmdline(const char *path)
{
	struct imagefile_loc loc;
	int r;

	r = locate_and_warn(path, &loc);
	return r < 0 ? r : print_line(path, &loc);
}
