// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmdelay: a device-mapper device whose every I/O waits MS milliseconds, over DEV
 * (dm-delay), made with the ioctls dmsetup uses: the test initramfs has no dmsetup.
 *
 * Usage: dmdelay NAME DEV MS; prints the new device's node, /dev/dm-N.
 * A dm device is never scanned for partitions (GENHD_FL_NO_PART), so making it
 * reads nothing: only whoever reads it later waits.
 * Built statically with gcc for the test initramfs.
 */
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static union {
	struct dm_ioctl io;
	char buf[16384];
} req;

static void start(const char *name)
{
	memset(&req, 0, sizeof(req));
	req.io.version[0] = DM_VERSION_MAJOR;
	req.io.data_size = sizeof(req);
	req.io.data_start = sizeof(struct dm_ioctl);
	snprintf(req.io.name, sizeof(req.io.name), "%s", name);
}

int main(int argc, char **argv)
{
	struct dm_target_spec *sp;
	uint64_t bytes;
	struct stat st;
	char *params;
	int ctl, fd;

	if (argc != 4) {
		fprintf(stderr, "usage: dmdelay NAME DEV MS\n");
		return 2;
	}
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0 || ioctl(fd, BLKGETSIZE64, &bytes) < 0) {
		perror(argv[2]);
		return 1;
	}
	close(fd);
	ctl = open("/dev/mapper/control", O_RDWR);
	if (ctl < 0) {
		perror("/dev/mapper/control");
		return 1;
	}
	start(argv[1]);
	if (ioctl(ctl, DM_DEV_CREATE, &req) < 0) {
		perror("DM_DEV_CREATE");
		return 1;
	}
	start(argv[1]);
	req.io.target_count = 1;
	sp = (struct dm_target_spec *)(req.buf + sizeof(struct dm_ioctl));
	sp->sector_start = 0;
	sp->length = bytes / 512;
	snprintf(sp->target_type, sizeof(sp->target_type), "delay");
	params = (char *)(sp + 1);
	snprintf(params, 256, "%u:%u 0 %s", major(st.st_rdev), minor(st.st_rdev), argv[3]);
	sp->next = (sizeof(*sp) + strlen(params) + 1 + 7) & ~7u;
	if (ioctl(ctl, DM_TABLE_LOAD, &req) < 0) {
		perror("DM_TABLE_LOAD");
		return 1;
	}
	start(argv[1]);
	if (ioctl(ctl, DM_DEV_SUSPEND, &req) < 0) {	/* without DM_SUSPEND_FLAG: resume */
		perror("DM_DEV_SUSPEND");
		return 1;
	}
	printf("/dev/dm-%u\n", minor(req.io.dev));
	return 0;
}
