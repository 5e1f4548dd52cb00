/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * imagefile.h - an image file on the root filesystem, swap only while the image
 * is written: for machines that swap to zram alone, which cannot hold an image
 */
#ifndef SUSPEND_IMAGEFILE_H
#define SUSPEND_IMAGEFILE_H

#include <stdint.h>
#include <sys/types.h>

#include "hibernate.h"

#define IMAGEFILE_DEFAULT	"/var/lib/torpor/image"
#define IMAGEFILE_MIN_BYTES	(1u << 20)	/* a header page and a few of the image */
#define IMAGEFILE_OWNER		0		/* who may own the file and its directories */
#define IMAGEFILE_SAMPLES_MAX	160		/* pages read back after a discard */

/* What a hibernation and the kernel command line need to know of the file. */
struct imagefile_loc {
	dev_t dev;			/* the filesystem's block device */
	uint64_t offset_pages;		/* the file's first page on it: resume_offset= */
	uint64_t bytes;			/* the file's size */
	dev_t st_dev;			/* fstat()'s: the file itself */
	ino_t st_ino;
};

/* Half of RAM, rounded up to a MiB: the default size (see imagefile.c).  Bytes. */
uint64_t imagefile_default_bytes(void);

/**
 * imagefile_fs_check() - can an image file live on the filesystem of @fd?
 * @ret_name: the filesystem's name, for messages ("tmpfs", "nfs", ...)
 * @ret_why: when not, why, for messages
 *
 * Return: 0; -EOPNOTSUPP when it cannot: the kernel cannot swap to a file
 * there (not a filesystem that maps a file to blocks of one device), or torpor
 * cannot stamp it (f2fs: a mount by a boot without torpor would go unseen);
 * -errno from fstatfs().
 */
int imagefile_fs_check(int fd, const char **ret_name, const char **ret_why);
int imagefile_fs_by_magic(unsigned long magic, const char **ret_name, const char **ret_why);

/**
 * imagefile_extents_check() - does the file @fd have a block for each of its @bytes?
 * Return: 0; -EMEDIUMTYPE for a hole, a delayed, inline or encoded (compressed)
 * extent; -errno from FIEMAP.
 */
int imagefile_extents_check(int fd, uint64_t bytes);

/**
 * imagefile_create() - make @path a preallocated swap file of @bytes (rounded
 * up to a page): written aside as PATH.new (0600, root's when we are root, NOCOW
 * on btrfs before any data, fallocate(), swap header, fsync) and renamed over @path.
 * Return: 0; -EOPNOTSUPP (filesystem, see imagefile_fs_check()), -EMEDIUMTYPE
 * (holes), -ENOSPC, -EXDEV (btrfs of several devices or RAID), -errno.  Silent.
 */
int imagefile_create(const char *path, uint64_t bytes, struct imagefile_loc *ret);

/**
 * imagefile_locate() - the device, first page and size of the image file @path
 * (opened with O_NOFOLLOW: a symbolic link is -ELOOP)
 * Return: 0; -EMEDIUMTYPE when its first block cannot be named; -EXDEV as above;
 * -EINVAL when it is not a regular file; -errno.  Silent.
 */
int imagefile_locate(const char *path, struct imagefile_loc *ret);

/* imagefile_locate() of the open file @fd. */
int imagefile_locate_fd(int fd, struct imagefile_loc *ret);

/* Is @path an active swap area (by device and inode)?  1, 0, or -errno. */
int imagefile_is_active(const char *path);

/* Is the open file @fd an active swap area?  1, 0, or -errno. */
int imagefile_fd_is_active(int fd);

/**
 * imagefile_open_dir() - the folder of image file @path, every folder on the way
 * checked: from / down (symbolic links resolved first, then walked with
 * O_NOFOLLOW), each must be owned by root or @owner and not writable by group
 * or others (a sticky world-writable /tmp neither), so that nobody else can
 * move the file or what leads to it.  @owner is IMAGEFILE_OWNER but in tests.
 * @ret_bad: the folder refused, "" otherwise
 * Return: an O_PATH descriptor of the folder; -EPERM (owned by another user),
 * -EACCES (writable by group or others), -EINVAL (@path not absolute), -errno.
 * Silent.
 */
