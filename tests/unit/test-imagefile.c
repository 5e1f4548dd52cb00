// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-imagefile.c - the image file: made in a private folder under build/ (never
 * /var/lib, never swapon: that is for QEMU only), its header, its extents, the
 * filesystems refused, the default size; the folders and the file refused to
 * hibernate into, a leftover image invalidated, the kernel command line that
 * must name the file, the discard proven by reading back (with fake discards)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/falloc.h>

#include "hibernate.h"
#include "image.h"
#include "imagefile.h"
#include "tap.h"

/* not root: the folders made here are ours, and so may be the file */
#define OWNER	getuid()

static void test_default_size(void)
{
	struct sysinfo si;
	uint64_t b = imagefile_default_bytes(), ram;

	sysinfo(&si);
	ram = (uint64_t)si.totalram * si.mem_unit;
	tap_ok(b % (1u << 20) == 0 && b >= ram / 2 && b < ram / 2 + (1u << 20),
	       "imagefile: the default size is half of RAM rounded up to a MiB (%llu)",
	       (unsigned long long)b);
}

/* f2fs can hold a swap file but not a stamp: refused, with its own reason */
static void test_fs_magic(void)
{
	const char *name = "", *why = NULL;
	int r;

	r = imagefile_fs_by_magic(0xF2F52010, &name, &why);
	tap_ok(r == -EOPNOTSUPP && !strcmp(name, "f2fs") && why && strstr(why, "stamp"),
	       "imagefile: f2fs is refused because it cannot be stamped (%d, %s)", r,
	       why ? why : "no reason");
	r = imagefile_fs_by_magic(0x01021994, &name, &why);
	tap_ok(r == -EOPNOTSUPP && !strcmp(name, "tmpfs") && why && strstr(why, "swap"),
	       "imagefile: tmpfs is refused because the kernel cannot swap there");
	r = imagefile_fs_by_magic(0xEF53, &name, &why);
	tap_ok(r == 0 && !strcmp(name, "ext4") && !why, "imagefile: ext4 is taken");
	r = imagefile_fs_by_magic(0x12345678, &name, &why);
	tap_ok(r == -EOPNOTSUPP && why, "imagefile: an unknown magic is refused");
}

static void test_refused_fs(void)
{
	const char *name = "", *why;
	int fd = open("/dev/shm", O_RDONLY | O_DIRECTORY);
	int r;

	if (fd < 0) {
		tap_ok(1, "imagefile: tmpfs refused # SKIP no /dev/shm");
		return;
	}
	r = imagefile_fs_check(fd, &name, &why);
	close(fd);
	tap_ok(r == -EOPNOTSUPP,
	       "imagefile: tmpfs (/dev/shm) is refused (%d, %s)", r, name);
	fd = open("/proc", O_RDONLY | O_DIRECTORY);
	r = imagefile_fs_check(fd, &name, &why);
	close(fd);
	tap_ok(r == -EOPNOTSUPP, "imagefile: an unknown filesystem (/proc) is refused");
	test_fs_magic();
}

