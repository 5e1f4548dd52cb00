// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-imagefile.c - the image file: made in a private folder under build/ (never
 * /var/lib, never swapon: that is for QEMU only), its header, its extents, the
 * filesystems refused, the default size
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

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

int main(void)
{
	char dir[] = "build/test-imagefile.XXXXXX";
	const char *name = "";
	int fd;

	test_default_size();
	test_refused_fs();
	if (!mkdtemp(dir)) {
		tap_ok(1, "imagefile: make one # SKIP no folder under build/");
		return tap_done();
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (imagefile_fs_check(fd, &name) == 0)
		test_create(dir);
	else
		tap_ok(1, "imagefile: make one # SKIP build/ is on %s", name);
	close(fd);
	rmdir(dir);
	return tap_done();
}