int imagefile_open_dir(const char *path, uid_t owner, char *ret_bad, size_t len);

/*
 * imagefile_trust_dir() - tests only: take the folders from / down to @dir (a
 * resolved path) as checked, so that a test under any checkout (below /tmp, a
 * group-writable home) checks only the folders it makes.  NULL: check all.
 */
void imagefile_trust_dir(const char *dir);

/**
 * imagefile_open() - open image file @path once, for every later step
 * @flags: O_RDONLY or O_RDWR (O_NOFOLLOW and O_CLOEXEC are added)
 * @owner, @ret_bad: as imagefile_open_dir(); @ret_bad is "" when the file
 * itself is refused
 * The folders are checked (imagefile_open_dir()), then the file: a regular file
 * owned by root (or @owner), without group or other permission bits.
 * Return: the descriptor; -EPERM, -EACCES as above (of the file when @ret_bad
 * is ""); -EINVAL (not a regular file); -ELOOP (a symbolic link); -errno.  Silent.
 */
int imagefile_open(const char *path, int flags, uid_t owner, char *ret_bad, size_t len);

/**
 * imagefile_header_check() - what the image file's header page holds
 * @fd, @off: the file itself and 0, or better its filesystem's block device and
 *       the byte offset of the file's first page there (resume_offset= x page
 *       size): the page the next boot reads, where a write through the file
 *       could land elsewhere (a copy-on-write of a reflinked or snapshotted
 *       extent on btrfs or xfs)
 * @fix: put the swap signature back over a leftover image (as torpor-resume
 *       does when it consumes one: the root record cleared, the signature
 *       recorded in it, else SWAPSPACE2, restored) and fdatasync()
 * Read and written with O_DIRECT where allowed (the image's root went to the
 * disk past the file's page cache).
 * Return: 0 (a swap header), 1 (torpor's signature: an image no boot consumed;
 * invalidated with @fix), -EMEDIUMTYPE (neither), -errno.  Silent.
 */
int imagefile_header_check(int fd, uint64_t off, uint32_t ps, int fix);

/**
 * imagefile_cmdline_check() - do resume= and resume_offset= in @cmdline_path
 * ("/proc/cmdline") name image file @path at @loc?
 * Only the running kernel's command line counts: the next boot keeps it, and
 * neither torpor.conf nor an option changes where that boot looks.
 * Return: 0, or -EINVAL (reported, with the parameters to add).
 */
int imagefile_cmdline_check(const char *cmdline_path, const char *path,
			    const struct imagefile_loc *loc);

/**
 * imagefile_sample_pages() - the pages read back after a discard, of a file of
 * @pages pages: the first and last after the header, 64 spread evenly between
 * them, and each power of two (the kernel hands out a fresh area's slots from
 * its start, so a small image lies there).  Ascending, no duplicates.
 * Return: how many were put in @ret (at most @cap).
 */
size_t imagefile_sample_pages(uint64_t pages, uint64_t *ret, size_t cap);

/**
 * imagefile_pages_zero() - do the @n pages of @ps bytes at byte offsets @offs
 * of @fd read as zeroes?
 * Return: 1 (all of them), 0 (one does not), -errno.
 */
int imagefile_pages_zero(int fd, const uint64_t *offs, size_t n, uint32_t ps);

/* How imagefile_forget() forgot the image's pages. */
enum imagefile_forgot_how {
	IMAGEFILE_DISCARDED = 1,	/* discarded, and the samples read back as zeroes */
	IMAGEFILE_ZEROED,		/* overwritten: the device does not discard */
	IMAGEFILE_ZEROED_AFTER_DISCARD,	/* overwritten: the discard failed or left data */
};

struct imagefile_forgot {
	enum imagefile_forgot_how how;
	int discard_err;		/* the discard's -errno, else 0 */
	int verify;			/* after a discard: 1 zeroes, 0 data left, -errno */
};