static void test_create(const char *dir)
{
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE), v[3];
	struct imagefile_loc loc;
	char path[512], sparse[512], sig[11] = "";
	struct stat st;
	int r, fd;

	snprintf(path, sizeof(path), "%s/image", dir);
	r = imagefile_create(path, (2u << 20) + 1, &loc);
	tap_ok(r == 0, "imagefile: made '%s' (%d)", path, r);
	if (r < 0)
		return;
	tap_ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600 &&
	       (uint64_t)st.st_size == (2u << 20) + ps && loc.bytes == (uint64_t)st.st_size,
	       "imagefile: 0600, rounded up to a page");
	tap_ok(loc.offset_pages > 0 && loc.dev == st.st_dev,
	       "imagefile: located on its filesystem's device, page %llu",
	       (unsigned long long)loc.offset_pages);
	fd = open(path, O_RDONLY);
	memset(v, 0, sizeof(v));
	r = pread(fd, sig, 10, ps - 10) == 10 && pread(fd, v, sizeof(v), 1024) == sizeof(v);
	tap_ok(r && !strcmp(sig, "SWAPSPACE2") && v[0] == 1 &&
	       v[1] == (2u << 20) / ps && v[2] == 0,
	       "imagefile: a version-1 swap header, last page %u", v[1]);
	tap_ok(imagefile_extents_check(fd, (uint64_t)st.st_size) == 0,
	       "imagefile: preallocated: no holes");
	close(fd);
	tap_ok(access(path, F_OK) == 0 && snprintf(sparse, sizeof(sparse), "%s.new", path) &&
	       access(sparse, F_OK) < 0, "imagefile: renamed into place, nothing left aside");
	tap_ok(imagefile_is_active(path) == 0, "imagefile: not an active swap area");
	snprintf(sparse, sizeof(sparse), "%s/sparse", dir);
	fd = open(sparse, O_RDWR | O_CREAT, 0600);
	r = ftruncate(fd, 1 << 20);
	r = r < 0 ? r : (int)pwrite(fd, "x", 1, 0);
	fsync(fd);
	tap_ok(r == 1 && imagefile_extents_check(fd, 1 << 20) == -EMEDIUMTYPE,
	       "imagefile: a file with holes is refused");
	close(fd);
	unlink(sparse);
	unlink(path);
}

/* writes @text to @path; 0 or -1 */
static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* writes @text into @dir/@name, making the folders; 0 or -1 */
static int put(const char *dir, const char *name, const char *text)
{
	char path[512], *p;

	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0700);
		*p = '/';
	}
	return write_text(path, text);
}

/* discard support as sysfs tells it: a disk's queue, a partition's disk's queue */
static void test_discard_supported(const char *dir)
{
	char sys[512];

	snprintf(sys, sizeof(sys), "%s/sys", dir);
	put(sys, "254:0/queue/discard_max_bytes", "2147483136\n");
	put(sys, "8:0/queue/discard_max_bytes", "0\n");
	/* the partition 8:1 is a folder inside its disk's, reached through a link */
	put(sys, "8:0/sda1/partition", "1\n");
	put(sys, "7:0/queue/discard_max_bytes", "lots\n");
	put(sys, "9:0/partition", "1\n");
	put(sys, "9:0/queue/discard_max_bytes", "4096\n");
	snprintf(sys, sizeof(sys), "%s/sys/8:1", dir);
	tap_ok(symlink("8:0/sda1", sys) == 0, "imagefile: a fake /sys/dev/block");
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	tap_ok(imagefile_discard_supported(sys, makedev(254, 0)) == 1,
	       "imagefile: a disk that discards (discard_max_bytes 2147483136)");
	tap_ok(imagefile_discard_supported(sys, makedev(8, 0)) == 0,
	       "imagefile: a disk that does not (discard_max_bytes 0)");
	tap_ok(imagefile_discard_supported(sys, makedev(8, 1)) == 0,
	       "imagefile: a partition asks its disk's queue (its own folder has none)");
	tap_ok(imagefile_discard_supported(sys, makedev(7, 0)) == -EINVAL,
	       "imagefile: a discard_max_bytes that is no number is an error");
	tap_ok(imagefile_discard_supported(sys, makedev(3, 0)) == -ENOENT,
	       "imagefile: no such device is an error");
	tap_ok(imagefile_discard_supported(sys, makedev(9, 0)) == -ENOENT,
	       "imagefile: a partition does not read its own queue");
}

/* zeroing: every page but the header, for sizes around the 1 MiB chunk */
static void test_zero(const char *dir)
{
	static const uint64_t sizes[] = { 4096, 8192, (1u << 20) + 4096, (3u << 20) + 12288 };
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	unsigned char *buf;
	char path[512];
	size_t i, j;

	snprintf(path, sizeof(path), "%s/zero", dir);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i];
		int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600), ok, r;

		buf = malloc(n);
		memset(buf, 0xa5, n);
		ok = fd >= 0 && pwrite(fd, buf, n, 0) == (ssize_t)n;
		r = ok ? imagefile_zero(fd, ps, n) : -1;
		memset(buf, 0x5a, n);
		ok = ok && r == 0 && pread(fd, buf, n, 0) == (ssize_t)n;
		for (j = 0; ok && j < n; j++)
			ok = buf[j] == (j < ps ? 0xa5 : 0);
		tap_ok(ok, "imagefile: zeroed %llu bytes but the header page (%d)",
		       (unsigned long long)n, r);
		free(buf);
		close(fd);
	}
	unlink(path);
}

