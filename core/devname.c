// SPDX-License-Identifier: GPL-2.0-only
/*
 * devname.c - resolve resume= to a device number, and open that device safely
 *
 * The resume side runs in an initramfs that may have no udev, so every tag
 * (UUID=, LABEL=, PARTUUID=, PARTLABEL=) has two routes: the /dev/disk/by-*
 * link when udev made one, else a scan of /sys/class/block that reads each
 * device's first 68 KiB (swap, ext2/3/4, xfs and btrfs superblocks) and looks
 * for an md member superblock, or reads its parent disk's partition table (GPT,
 * MBR).  The bytes are parsed in probe.c; this file finds, opens and reads the
 * devices.
 *
 * Nodes are never trusted by name either: devname_open() checks that what it
 * opened is the block device it asked for.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "blkio.h"
#include "deadline.h"
#include "decimal.h"
#include "devname.h"
#include "fsstamp.h"
#include "msg.h"
#include "probe.h"
#include "sysblock.h"
#include "udevdb.h"
#include "util.h"

#define PRINTF_FMT(f, a)	__attribute__((format(printf, f, a)))
#define NODE_NAME_MAX		256
#define TAG_VALUE_MAX		256
#define SLOW_MAX		64	/* devices remembered as not answering */
#define SKIPS_MAX		16	/* devices one lookup says it skipped */

const char *devname_root = "";
unsigned int devname_probe_ms = DEVNAME_PROBE_MS;
pid_t (*devname_fork)(void);

/*
 * Devices whose probe missed its deadline: not read again by this process,
 * so that a dead disk costs one deadline, not one per lookup (torpor-resume
 * looks again every 100 ms while it waits).  @pid: the reader, killed, until
 * it is reaped.
 */
static struct {
	dev_t dev;
	pid_t pid;
} slow[SLOW_MAX];
static size_t nr_slow;

/* What the current lookup skipped, for devname_skipped(). */
static struct devname_skip skips[SKIPS_MAX];
static size_t nr_skips;

enum lookup {
	LK_UUID,
	LK_LABEL,
	LK_PARTUUID,
	LK_PARTLABEL,
	LK_DMNAME,
};

/* What a scan of /sys/class/block looks for. */
struct scan {
	enum lookup what;
	const char *value;		/* LABEL, PARTUUID, PARTLABEL or dm name */
	char norm[TAG_VALUE_MAX];	/* UUID: its hex digits in lower case */
	dev_t *all;			/* when set: every distinct match, up to @cap */
	size_t cap, n;
};

static int test_mode(void)
{
	return devname_root && devname_root[0];
}

/* the directory standing in for / ("" on a real system) */
static const char *sys_root(void)
{
	return devname_root ? devname_root : "";
}

static int vmkpath(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n, m;

	n = snprintf(buf, len, "%s", sys_root());
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	m = vsnprintf(buf + n, len - n, fmt, ap);
	if (m < 0 || (size_t)m >= len - n)
		return -ENAMETOOLONG;
	return 0;
}

static int PRINTF_FMT(3, 4) mkpath(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vmkpath(buf, len, fmt, ap);
	va_end(ap);
	return r;
}

/* Read a small (sysfs) file under the root into @buf, NUL-terminated, one trailing newline cut. */
static int PRINTF_FMT(3, 4) sys_read(char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	size_t got = 0;
	ssize_t n;
	va_list ap;
	int fd, r;

	va_start(ap, fmt);
	r = vmkpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (r < 0)
		return r;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			close(fd);
			return r;
		}
		if (n == 0)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	if (got && buf[got - 1] == '\n')
		buf[got - 1] = '\0';
	return 0;
}

