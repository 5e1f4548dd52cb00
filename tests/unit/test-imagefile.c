// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-imagefile.c - the image file: made in a private folder under build/ (never
 * /var/lib, never swapon: that is for QEMU only), its header, its extents, the
 * filesystems refused, the default size
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hibernate.h"
#include "imagefile.h"
#include "tap.h"

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

static void test_refused_fs(void)
{
	const char *name = "";
	int fd = open("/dev/shm", O_RDONLY | O_DIRECTORY);
	int r;

	if (fd < 0) {
		tap_ok(1, "imagefile: tmpfs refused # SKIP no /dev/shm");
		return;
	}
	r = imagefile_fs_check(fd, &name);
	close(fd);
	tap_ok(r == -EOPNOTSUPP,
	       "imagefile: tmpfs (/dev/shm) is refused (%d, %s)", r, name);
	fd = open("/proc", O_RDONLY | O_DIRECTORY);
	r = imagefile_fs_check(fd, &name);
	close(fd);
	tap_ok(r == -EOPNOTSUPP, "imagefile: an unknown filesystem (/proc) is refused");
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

/* writes @text into @dir/@name, making the folders; 0 or -1 */
static int put(const char *dir, const char *name, const char *text)
{
	char path[512], *p;
	FILE *f;

	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0700);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
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

/* the next boot must look where the image goes: resume= and resume_offset= */
static void test_check_resume(void)
{
	struct imagefile_loc loc;
	struct hib_opts o;
	unsigned maj = 0, min = 0;
	struct dirent *e;
	DIR *d;

	/* a block device this machine has: resume= must resolve */
	d = opendir("/sys/dev/block");
	while (d && (e = readdir(d)))
		if (sscanf(e->d_name, "%u:%u", &maj, &min) == 2)
			break;
	if (d)
		closedir(d);
	tap_ok(maj || min, "imagefile: /sys/dev/block names a block device (%u:%u)", maj, min);
	memset(&loc, 0, sizeof(loc));
	loc.dev = makedev(maj, min);
	loc.offset_pages = 35680;
	memset(&o, 0, sizeof(o));
	tap_ok(imagefile_check_resume(&o, "/img", &loc) == 0,
	       "imagefile: no resume= at all is only a warning");
	snprintf(o.resume, sizeof(o.resume), "%u:%u", maj, min);
	tap_ok(imagefile_check_resume(&o, "/img", &loc) == 0,
	       "imagefile: resume= without resume_offset= is only a warning");
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

int main(void)
{
	char dir[] = "build/test-imagefile.XXXXXX", cmd[64];
	const char *name = "";
	int fd;

	test_default_size();
	test_refused_fs();
	test_check_resume();
	if (!mkdtemp(dir)) {
		tap_ok(1, "imagefile: make one # SKIP no folder under build/");
		return tap_done();
	}
	test_discard_supported(dir);
	test_zero(dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (imagefile_fs_check(fd, &name) == 0)
		test_create(dir);
	else
		tap_ok(1, "imagefile: make one # SKIP build/ is on %s", name);
	close(fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	tap_ok(system(cmd) == 0, "imagefile: the test folder removed");
	return tap_done();
}