/* the first block device /sys/dev/block lists, in @maj and @min (unchanged: none) */
static void some_block_dev(unsigned *maj, unsigned *min)
{
	struct dirent *e;
	DIR *d;

	d = opendir("/sys/dev/block");
	while (d && (e = readdir(d)))
		if (sscanf(e->d_name, "%u:%u", maj, min) == 2)
			break;
	if (d)
		closedir(d);
}

/* the next boot must look where the image goes: resume= and resume_offset= */
static void test_check_resume(void)
{
	struct imagefile_loc loc;
	struct hib_opts o;
	unsigned maj = 0, min = 0;

	/* a block device this machine has: resume= must resolve */
	some_block_dev(&maj, &min);
	tap_ok(maj || min, "imagefile: /sys/dev/block names a block device (%u:%u)", maj, min);
	memset(&loc, 0, sizeof(loc));
	loc.dev = makedev(maj, min);
	loc.offset_pages = 35680;
	memset(&o, 0, sizeof(o));
	tap_ok(imagefile_check_resume(&o, "/img", &loc) == 0,
	       "imagefile: no resume nor resume_offset in the options (the kernel command "
	       "line is checked on its own)");
	snprintf(o.resume, sizeof(o.resume), "%u:%u", maj, min);
	tap_ok(imagefile_check_resume(&o, "/img", &loc) == 0,
	       "imagefile: a resume of the file's device without resume_offset in the options");
	o.has_offset = 1;
	o.offset = 35680;
	tap_ok(imagefile_check_resume(&o, "/img", &loc) == 0,
	       "imagefile: resume= and resume_offset= of the file are accepted");
	o.offset = 35681;
	tap_ok(imagefile_check_resume(&o, "/img", &loc) == -ERANGE,
	       "imagefile: a resume_offset= that is not the file's page is refused");
	o.offset = 35680;
	loc.dev = makedev(maj, min + 4096);
	tap_ok(imagefile_check_resume(&o, "/img", &loc) == -EINVAL,
	       "imagefile: a resume= of another device than the file's is refused");
	snprintf(o.resume, sizeof(o.resume), "UUID=00000000-0000-4000-8000-00000000dead");
	tap_ok(imagefile_check_resume(&o, "/img", &loc) == -EINVAL,
	       "imagefile: a resume= that names no device is refused");
}

/* mkdir @dir/@name with @mode (umask aside); the path in @buf */
static const char *mkdir_mode(const char *dir, const char *name, mode_t mode, char *buf,
			      size_t len)
{
	snprintf(buf, len, "%s/%s", dir, name);
	mkdir(buf, 0700);
	chmod(buf, mode);
	return buf;
}