static int PRINTF_FMT(2, 3) stat_block(dev_t *ret, const char *fmt, ...)
{
	char path[PATH_MAX];
	struct stat st;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vmkpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (r < 0)
		return r;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	*ret = st.st_rdev;
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int to_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* ASCII case-insensitive equality; no locale in the initramfs. */
static int eq_nocase(const char *a, const char *b)
{
	while (*a && to_lower((unsigned char)*a) == to_lower((unsigned char)*b)) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Strict decimal of exactly @n bytes, no sign, no overflow past @max. */
static int parse_uint(const char *s, size_t n, unsigned long max, unsigned long *ret)
{
	unsigned long long v;
	int r = decimal_parse(s, n, max, &v);

	if (r == 0)
		*ret = (unsigned long)v;
	return r;
}

/* "MAJ:MIN" in decimal, within the kernel's 12-bit major and 20-bit minor. */
static int parse_majmin(const char *s, dev_t *ret)
{
	const char *colon = strchr(s, ':');
	unsigned long maj = 0, min = 0;

	if (!colon || parse_uint(s, colon - s, 0xfff, &maj) < 0 ||
	    parse_uint(colon + 1, strlen(colon + 1), 0xfffff, &min) < 0)
		return -EINVAL;
	*ret = makedev(maj, min);
	return 0;
}

/* The kernel's bare hex form: new_encode_dev() of the number, e.g. fe10 = 254:16. */
static int parse_hexdev(const char *s, dev_t *ret)
{
	unsigned long v = 0;
	size_t i, n;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	n = strlen(s);
	if (n == 0 || n > 8)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		int d = hexval((unsigned char)s[i]);

		if (d < 0)
			return -EINVAL;
		v = (v << 4) | d;
	}
	if (v == 0)
		return -EINVAL;
	*ret = makedev((v & 0xfff00) >> 8, (v & 0xff) | ((v >> 12) & 0xfff00));
	return 0;
}

/* A relative path whose components are all non-empty and none is "." or "..". */
static int path_is_safe(const char *rel)
{
	const char *p = rel;

	for (;;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (!p[n])
			return 1;
		p += n + 1;
	}
}

/* The device number sysfs gives the block device called @name (no '/'). */
static int sysfs_dev_of(const char *name, dev_t *ret)
{
	char buf[32];
	int r;

	r = sys_read(buf, sizeof(buf), "/sys/class/block/%s/dev", name);
	if (r < 0)
		return r;
	return parse_majmin(buf, ret);
}

/* Whether @dev exists; without a sysfs to ask, assume it does. */
static int dev_present(dev_t dev)
{
	char path[PATH_MAX];
	struct stat st;

	if (mkpath(path, sizeof(path), "/sys/dev/block/%u:%u",
		   (unsigned int)major(dev), (unsigned int)minor(dev)) < 0)
		return -EINVAL;
	if (stat(path, &st) == 0)
		return 0;
	if (mkpath(path, sizeof(path), "/sys/dev/block") < 0 || stat(path, &st) == 0)
		return -ENOENT;
	return 0;
}

/* The value of "KEY=" at the start of a line of @text, and its length in *len; NULL if none. */
static const char *find_key(const char *text, const char *key, size_t *len)
{
	size_t k = strlen(key);
	const char *p = text;

	while (p) {
		if (!strncmp(p, key, k)) {
			*len = strcspn(p + k, "\n");
			return p + k;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The node name under /dev for @dev, from uevent DEVNAME, else the sysfs link's last part. */
static int node_name(dev_t dev, char *buf, size_t len)
{
	unsigned int maj = major(dev), min = minor(dev);
	char ue[4096], path[PATH_MAX], link[PATH_MAX];
	const char *p = NULL, *base;
	size_t i, l = 0;
	ssize_t n;

	if (sys_read(ue, sizeof(ue), "/sys/dev/block/%u:%u/uevent", maj, min) == 0)
		p = find_key(ue, "DEVNAME=", &l);
	if (!p) {
		if (mkpath(path, sizeof(path), "/sys/dev/block/%u:%u", maj, min) < 0)
			return -ENAMETOOLONG;
		n = readlink(path, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		base = strrchr(link, '/');
		p = base ? base + 1 : link;
		l = strlen(p);
	}
	if (l == 0 || l >= len)
		return -EINVAL;
	memcpy(buf, p, l);
	buf[l] = '\0';
	for (i = 0; i < l; i++) {
		if (buf[i] == '!')
			buf[i] = '/';
		if ((unsigned char)buf[i] <= ' ' || buf[i] == 0x7f)
			return -EINVAL;
	}
	return path_is_safe(buf) ? 0 : -EINVAL;
}

/* Keep @fd only if it is block device @dev (or, in tests, a regular file). */
static int check_node(int fd, dev_t dev)
{
	struct stat st;
	int r;

	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (S_ISBLK(st.st_mode) && st.st_rdev == dev)
		return fd;
	if (test_mode() && S_ISREG(st.st_mode))
		return fd;
	close(fd);
	return -ENODEV;
}

/* A directory only we can write: made 0700 by us, or already so and owned by us. */
static int private_dir(const char *dir, char *path, size_t len)
{
	struct stat st;
	int r;

	r = mkpath(path, len, "%s", dir);
	if (r < 0)
		return r;
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (lstat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

/* No devtmpfs: make our own node, open it, and remove it again at once. */
static int open_private_node(dev_t dev, int flags)
{
	static const char *const dirs[] = { "/dev/.torpor", "/run/torpor" };
	char dir[PATH_MAX], node[PATH_MAX];
	int r, err = -ENOENT, fd;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		r = private_dir(dirs[i], dir, sizeof(dir));
		if (r < 0)
			continue;
		r = snprintf(node, sizeof(node), "%s/blk-%u-%u", dir,
			     (unsigned int)major(dev), (unsigned int)minor(dev));
		if (r < 0 || (size_t)r >= sizeof(node))
			return -ENAMETOOLONG;
		(void)unlink(node);
		if (mknod(node, S_IFBLK | 0600, dev) < 0) {
			err = -errno;
			(void)rmdir(dir);
			continue;
		}
		fd = open(node, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		r = fd < 0 ? -errno : 0;
		(void)unlink(node);
		(void)rmdir(dir);
		if (fd < 0)
			return r;
		return check_node(fd, dev);
	}
	return err;
}

/* Open block device @dev by its sysfs name, checked by fstat(); kernel-doc in devname.h. */
int devname_open(dev_t dev, int flags)
{
	char name[NODE_NAME_MAX], path[PATH_MAX];
	int fd, r;

	/* O_CREAT with O_NOFOLLOW would make a regular file where the node is missing */
	flags &= ~(O_CREAT | O_TRUNC);
	if (node_name(dev, name, sizeof(name)) == 0) {
		r = mkpath(path, sizeof(path), "/dev/%s", name);
		if (r < 0)
			return r;
		fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		if (fd >= 0)
			return check_node(fd, dev);
		r = -errno;
		if (r != -ENOENT && r != -ENOTDIR)
			return r;
	}
	return open_private_node(dev, flags);
}

/* Bytes in a block device (BLKGETSIZE64) or regular file; kernel-doc in devname.h. */
int devname_size(int fd, unsigned long long *ret_bytes)
{
	struct stat st;
	uint64_t bytes;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode)) {
		*ret_bytes = st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
		return -errno;
	*ret_bytes = bytes;
	return 0;
}

/* "/dev/NAME" or "MAJ:MIN" for messages; kernel-doc in devname.h. */
const char *devname_name(dev_t dev, char *buf, size_t len)
{
	char name[NODE_NAME_MAX];

	if (len == 0)
		return buf;
	if (node_name(dev, name, sizeof(name)) == 0)
		snprintf(buf, len, "/dev/%s", name);
	else
		snprintf(buf, len, "%u:%u", (unsigned int)major(dev), (unsigned int)minor(dev));
	return buf;
}

/* probe_dev's read over an fd: exactly @len bytes at @off, -EBADMSG when the device ends first. */
static int read_exact(void *ctx, void *buf, size_t len, uint64_t off)
{
	ssize_t n = blkio_pread_upto(*(int *)ctx, buf, len, off);

	if (n < 0)
		return n;
	return (size_t)n == len ? 0 : -EBADMSG;
}

/*
 * 1 and *id when @dev holds something we recognise and is no md member
 * (assembled or not), 0 when not, -errno.
 */
static int probe_device(dev_t dev, uint8_t *buf, struct probe_id *id)
{
	unsigned long long bytes;
	struct probe_dev pd;
	ssize_t n;
	int fd, r;

	/* O_NONBLOCK: opening a CD drive must not close its tray */
	fd = devname_open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	memset(buf, 0, PROBE_HEAD_LEN);
	n = blkio_pread_upto(fd, buf, PROBE_HEAD_LEN, 0);
	if (n < 0) {
		r = n;
		goto out;
	}
	r = probe_fs(buf, n, id);
	if (r == 0)
		goto out;
	/* a RAID member not yet assembled shows the array's content, or a part of it */
	r = devname_size(fd, &bytes);
	if (r < 0)
		goto out;
	pd.read = read_exact;
	pd.ctx = &fd;
	pd.size = bytes;
	r = probe_md(&pd, buf, n);
	if (r >= 0)
		r = !r;
out:
	close(fd);
	return r;
}

/*
 * What the reader process is asked: @dev's content, its partition table's
 * entry @partno, or the stamp of the filesystem on it.
 */
struct question {
	dev_t dev;
	unsigned long partno;		/* 0: the content or the stamp */
	unsigned int sector;		/* the disk's logical sector size, for a partition */
	int stamp;			/* 1: the stamp, with @log_head */
	uint64_t log_head;		/* xfs: as fsstamp_read_buf() takes it */
};

/* What it answers: @r as probe_device(), read_partition() or read_stamp() returns it. */
struct answer {
	int r;
	struct probe_id id;
	struct probe_part part;
	struct devname_stamp stamp;
};

_Static_assert(sizeof(struct answer) <= DEADLINE_MSG_MAX, "an answer is one atomic pipe write");

static void answer(const void *question, void *out);

/* The reader of the current lookup, started at its first read (see deadline.h). */
static struct deadline_worker reader = {
	.fn = answer,
	.qlen = sizeof(struct question),
	.alen = sizeof(struct answer),
};
static unsigned int lookup_depth;

/* The reader's buffer: in the parent these pages are never touched. */
static uint8_t head[PROBE_HEAD_LEN];

/* A new lookup (they may nest): devname_skipped() tells of the outermost one. */
static void lookup_start(void)
{
	if (lookup_depth++ == 0)
		nr_skips = 0;
}

/* Its end: the reader process leaves. */
static void lookup_end(void)
{
	if (--lookup_depth == 0)
		deadline_stop(&reader);
}

static void note_skip(dev_t dev, enum devname_skip_reason why, int err, const char *flag)
{
	struct devname_skip *k;
	size_t i;

	for (i = 0; i < nr_skips && i < SKIPS_MAX; i++)
		if (skips[i].dev == dev)
			return;
	if (nr_skips < SKIPS_MAX) {
		k = &skips[nr_skips];
		memset(k, 0, sizeof(*k));
		k->dev = dev;
		k->reason = why;
		k->err = err;
		if (flag)
			snprintf(k->flag, sizeof(k->flag), "%s", flag);
	}
	nr_skips++;
}

/* The devices the last lookup skipped; kernel-doc in devname.h. */
size_t devname_skipped(struct devname_skip *ret, size_t cap)
{
	size_t i;

	for (i = 0; i < nr_skips && i < SKIPS_MAX && i < cap; i++)
		ret[i] = skips[i];
	return nr_skips;
}

/* Why a device was skipped, in words; kernel-doc in devname.h. */
const char *devname_skip_why(const struct devname_skip *k, char *buf, size_t len)
{
	unsigned int ms = devname_probe_ms;

	if (len == 0)
		return buf;
	switch (k->reason) {
	case DEVNAME_SKIP_UDEV:
		snprintf(buf, len, "udev marks it not to be probed (%s)", k->flag);
		break;
	case DEVNAME_SKIP_NOREADER:
		snprintf(buf, len, "no process to read it could be started: %s",
			 msg_errname(k->err));
		break;
	default:
		if (ms % 1000)
			snprintf(buf, len, "it did not answer within %u ms", ms);
		else
			snprintf(buf, len, "it did not answer within %u s", ms / 1000);
	}
	return buf;
}

/* The readers killed at a deadline that live on, reaping the others. */
static size_t stuck(dev_t *ret_dev, pid_t *ret_pid)
{
	size_t i, n = 0;

	for (i = 0; i < nr_slow; i++) {
		if (slow[i].pid && deadline_reap(slow[i].pid))
			slow[i].pid = 0;
		if (!slow[i].pid)
			continue;
		if (n++ == 0) {
			*ret_dev = slow[i].dev;
			*ret_pid = slow[i].pid;
		}
	}
	return n;
}

/* The readers killed at a deadline that live on after @ms; kernel-doc in devname.h. */
size_t devname_stuck(unsigned int ms, dev_t *ret_dev, pid_t *ret_pid)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	unsigned int waited;
	size_t n;

	for (waited = 0;; waited += 20) {
		n = stuck(ret_dev, ret_pid);
		if (n == 0 || waited >= ms)
			return n;
		nanosleep(&ts, NULL);
	}
}

/* Did @dev miss a deadline before?  Reaps the readers that have ended since. */
static int is_slow(dev_t dev)
{
	int found = 0;
	size_t i;

	for (i = 0; i < nr_slow; i++) {
		if (slow[i].pid && deadline_reap(slow[i].pid))
			slow[i].pid = 0;
		if (slow[i].dev == dev)
			found = 1;
	}
	return found;
}

/* Partition @partno in disk @dev's table: 0 and *@pi, or -errno. */
static int read_partition(dev_t dev, unsigned int sector, unsigned long partno,
			  struct probe_part *pi)
{
	unsigned long long bytes;
	struct probe_dev pd;
	int fd, r;

	fd = devname_open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	r = devname_size(fd, &bytes);
	if (r == 0) {
		pd.read = read_exact;
		pd.ctx = &fd;
		pd.size = bytes;
		r = probe_partition(&pd, sector, partno, pi);
	}
	close(fd);
	return r;
}

_Static_assert(sizeof(head) >= FSSTAMP_READ_BYTES, "the reader's buffer holds a stamp's bytes");

/* The stamp of the filesystem on @dev, and a btrfs' device id: 0 and *@ret, or -errno. */
static int read_stamp(dev_t dev, uint64_t log_head, struct devname_stamp *ret)
{
	int fd, r;

	fd = devname_open(dev, O_RDONLY);
	if (fd < 0)
		return fd;
	r = fsstamp_read_buf(fd, head, log_head, &ret->rec);
	close(fd);
	if (r == 0 && ret->rec.kind == TORPOR_FS_BTRFS)
		r = fsstamp_btrfs_dev(head, FSSTAMP_READ_BYTES, &ret->btrfs_devid,
				      &ret->btrfs_devices);
	return r;
}

/* In the reader process: every fd it opens is closed before it answers. */
static void answer(const void *question, void *out)
{
	const struct question *q = question;
	struct answer *a = out;

	if (q->stamp)
		a->r = read_stamp(q->dev, q->log_head, &a->stamp);
	else if (q->partno)
		a->r = read_partition(q->dev, q->sector, q->partno, &a->part);
	else
		a->r = probe_device(q->dev, head, &a->id);
}

/*
 * Have the reader process answer @q within devname_probe_ms; a device that
 * does not answer in time is noted as skipped and never read again (its
 * reader is killed, the next question starts another).  0 and *@a, or -errno.
 */
static int ask(const struct question *q, struct answer *a)
{
	pid_t pid = 0;
	int r;

	if (is_slow(q->dev)) {
		note_skip(q->dev, DEVNAME_SKIP_EARLIER, 0, NULL);
		return -ETIMEDOUT;
	}
	reader.do_fork = devname_fork;
	r = deadline_ask(&reader, q, a, devname_probe_ms, &pid);
	if (r == -ETIMEDOUT) {
		if (nr_slow < SLOW_MAX) {
			slow[nr_slow].dev = q->dev;
			slow[nr_slow++].pid = pid;
		}
		note_skip(q->dev, DEVNAME_SKIP_TIMEOUT, 0, NULL);
	} else if (r < 0) {
		note_skip(q->dev, DEVNAME_SKIP_NOREADER, r, NULL);
	}
	return r;
}

/* probe_device(), bounded: a device that does not answer in time gives -ETIMEDOUT */
static int probe_bounded(dev_t dev, struct probe_id *ret_id)
{
	struct question q = { .dev = dev };
	struct answer a;
	int r;

	r = ask(&q, &a);
	if (r < 0)
		return r;
	if (a.r > 0)
		*ret_id = a.id;
	return a.r;
}

/* Does udev say not to probe @dev?  Then it is noted as skipped.  1 or 0. */
static int udev_skips(dev_t dev)
{
	char path[PATH_MAX], flag[64];

	if (mkpath(path, sizeof(path), "/run/udev/data/b%u:%u", (unsigned int)major(dev),
		   (unsigned int)minor(dev)) < 0 ||
	    udevdb_no_probe(path, flag, sizeof(flag)) <= 0)
		return 0;
	note_skip(dev, DEVNAME_SKIP_UDEV, 0, flag);
	return 1;
}

/* The stamp of the filesystem on @dev, read by the reader; kernel-doc in devname.h. */
int devname_read_stamp(dev_t dev, uint64_t log_head, struct devname_stamp *ret)
{
	struct question q;
	struct answer a;
	int r;

	memset(&q, 0, sizeof(q));
	q.dev = dev;
	q.stamp = 1;
	q.log_head = log_head;
	lookup_start();
	r = ask(&q, &a);
	lookup_end();
	if (r == 0)
		r = a.r;
	if (r == 0)
		*ret = a.stamp;
	return r;
}

int devname_probe(dev_t dev, struct probe_id *ret_id)
{
	struct probe_id id;
	int r;

	memset(&id, 0, sizeof(id));
	lookup_start();
	r = probe_bounded(dev, &id);
	lookup_end();
	if (r > 0)
		*ret_id = id;
	return r;
}

/* Whether /sys/class/block/@name/@sub has an entry (holders) or a child partition (@part). */
static int has_child(const char *name, const char *sub, int part)
{
	char path[PATH_MAX], buf[16];
	size_t n = strlen(name);
	struct dirent *de;
	int found = 0;
	DIR *d;

	if (mkpath(path, sizeof(path), "/sys/class/block/%s/%s", name, sub) < 0)
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (!part)
			found = de->d_name[0] != '.';
		else if (!strncmp(de->d_name, name, n) && de->d_name[n])
			found = sys_read(buf, sizeof(buf), "/sys/class/block/%s/%s/partition",
					 name, de->d_name) == 0;
	}
	closedir(d);
	return found;
}

/*
 * A partition of a disk that a dm or md device holds: a multipath path's
 * partition next to the map's (kpartx), a whole-disk RAID 1 member's partition
 * (metadata at the end) next to the array's.  The holder's is the real one.
 * And the unreadable() devices.
 */
/* A SCSI disk's state ("running", "offline", "blocked", ...) in @buf: 0, or -errno */
static int scsi_state(const char *disk_dir, char *buf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *sub;
	ssize_t n;

	/* only SCSI has this meaning of device/state (NVMe's controller says "live") */
	if (mkpath(path, sizeof(path), "%s/device/subsystem", disk_dir) < 0)
		return -ENAMETOOLONG;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -ENOENT;
	link[n] = '\0';
	sub = strrchr(link, '/');
	if (strcmp(sub ? sub + 1 : link, "scsi"))
		return -ENOENT;
	return sys_read(buf, len, "%s/device/state", disk_dir);
}

/*
 * Would reading block device @name (a sysfs name) hang?  A suspended dm device
 * (until it is resumed), a SCSI disk or its partition whose state is not
 * "running" (offline, blocked).  1 or 0.
 */
static int unreadable(const char *name)
{
	char buf[32], dir[PATH_MAX];

	if (sys_read(buf, sizeof(buf), "/sys/class/block/%s/dm/suspended", name) == 0 &&
	    !strcmp(buf, "1"))
		return 1;
	snprintf(dir, sizeof(dir), "/sys/class/block/%s", name);
	if (scsi_state(dir, buf, sizeof(buf)) == 0)
		return strcmp(buf, "running") != 0;
	snprintf(dir, sizeof(dir), "/sys/class/block/%s/..", name);
	if (sys_read(buf, sizeof(buf), "/sys/class/block/%s/partition", name) == 0 &&
	    scsi_state(dir, buf, sizeof(buf)) == 0)
		return strcmp(buf, "running") != 0;
	return 0;
}

static int superseded(const char *name)
{
	char buf[32];

	if (unreadable(name))
		return 1;
	/* sysfs puts a partition's directory inside its disk's */
	return sys_read(buf, sizeof(buf), "/sys/class/block/%s/partition", name) == 0 &&
	       has_child(name, "../holders", 0);
}

/* The logical sector size of the disk holding partition @name; 512 if unknown. */
static unsigned int sector_size(const char *name)
{
	unsigned long v = 0;
	char buf[32];

	if (sys_read(buf, sizeof(buf), "/sys/class/block/%s/../queue/logical_block_size",
		     name) < 0 ||
	    parse_uint(buf, strlen(buf), 65536, &v) < 0 || v < 512 || (v & (v - 1)))
		return 512;
	return v;
}

static int match_partition(const struct scan *s, const char *name, dev_t dev)
{
	unsigned long partno = 0;
	struct question q;
	struct answer a;
	char buf[32];
	dev_t disk;

	if (sys_read(buf, sizeof(buf), "/sys/class/block/%s/partition", name) < 0 ||
	    parse_uint(buf, strlen(buf), 65535, &partno) < 0 || partno == 0 || superseded(name))
		return 0;
	/* sysfs puts a partition's directory inside its disk's */
	if (sys_read(buf, sizeof(buf), "/sys/class/block/%s/../dev", name) < 0 ||
	    parse_majmin(buf, &disk) < 0 || udev_skips(dev) || udev_skips(disk))
		return 0;
	memset(&q, 0, sizeof(q));
	q.dev = disk;
	q.sector = sector_size(name);
	q.partno = partno;
	if (ask(&q, &a) < 0 || a.r < 0)
		return 0;
	if (s->what == LK_PARTUUID)
		return eq_nocase(a.part.uuid, s->value);
	return a.part.label[0] && !strcmp(a.part.label, s->value);
}

static int match_content(struct scan *s, dev_t dev)
{
	struct probe_id id;
	char hex[33];

	if (probe_bounded(dev, &id) <= 0)
		return 0;
	if (s->what == LK_LABEL)
		return id.label[0] && !strcmp(id.label, s->value);
	if (!id.has_uuid)
		return 0;
	probe_uuid_hex(id.uuid, hex);
	return !strcmp(hex, s->norm);
}

static int match_dm_name(const struct scan *s, const char *name)
{
	char buf[TAG_VALUE_MAX];

	if (strncmp(name, "dm-", 3) ||
	    sys_read(buf, sizeof(buf), "/sys/class/block/%s/dm/name", name) < 0)
		return 0;
	return !strcmp(buf, s->value);
}

/*
 * Is @top built on @under: a holder of @under (or of its disk, when @under is
 * a partition), a partition of such a holder, or a holder of such a holder?
 * (An array's partition over a member's partition; a multipath map's kpartx
 * partition over a path's partition.)  1 or 0.
 */
static int built_on(dev_t top, dev_t under)
{
	static const char *const subs[] = { "holders", "../holders" };
	char u[NODE_NAME_MAX], t[NODE_NAME_MAX], path[PATH_MAX], link[PATH_MAX];
	const char *parent;
	struct dirent *de;
	size_t i;
	ssize_t n;
	int found = 0;
	DIR *d;

	if (sysblock_name(sys_root(), under, u, sizeof(u)) < 0 ||
	    sysblock_name(sys_root(), top, t, sizeof(t)) < 0)
		return 0;
	/* @top's disk, when @top is a partition: the directory its own sits in */
	parent = NULL;
	if (sys_read(path, sizeof(path), "/sys/class/block/%s/partition", t) == 0 &&
	    mkpath(path, sizeof(path), "/sys/class/block/%s", t) == 0 &&
	    (n = readlink(path, link, sizeof(link) - 1)) > 0) {
		link[n] = '\0';
		parent = strrchr(link, '/');
		if (parent) {
			*(char *)parent = '\0';
			parent = strrchr(link, '/');
			parent = parent ? parent + 1 : NULL;
		}
	}
	for (i = 0; i < ARRAY_SIZE(subs) && !found; i++) {
		/* a partition's disk: the directory its own sits in */
		if (i && sys_read(path, sizeof(path), "/sys/class/block/%s/partition", u) < 0)
			break;
		if (mkpath(path, sizeof(path), "/sys/class/block/%s/%s", u, subs[i]) < 0)
			break;
		d = opendir(path);
		if (!d)
			continue;
		while (!found && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			found = !strcmp(de->d_name, t) || (parent && !strcmp(de->d_name, parent)) ||
				(mkpath(path, sizeof(path), "/sys/class/block/%s/holders/%s",
					de->d_name, t) == 0 && access(path, F_OK) == 0);
		}
		closedir(d);
	}
	return found;
}

/*
 * Devices whose bytes a UUID/LABEL scan should not read: floppies (a read can
 * stall for seconds), empty devices (unbound loop, no medium), members of a dm
 * or md device, which show the same superblock as their holder, the
 * superseded() ones, and disks with partitions, whose first sectors are a
 * partition table (a stale superblock there is not what the user means).
 */
static int skip_for_probe(const char *name)
{
	char buf[32];

	if (!strncmp(name, "fd", 2) && name[2] >= '0' && name[2] <= '9')
		return 1;
	if (sys_read(buf, sizeof(buf), "/sys/class/block/%s/size", name) == 0 && !strcmp(buf, "0"))
		return 1;
	return has_child(name, "holders", 0) || superseded(name) || has_child(name, ".", 1);
}

static int match_entry(struct scan *s, const char *name, dev_t dev)
{
	switch (s->what) {
	case LK_UUID:
	case LK_LABEL:
		return !skip_for_probe(name) && !udev_skips(dev) && match_content(s, dev);
	case LK_PARTUUID:
	case LK_PARTLABEL:
		return match_partition(s, name, dev);
	case LK_DMNAME:
		return match_dm_name(s, name);
	}
	return 0;
}

/* Every block device sysfs knows; 0 and the one match, -ENOENT, -ENOTUNIQ, -errno. */
static int scan_block(struct scan *s, dev_t *ret_dev)
{
	char path[PATH_MAX];
	struct dirent *de;
	dev_t dev, found = 0;
	int n = 0, ambiguous = 0, r;
	DIR *d;

	r = mkpath(path, sizeof(path), "/sys/class/block");
	if (r < 0)
		return r;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || sysfs_dev_of(de->d_name, &dev) < 0)
			continue;
		if (!match_entry(s, de->d_name, dev))
			continue;
		if (n++ && dev != found)
			ambiguous = 1;
		found = dev;
		if (s->all && s->n < s->cap)
			s->all[s->n++] = dev;
	}
	closedir(d);
	if (!n)
		return -ENOENT;
	if (ambiguous)
		return -ENOTUNIQ;
	*ret_dev = found;
	return 0;
}

static int is_guid_text(const char *v)
{
	int i;

	if (strlen(v) != 36)
		return 0;
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (v[i] != '-')
				return 0;
		} else if (hexval((unsigned char)v[i]) < 0) {
			return 0;
		}
	}
	return 1;
}