/* What imagefile_forget() works on; the callbacks are fakes in tests. */
struct imagefile_forget {
	int fd;				/* the image file, open for writing */
	int dev_fd;			/* where its pages are read back, -1 for nowhere */
	const struct imagefile_loc *loc;
	uint32_t ps;
	/* the byte of @dev_fd that holds byte @off of file @fd: 0 or -errno */
	int (*where)(int fd, uint64_t off, uint64_t *ret_dev_off);
	/* discard every page but the header: 0 or -errno (-EBUSY: the file is
	 * left active, and imagefile_forget() stops); NULL: the device cannot */
	int (*discard)(void *ctx);
	void *ctx;
};

/**
 * imagefile_forget() - discard_after_resume: discard the image's pages, and
 * prove it by reading a sample back (imagefile_sample_pages()) from the device:
 * a discard the device ignores, or after which it does not read zeroes, leaves
 * the data there.  Without that proof, or without discard, the pages are
 * overwritten with zeroes in place, through @f->fd, unless an extent is shared
 * (a snapshot, a reflink: -EBUSY) or the file is not (or no longer) where @f->loc
 * says (-ESTALE).  Silent but for what @f->discard says.
 * Return: 0 with @ret filled, or -errno (with @ret's discard_err and verify).
 */
int imagefile_forget(const struct imagefile_forget *f, struct imagefile_forgot *ret);

/**
 * imagefile_setup_run() - torpor-suspend --setup-image-file[=SIZE]
 * @path: the file; @bytes: its size, 0 for imagefile_default_bytes()
 * Prints the kernel parameters on stdout.  Return: 0 or -errno (reported).
 */
int imagefile_setup_run(const char *path, uint64_t bytes);

/**
 * imagefile_hibernate_run() - hibernate into the image file @path
 * @o: the options; the resume device and offset are replaced by the file's
 *
 * Before anything is activated: the namespace and chroot checks, the file and
 * its folders (imagefile_open()), the options and the kernel command line
 * (imagefile_check_resume(), imagefile_cmdline_check()), and an image that no
 * boot consumed is invalidated (imagefile_header_check()).
 * swapon(2) the file (by /proc/self/fd/N of the descriptor checked) unless it
 * is active already (at the default, lowest
 * priority: zram stays preferred for ordinary swapping), hibernate_run() into
 * it, swapoff(2) it again after the resume and after any failure.  A file that
 * was active before is left active.  With @discard (discard_after_resume),
 * then the file's pages (all but its header) are discarded where the device
 * can, else overwritten with zeroes, so that memory contents do not stay on
 * disk; a failure there is reported and does not change the result.
 * Return: hibernate_run()'s, or -errno (reported).
 */
int imagefile_hibernate_run(const struct hib_opts *o, const char *path, int discard);

/**
 * imagefile_check_resume() - do the resume device and offset that torpor.conf
 * or the options give (if any) name the image file at @loc?
 * @o: resume and resume_offset from the options and the file only (the kernel
 * command line is imagefile_cmdline_check()'s)
 * Return: 0 (none given is fine), -EINVAL (resume names another device),
 * -ERANGE (resume_offset is not the file's first page); reported.
 */
int imagefile_check_resume(const struct hib_opts *o, const char *path,
			   const struct imagefile_loc *loc);

/**
 * imagefile_discard_supported() - does the block device @dev discard?
 * @sys_dev_block: "/sys/dev/block" (a directory of the same shape in tests)
 * Return: 1, 0 (discard_max_bytes is 0), -errno (no such file, not a number).
 */
int imagefile_discard_supported(const char *sys_dev_block, dev_t dev);

/**
 * imagefile_zero() - overwrite pages 1.. of the @bytes of open file @fd with
 * zeroes (the header page stays), in place, and fdatasync().  0 or -errno.
 */
int imagefile_zero(int fd, uint32_t ps, uint64_t bytes);

/*
 * --check with an image file: zram, the file, its size and place, and the
 * initramfs (@o's initramfs, no_initramfs).  0 or -errno (reported).
 */
int imagefile_check_run(const char *path, const struct hib_opts *o);

/* --print-cmdline with an image file.  0 or -errno (reported). */
int imagefile_print_cmdline(const char *path);

#endif