/* the folders on the way to the file: root's (or ours) and not writable by others */
static void test_open_dir(const char *dir)
{
	char d[PATH_MAX], p[PATH_MAX + 16], bad[PATH_MAX], real[PATH_MAX], want[PATH_MAX + 8];
	int fd;

	fd = imagefile_open_dir(mkdir_mode(dir, "ok", 0700, d, sizeof(d)), OWNER, bad,
				sizeof(bad));
	snprintf(p, sizeof(p), "%s/image", d);
	close(fd);
	fd = imagefile_open_dir(p, OWNER, bad, sizeof(bad));
	tap_ok(fd >= 0 && !bad[0], "imagefile: every folder from / to '%s' passes (%d)", d, fd);
	if (fd >= 0)
		close(fd);
	/* untrusted, the walk starts at /: the shared /tmp (sticky, world-writable) is refused */
	imagefile_trust_dir(NULL);
	fd = imagefile_open_dir("/tmp/image", OWNER, bad, sizeof(bad));
	imagefile_trust_dir(dir);
	tap_ok(fd == -EACCES && realpath("/tmp", real) && !strcmp(bad, real),
	       "imagefile: with no folder trusted (as installed) the walk checks from /: "
	       "/tmp refused (%d, '%s')", fd, bad);
	if (fd >= 0)
		close(fd);
	tap_ok(imagefile_open_dir("relative/image", OWNER, bad, sizeof(bad)) == -EINVAL,
	       "imagefile: a relative path is refused");
	snprintf(p, sizeof(p), "%s/image", mkdir_mode(dir, "gw", 0770, d, sizeof(d)));
	fd = imagefile_open_dir(p, OWNER, bad, sizeof(bad));
	tap_ok(fd == -EACCES && realpath(d, real) && !strcmp(bad, real),
	       "imagefile: a folder writable by its group is refused and named (%d, '%s')",
	       fd, bad);
	snprintf(p, sizeof(p), "%s/image", mkdir_mode(dir, "ww", 0777, d, sizeof(d)));
	tap_ok(imagefile_open_dir(p, OWNER, bad, sizeof(bad)) == -EACCES,
	       "imagefile: a world-writable folder is refused");
	snprintf(p, sizeof(p), "%s/image", mkdir_mode(dir, "tmp", 01777, d, sizeof(d)));
	tap_ok(imagefile_open_dir(p, OWNER, bad, sizeof(bad)) == -EACCES,
	       "imagefile: a sticky world-writable folder (as /tmp) is refused too");
	/* below a refused folder, a private one is still refused */
	snprintf(p, sizeof(p), "%s/image", mkdir_mode(dir, "ww/sub", 0700, d, sizeof(d)));
	snprintf(want, sizeof(want), "%s/ww", dir);
	tap_ok(imagefile_open_dir(p, OWNER, bad, sizeof(bad)) == -EACCES && realpath(want, real) &&
	       !strcmp(bad, real), "imagefile: a private folder inside an open one is refused");
	/* a symbolic link is resolved first, then its target's folders are checked */
	snprintf(d, sizeof(d), "%s/link-ok", dir);
	snprintf(p, sizeof(p), "%s/ok", dir);
	symlink(p, d);
	snprintf(p, sizeof(p), "%s/link-ok/image", dir);
	fd = imagefile_open_dir(p, OWNER, bad, sizeof(bad));
	tap_ok(fd >= 0, "imagefile: a link to a private folder passes (its target is checked)");
	if (fd >= 0)
		close(fd);
	snprintf(d, sizeof(d), "%s/link-ww", dir);
	snprintf(p, sizeof(p), "%s/ww", dir);
	symlink(p, d);
	snprintf(p, sizeof(p), "%s/link-ww/image", dir);
	tap_ok(imagefile_open_dir(p, OWNER, bad, sizeof(bad)) == -EACCES,
	       "imagefile: a link to a world-writable folder is refused");
	/* another owner: chown as root; else expect an owner that is not us */
	snprintf(p, sizeof(p), "%s/image", mkdir_mode(dir, "other", 0700, d, sizeof(d)));
	if (getuid() == 0 && chown(d, 4242, 4242) == 0)
		fd = imagefile_open_dir(p, 0, bad, sizeof(bad));
	else
		fd = imagefile_open_dir(p, getuid() + 1, bad, sizeof(bad));
	tap_ok(fd == -EPERM && realpath(d, real) && !strcmp(bad, real),
	       "imagefile: a folder owned by another user is refused and named (%d)", fd);
}