/* The kernel's MBR PARTUUID: 8 hex digits, '-', the partition number in 2 or 3 hex digits. */
static int is_mbr_partuuid(const char *v)
{
	size_t i, n = strlen(v);

	if (n < 11 || n > 12 || v[8] != '-')
		return 0;
	for (i = 0; i < n; i++)
		if (i != 8 && hexval((unsigned char)v[i]) < 0)
			return 0;
	return 1;
}

/* Copy a tag value, without one pair of surrounding double quotes, and check its form. */
static int tag_value(enum lookup what, const char *raw, char *out, size_t len, char *norm)
{
	size_t n = strlen(raw), i, j = 0;

	if (n >= 2 && raw[0] == '"' && raw[n - 1] == '"') {
		raw++;
		n -= 2;
	}
	if (n == 0 || n >= len)
		return -EINVAL;
	memcpy(out, raw, n);
	out[n] = '\0';
	if (what == LK_PARTUUID && !is_guid_text(out) && !is_mbr_partuuid(out))
		return -EINVAL;
	if (what != LK_UUID)
		return 0;
	for (i = 0; i < n; i++) {
		if (out[i] == '-')
			continue;
		if (hexval((unsigned char)out[i]) < 0)
			return -EINVAL;
		norm[j++] = to_lower((unsigned char)out[i]);
	}
	norm[j] = '\0';
	return j ? 0 : -EINVAL;
}