/* the file itself: regular, root's (or ours), no group or other bits, no link */
static void test_open_file(const char *dir)
{
	struct imagefile_loc loc, at;
	char d[512], p[600], l[600], bad[512];
	int fd, r;

	snprintf(p, sizeof(p), "%s/image", mkdir_mode(dir, "f", 0700, d, sizeof(d)));
	r = imagefile_create(p, 1u << 20, &loc);
	fd = r < 0 ? r : imagefile_open(p, O_RDWR, OWNER, bad, sizeof(bad));
	tap_ok(fd >= 0 && imagefile_locate_fd(fd, &at) == 0 && at.st_ino == loc.st_ino &&
	       at.dev == loc.dev && at.offset_pages == loc.offset_pages,
	       "imagefile: opened once, located through its descriptor as by its path (%d)",
	       fd);
	if (fd >= 0)
		close(fd);
	chmod(p, 0640);
	r = imagefile_open(p, O_RDONLY, OWNER, bad, sizeof(bad));
	tap_ok(r == -EACCES && !bad[0], "imagefile: a file readable by its group is refused");
	chmod(p, 0604);
	tap_ok(imagefile_open(p, O_RDONLY, OWNER, bad, sizeof(bad)) == -EACCES,
	       "imagefile: a file readable by others is refused");
	chmod(p, 0600);
	if (getuid() == 0 && chown(p, 4242, 4242) == 0)
		r = imagefile_open(p, O_RDONLY, 0, bad, sizeof(bad));
	else
		r = imagefile_open(p, O_RDONLY, getuid() + 1, bad, sizeof(bad));
	tap_ok(r == -EPERM && !bad[0], "imagefile: a file owned by another user is refused (%d)",
	       r);
	if (getuid() == 0)
		chown(p, 0, 0);
	snprintf(l, sizeof(l), "%s/link", d);
	symlink(p, l);
	tap_ok(imagefile_open(l, O_RDONLY, OWNER, bad, sizeof(bad)) == -ELOOP,
	       "imagefile: a symbolic link as the file is refused");
	snprintf(l, sizeof(l), "%s/fifo", d);
	mkfifo(l, 0600);
	tap_ok(imagefile_open(l, O_RDWR, OWNER, bad, sizeof(bad)) == -EINVAL,
	       "imagefile: a FIFO is refused, without hanging");
	unlink(p);
}

/* an image no boot consumed: found, left alone by --check, invalidated before swapon */
static void test_header(const char *dir)
{
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	unsigned char *page, *orig, *now;
	struct imagefile_loc loc;
	struct torpor_root root;
	char p[512], bad[512];
	int fd, r, i;
	static const char *const sigs[] = { SWAP_SIG, SWAP_SIG_OLD, "XXXXXXXXXX" };

	snprintf(p, sizeof(p), "%s/f/header", dir);
	if (imagefile_create(p, 1u << 20, &loc) < 0 ||
	    (fd = imagefile_open(p, O_RDWR, OWNER, bad, sizeof(bad))) < 0) {
		tap_ok(0, "imagefile: made '%s' for the header tests", p);
		return;
	}
	page = malloc(ps);
	orig = malloc(ps);
	now = malloc(ps);
	pread(fd, orig, ps, 0);
	tap_ok(imagefile_header_check(fd, 0, ps, 0) == IMAGEFILE_HEADER_SWAP,
	       "imagefile: a fresh file has a swap header");
	for (i = 0; i < 3; i++) {
		memcpy(page, orig, ps);
		memset(&root, 0, sizeof(root));
		root.version = TORPOR_FORMAT_VERSION;
		root.page_size = ps;
		root.meta_bytes = sizeof(struct torpor_meta);
		root.nr_meta_extents = 1;
		root.meta_extents[0].offset = (uint64_t)ps * (loc.offset_pages + 1);
		root.meta_extents[0].pages = 1;
		memcpy(root.orig_sig, sigs[i], 10);
		image_root_encode(&root, page, ps);
		pwrite(fd, page, ps, 0);
		fsync(fd);
		r = imagefile_header_check(fd, 0, ps, 0);
		pread(fd, now, ps, 0);
		tap_ok(r == IMAGEFILE_HEADER_IMAGE && !memcmp(now, page, ps),
		       "imagefile: a leftover image (%.10s kept) is found, nothing changed (%d)",
		       sigs[i], r);
		r = imagefile_header_check(fd, 0, ps, 1);
		pread(fd, now, ps, 0);
		memcpy(page, orig, ps);
		if (i == 1)
			memcpy(page + ps - 10, SWAP_SIG_OLD, 10);
		tap_ok(r == IMAGEFILE_HEADER_IMAGE && !memcmp(now, page, ps) &&
		       imagefile_header_check(fd, 0, ps, 0) == IMAGEFILE_HEADER_SWAP,
		       "imagefile: invalidated: root record cleared, %s back, mkswap's fields kept",
		       i == 1 ? SWAP_SIG_OLD : SWAP_SIG);
	}
	memcpy(page, orig, ps);
	memcpy(page + ps - 10, "S1SUSPEND", 10);
	pwrite(fd, page, ps, 0);
	fsync(fd);
	r = imagefile_header_check(fd, 0, ps, 1);
	pread(fd, now, ps, 0);
	tap_ok(r == IMAGEFILE_HEADER_FOREIGN && !memcmp(now, page, ps),
	       "imagefile: another signature (the kernel's S1SUSPEND) is refused, left as it is");
	free(page);
	free(orig);
	free(now);
	close(fd);
	unlink(p);
}