/* Valid UTF-8 sequence length at @s (2..4), or 0. */
static int utf8_seq(const unsigned char *s)
{
	int n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* libblkid's blkid_encode_string(), which names udev's by-label links: "a b" -> "a\x20b". */
static int udev_encode(const char *in, char *out, size_t len)
{
	static const char ok[] = "#+-.:=@_";
	size_t j = 0;
	int n;

	for (; *in; in += n) {
		unsigned char c = *in;

		n = utf8_seq((const unsigned char *)in);
		if (n == 0)
			n = 1;
		if (n == 1 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
				(c >= 'A' && c <= 'Z') || strchr(ok, c))) {
			if (j + 4 >= len)
				return -ENAMETOOLONG;
			snprintf(out + j, 5, "\\x%02x", c);
			j += 4;
			continue;
		}
		if (j + n >= len)
			return -ENAMETOOLONG;
		memcpy(out + j, in, n);
		j += n;
	}
	out[j] = '\0';
	return 0;
}

/* Undo udev_encode(): "\xHH" back to the byte. */
static int udev_decode(const char *in, char *out, size_t len)
{
	size_t j = 0;

	while (*in) {
		if (j + 1 >= len)
			return -EINVAL;
		if (in[0] == '\\' && in[1] == 'x' && hexval((unsigned char)in[2]) >= 0 &&
		    hexval((unsigned char)in[3]) >= 0) {
			out[j] = hexval((unsigned char)in[2]) << 4 | hexval((unsigned char)in[3]);
			if (!out[j++])
				return -EINVAL;
			in += 4;
		} else {
			out[j++] = *in++;
		}
	}
	out[j] = '\0';
	return 0;
}

/* The udev link /dev/disk/by-KIND/VALUE, when there is one. */
static int try_link(enum lookup what, const char *value, dev_t *ret)
{
	static const char *const dirs[] = { "by-uuid", "by-label", "by-partuuid", "by-partlabel" };
	char name[4 * TAG_VALUE_MAX];
	size_t i;
	int r;

	r = udev_encode(value, name, sizeof(name));
	if (r < 0)
		return r;
	r = stat_block(ret, "/dev/disk/%s/%s", dirs[what], name);
	if (r == 0 || (what != LK_UUID && what != LK_PARTUUID))
		return r;
	/* udev names these links in lower case */
	for (i = 0; name[i]; i++)
		name[i] = to_lower((unsigned char)name[i]);
	return stat_block(ret, "/dev/disk/%s/%s", dirs[what], name);
}

/*
 * UUID=, LABEL=, PARTUUID=, PARTLABEL=: the udev link (if @links), then a sysfs
 * scan.  With @all, the scan always runs and collects every match in @all.
 */
static int resolve_tag_scan(enum lookup what, const char *raw, int links, dev_t *ret,
			    struct scan *all)
{
	char value[TAG_VALUE_MAX];
	dev_t dev = 0, link = 0;
	int r, have_link = 0;
	struct scan s;