/* the running kernel's command line must name the file, whatever the options say */
static void test_cmdline_check(const char *dir)
{
	static const struct {
		const char *fmt;	/* @: the device, #: the page */
		int ok;
		const char *what;
	} cases[] = {
		{ "quiet resume=@ resume_offset=# splash", 1, "resume= and resume_offset= of the file" },
		{ "resume=@", 0, "no resume_offset=" },
		{ "resume_offset=# root=/dev/sda1", 0, "no resume=" },
		{ "resume=@ resume_offset=1#", 0, "another resume_offset=" },
		{ "resume=@ resume_offset=12x", 0, "a malformed resume_offset=" },
		{ "resume=@ resume_offset=# -- resume_offset=1", 1, "what follows -- is init's" },
		{ "resume=@ resume_offset=1 resume_offset=#", 1, "the last resume_offset= wins" },
		{ "resume=UUID=00000000-0000-4000-8000-00000000dead resume_offset=#", 0,
		  "a resume= that names no device" },
		{ "resume=@ resume_offset=# noresume", 0, "noresume (the next boot discards)" },
		{ "hibernate=no resume=@ resume_offset=#", 0, "hibernate=no" },
		{ "resume=@ resume_offset=# torpor.wait=x", 0, "a malformed torpor.wait= (discards)" },
	};
	struct imagefile_loc loc;
	unsigned maj = 0, min = 0;
	char path[512], text[256], devs[32];
	const char *c;
	size_t i, n;

	some_block_dev(&maj, &min);
	memset(&loc, 0, sizeof(loc));
	loc.dev = makedev(maj, min);
	loc.offset_pages = 35680;
	snprintf(devs, sizeof(devs), "%u:%u", maj, min);
	snprintf(path, sizeof(path), "%s/cmdline", dir);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (c = cases[i].fmt, n = 0; *c && n < sizeof(text) - 40; c++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s",
					      *c == '@' ? devs : *c == '#' ? "35680" :
					      (char[2]){ *c, 0 });
		snprintf(text + n, sizeof(text) - n, "\n");
		write_text(path, text);
		tap_ok((imagefile_cmdline_check(path, "/img", &loc) == 0) == cases[i].ok,
		       "imagefile: kernel command line with %s: %s", cases[i].what,
		       cases[i].ok ? "accepted" : "refused");
	}
	snprintf(path, sizeof(path), "%s/no-cmdline", dir);
	tap_ok(imagefile_cmdline_check(path, "/img", &loc) == -EINVAL,
	       "imagefile: an unreadable command line is refused");
}