	memset(&s, 0, sizeof(s));
	r = tag_value(what, raw, value, sizeof(value), s.norm);
	if (r < 0)
		return r;
	if (links && !all && try_link(what, value, &link) == 0)
		have_link = 1;
	s.what = what;
	s.value = value;
	if (all) {
		s.all = all->all;
		s.cap = all->cap;
	}
	r = scan_block(&s, &dev);
	if (all)
		all->n = s.n;
	if (have_link) {
		/*
		 * udev links one device even when two carry the tag (a copy of a
		 * disk), not necessarily the one that matters: the devices' content
		 * decides.  A link to a format the probe does not know stands; one
		 * to a device that the content's one is built on (a multipath path's
		 * partition, before udev moves the link to the map's) yields to it.
		 */
		if (r == -ENOTUNIQ || (r == 0 && dev != link && !built_on(dev, link)))
			return -ENOTUNIQ;
		if (r != 0)
			dev = link;
		r = 0;
	}
	if (r == 0)
		*ret = dev;
	return r;
}

static int resolve_tag(enum lookup what, const char *raw, int links, dev_t *ret)
{
	return resolve_tag_scan(what, raw, links, ret, NULL);
}

/* /dev/disk/by-KIND/NAME: the link, else the tag it stands for. */
static int resolve_disk_link(const char *rel, dev_t *ret)
{
	static const struct {
		const char *dir;
		enum lookup what;
	} kinds[] = {
		{ "disk/by-uuid/", LK_UUID },
		{ "disk/by-label/", LK_LABEL },
		{ "disk/by-partuuid/", LK_PARTUUID },
		{ "disk/by-partlabel/", LK_PARTLABEL },
	};
	char value[TAG_VALUE_MAX];
	size_t i, n;
	int r;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		n = strlen(kinds[i].dir);
		if (strncmp(rel, kinds[i].dir, n))
			continue;
		if (strchr(rel + n, '/') || udev_decode(rel + n, value, sizeof(value)) < 0)
			return -EINVAL;
		/* the link if there is one, checked against the devices' content */
		r = resolve_tag(kinds[i].what, value, 1, ret);
		if (r != -EINVAL)
			return r;
		break;		/* a name our tags do not take: the link alone */
	}
	r = stat_block(ret, "/dev/%s", rel);
	return r == 0 || r == -ENOTBLK ? r : -ENOENT;
}