/* the pages read back after a discard */
static void test_samples(void)
{
	static const uint64_t sizes[] = { 2, 3, 65, 1000, 1ull << 21, (1ull << 28) + 3 };
	uint64_t s[IMAGEFILE_SAMPLES_MAX];
	size_t n, i, j, pw;
	int ok;

	tap_ok(imagefile_sample_pages(1, s, IMAGEFILE_SAMPLES_MAX) == 0,
	       "imagefile: a file of its header page alone has nothing to sample");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		n = imagefile_sample_pages(sizes[i], s, IMAGEFILE_SAMPLES_MAX);
		ok = n > 0 && s[0] == 1 && s[n - 1] == sizes[i] - 1;
		for (j = 1; ok && j < n; j++)
			ok = s[j] > s[j - 1] && s[j] < sizes[i];
		/* each power of two below the last page, and 64 spread evenly (when there are) */
		for (pw = 2; ok && pw < sizes[i] - 1; pw *= 2) {
			for (j = 0; j < n && s[j] != pw; j++)
				;
			ok = j < n;
		}
		ok = ok && (sizes[i] - 1 < 64 ? n == sizes[i] - 1 : n >= 64);
		tap_ok(ok, "imagefile: %zu samples of %llu pages: the first and the last after "
		       "the header, ascending, the powers of two", n,
		       (unsigned long long)sizes[i]);
	}
}

/* the fakes: a device is the file itself, where() is the identity */
static int fake_where(int fd, uint64_t off, uint64_t *ret)
{
	(void)fd;
	*ret = off;
	return 0;
}

static int fake_discard_ignored(void *ctx)
{
	(void)ctx;
	return 0;	/* said yes, did nothing: QEMU's discard=ignore */
}

static int fake_discard_failed(void *ctx)
{
	(void)ctx;
	return -EOPNOTSUPP;
}

static int fake_discard_busy(void *ctx)
{
	(void)ctx;
	return -EBUSY;	/* the swapoff after it failed: the file stays active */
}

static int fake_discard_punch(void *ctx)
{
	const int *fd = ctx;
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	struct stat st;

	if (fstat(*fd, &st) < 0)
		return -errno;
	return fallocate(*fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, ps,
			 st.st_size - ps) < 0 ? -errno : 0;
}

/* @fd's pages after the header hold 0xa5 again; 0 or -1 */
static int fill(int fd, uint64_t bytes, uint32_t ps)
{
	unsigned char *buf = malloc(bytes - ps);
	ssize_t n;

	memset(buf, 0xa5, bytes - ps);
	n = pwrite(fd, buf, bytes - ps, ps);
	free(buf);
	return n == (ssize_t)(bytes - ps) && fsync(fd) == 0 ? 0 : -1;
}

/* 1 when @fd's pages after the header are all zeroes, 0 when all 0xa5, -1 else */
static int state(int fd, uint64_t bytes, uint32_t ps)
{
	unsigned char *buf = malloc(bytes - ps);
	uint64_t i, z = 0, a = 0;

	if (pread(fd, buf, bytes - ps, ps) != (ssize_t)(bytes - ps))
		bytes = ps;
	for (i = 0; i < bytes - ps; i++) {
		z += buf[i] == 0;
		a += buf[i] == 0xa5;
	}
	free(buf);
	return z == bytes - ps ? 1 : a == bytes - ps ? 0 : -1;
}