/* /dev/NAME: the node, else the name in sysfs (no devtmpfs), else a dm name. */
static int resolve_dev_path(const char *rel, dev_t *ret)
{
	char name[NODE_NAME_MAX];
	struct scan s;
	size_t i;
	int r;

	if (!path_is_safe(rel))
		return -EINVAL;
	if (!strncmp(rel, "disk/by-", 8))
		return resolve_disk_link(rel, ret);
	r = stat_block(ret, "/dev/%s", rel);
	if (r == 0)
		return 0;
	/* sysfs spells a '/' in a kernel device name as '!' (cciss/c0d0) */
	if (strlen(rel) < sizeof(name)) {
		for (i = 0; rel[i]; i++)
			name[i] = rel[i] == '/' ? '!' : rel[i];
		name[i] = '\0';
		if (sysfs_dev_of(name, ret) == 0)
			return 0;
	}
	if (!strncmp(rel, "mapper/", 7) && !strchr(rel + 7, '/')) {
		memset(&s, 0, sizeof(s));
		s.what = LK_DMNAME;
		s.value = rel + 7;
		if (scan_block(&s, ret) == 0)
			return 0;
	}
	return r == -ENOENT || r == -ENOTDIR ? -ENOENT : r;
}

static int resolve(const char *spec, dev_t *ret)
{
	static const struct {
		const char *prefix;
		enum lookup what;
	} tags[] = {
		{ "UUID=", LK_UUID },
		{ "LABEL=", LK_LABEL },
		{ "PARTUUID=", LK_PARTUUID },
		{ "PARTLABEL=", LK_PARTLABEL },
	};
	size_t i, n;
	int r;

	if (!strncmp(spec, "/dev/", 5))
		return resolve_dev_path(spec + 5, ret);
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		n = strlen(tags[i].prefix);
		if (!strncmp(spec, tags[i].prefix, n))
			return resolve_tag(tags[i].what, spec + n, 1, ret);
	}
	r = strchr(spec, ':') ? parse_majmin(spec, ret) : parse_hexdev(spec, ret);
	if (r < 0)
		return r;
	return dev_present(*ret);
}