/* discard_after_resume decides by what reads back, not by what the device said */
static void test_forget(const char *dir)
{
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	struct imagefile_forget f;
	struct imagefile_forgot h;
	struct imagefile_loc loc, moved;
	unsigned char head[64], head2[64];
	char p[512], bad[512];
	int fd, r;

	snprintf(p, sizeof(p), "%s/f/forget", dir);
	if (imagefile_create(p, 4u << 20, &loc) < 0 ||
	    (fd = imagefile_open(p, O_RDWR, OWNER, bad, sizeof(bad))) < 0) {
		tap_ok(0, "imagefile: made '%s' for the discard tests", p);
		return;
	}
	pread(fd, head, sizeof(head), ps - sizeof(head));
	memset(&f, 0, sizeof(f));
	f.fd = fd;
	f.dev_fd = open(p, O_RDONLY | O_CLOEXEC);
	f.loc = &loc;
	f.ps = ps;
	f.where = fake_where;
	f.ctx = &f.fd;

	f.discard = fake_discard_ignored;
	r = fill(fd, loc.bytes, ps) < 0 ? -1 : imagefile_forget(&f, &h);
	tap_ok(r == 0 && h.how == IMAGEFILE_ZEROED_AFTER_DISCARD && h.verify == 0 &&
	       !h.discard_err && state(fd, loc.bytes, ps) == 1,
	       "imagefile: a discard that leaves the data is caught and the pages zeroed "
	       "(%d, how %d, verify %d)", r, h.how, h.verify);
	pread(fd, head2, sizeof(head2), ps - sizeof(head2));
	tap_ok(!memcmp(head, head2, sizeof(head)), "imagefile: the header page is kept");

	f.discard = NULL;
	r = fill(fd, loc.bytes, ps) < 0 ? -1 : imagefile_forget(&f, &h);
	tap_ok(r == 0 && h.how == IMAGEFILE_ZEROED && state(fd, loc.bytes, ps) == 1,
	       "imagefile: a device that does not discard: zeroed (%d)", r);

	f.discard = fake_discard_failed;
	r = fill(fd, loc.bytes, ps) < 0 ? -1 : imagefile_forget(&f, &h);
	tap_ok(r == 0 && h.how == IMAGEFILE_ZEROED_AFTER_DISCARD &&
	       h.discard_err == -EOPNOTSUPP && state(fd, loc.bytes, ps) == 1,
	       "imagefile: a discard that fails: zeroed instead (%d)", r);

	f.discard = fake_discard_busy;
	r = fill(fd, loc.bytes, ps) < 0 ? -1 : imagefile_forget(&f, &h);
	tap_ok(r == -EBUSY && state(fd, loc.bytes, ps) == 0,
	       "imagefile: a file left active is not written to (%d)", r);

	f.discard = fake_discard_ignored;
	f.dev_fd = -1;
	r = imagefile_forget(&f, &h);
	tap_ok(r == 0 && h.how == IMAGEFILE_ZEROED_AFTER_DISCARD && h.verify == -ENODEV &&
	       state(fd, loc.bytes, ps) == 1,
	       "imagefile: a discard that cannot be read back is not trusted (%d)", r);
	f.dev_fd = open(p, O_RDONLY | O_CLOEXEC);

	moved = loc;
	moved.offset_pages++;
	f.loc = &moved;
	f.discard = NULL;
	r = fill(fd, loc.bytes, ps) < 0 ? -1 : imagefile_forget(&f, &h);
	tap_ok(r == -ESTALE && state(fd, loc.bytes, ps) == 0,
	       "imagefile: a file that is not where the image went is not zeroed (%d)", r);
	f.loc = &loc;

	/* last: the holes punched stay */
	f.discard = fake_discard_punch;
	r = imagefile_forget(&f, &h);
	tap_ok(r == 0 && h.how == IMAGEFILE_DISCARDED && h.verify == 1 &&
	       state(fd, loc.bytes, ps) == 1,
	       "imagefile: a discard that reads back as zeroes is trusted (%d, how %d)", r,
	       h.how);
	close(f.dev_fd);
	close(fd);
	unlink(p);
}

int main(void)
{
	char tmp[] = "build/test-imagefile.XXXXXX", abs[PATH_MAX], dir[256], cmd[300];
	const char *name = "", *why = NULL;
	int fd;

	test_default_size();
	test_refused_fs();
	test_check_resume();
	/* absolute: the image file's folders are checked from / */
	if (!mkdtemp(tmp) || !realpath(tmp, abs) ||
	    (size_t)snprintf(dir, sizeof(dir), "%s", abs) >= sizeof(dir)) {
		tap_ok(1, "imagefile: make one # SKIP no folder under build/");
		return tap_done();
	}
	/* the checkout may lie anywhere (below /tmp, a group-writable home): only the folders
	 * the tests make are checked; one check proves that / down is checked otherwise */
	imagefile_trust_dir(dir);
	test_discard_supported(dir);
	test_zero(dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	test_samples();
	test_cmdline_check(dir);
	test_open_dir(dir);
	if (imagefile_fs_check(fd, &name, &why) == 0) {
		test_create(dir);
		test_open_file(dir);
		test_header(dir);
		test_forget(dir);
	} else {
		tap_ok(1, "imagefile: make one # SKIP build/ is on %s", name);
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	tap_ok(system(cmd) == 0, "imagefile: the test folder removed");
	return tap_done();
}