/* The device of a filesystem UUID, by its content alone; kernel-doc in devname.h. */
int devname_resolve_uuid(const char *uuid, dev_t *ret_dev)
{
	dev_t dev;
	int r;

	if (!uuid || !*uuid)
		return -EINVAL;
	lookup_start();
	r = resolve_tag(LK_UUID, uuid, 0, &dev);
	lookup_end();
	if (r < 0)
		return r;
	*ret_dev = dev;
	return 0;
}

/* devname_resolve_all() within one lookup */
static int resolve_all(const char *spec, dev_t *ret_devs, size_t cap, size_t *ret_n)
{
	static const struct {
		const char *prefix;
		enum lookup what;
	} tags[] = {
		{ "UUID=", LK_UUID },
		{ "LABEL=", LK_LABEL },
		{ "PARTUUID=", LK_PARTUUID },
		{ "PARTLABEL=", LK_PARTLABEL },
		{ "/dev/disk/by-uuid/", LK_UUID },
		{ "/dev/disk/by-label/", LK_LABEL },
		{ "/dev/disk/by-partuuid/", LK_PARTUUID },
		{ "/dev/disk/by-partlabel/", LK_PARTLABEL },
	};
	char value[TAG_VALUE_MAX];
	struct scan all;
	dev_t dev;
	size_t i, n;
	int r;

	*ret_n = 0;
	if (!spec || !*spec || strlen(spec) >= PATH_MAX || !cap)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		n = strlen(tags[i].prefix);
		if (strncmp(spec, tags[i].prefix, n))
			continue;
		if (spec[0] == '/') {
			if (strchr(spec + n, '/') || udev_decode(spec + n, value, sizeof(value)) < 0)
				return -EINVAL;
		} else if (strlen(spec + n) < sizeof(value)) {
			memcpy(value, spec + n, strlen(spec + n) + 1);
		} else {
			return -EINVAL;
		}
		memset(&all, 0, sizeof(all));
		all.all = ret_devs;
		all.cap = cap;
		r = resolve_tag_scan(tags[i].what, value, 0, &dev, &all);
		if (r < 0 && r != -ENOTUNIQ)
			return r;
		*ret_n = all.n;
		return all.n ? 0 : -ENOENT;
	}
	r = devname_resolve(spec, &dev);
	if (r < 0)
		return r;
	ret_devs[0] = dev;
	*ret_n = 1;
	return 0;
}

/* Every device a tag names, by content; kernel-doc in devname.h. */
int devname_resolve_all(const char *spec, dev_t *ret_devs, size_t cap, size_t *ret_n)
{
	int r;

	lookup_start();
	r = resolve_all(spec, ret_devs, cap, ret_n);
	lookup_end();
	return r;
}

/* udev's link for a tag spec; kernel-doc in devname.h. */
int devname_link(const char *spec, dev_t *ret_dev)
{
	static const struct {
		const char *prefix;
		enum lookup what;
	} tags[] = {
		{ "UUID=", LK_UUID },
		{ "LABEL=", LK_LABEL },
		{ "PARTUUID=", LK_PARTUUID },
		{ "PARTLABEL=", LK_PARTLABEL },
	};
	char value[TAG_VALUE_MAX], norm[TAG_VALUE_MAX];
	size_t i, n;
	dev_t dev;
	int r;

	if (!spec || strlen(spec) >= PATH_MAX)
		return -EINVAL;
	r = -EINVAL;
	if (!strncmp(spec, "/dev/disk/by-", 13)) {
		r = path_is_safe(spec + 5) ? stat_block(&dev, "%s", spec) : -EINVAL;
	} else {
		for (i = 0; i < ARRAY_SIZE(tags); i++) {
			n = strlen(tags[i].prefix);
			if (strncmp(spec, tags[i].prefix, n))
				continue;
			r = tag_value(tags[i].what, spec + n, value, sizeof(value), norm);
			if (r == 0)
				r = try_link(tags[i].what, value, &dev);
			break;
		}
	}
	if (r < 0)
		return r;
	/* reading it would hang the caller */
	if (sysblock_name(sys_root(), dev, value, sizeof(value)) == 0 && unreadable(value))
		return -EBUSY;
	*ret_dev = dev;
	return 0;
}

/* resume= spec to device number: 0, -ENOENT (wait), -EINVAL; kernel-doc in devname.h. */
int devname_resolve(const char *spec, dev_t *ret_dev)
{
	dev_t dev;
	int r;

	if (!spec || !*spec || strlen(spec) >= PATH_MAX)
		return -EINVAL;
	lookup_start();
	r = resolve(spec, &dev);
	lookup_end();
	if (r < 0)
		return r;
	*ret_dev = dev;
	return 0;
}
