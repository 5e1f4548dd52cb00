// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-stamps.c - the small parsers: /proc/zoneinfo, filesystem stamps
 * escapes, and ext superblock mount stamps (on a real mke2fs image when available).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsstamp.h"
#include "sysmem.h"
#include "tap.h"

static const char zoneinfo[] =
	"Node 0, zone      DMA\n"
	"  per-node stats\n"
	"      nr_inactive_anon 12\n"
	"  pages free     3840\n"
	"        min      12\n"
	"        present  3998\n"
	"        managed  3840\n"
	"        cma      0\n"
	"Node 0, zone    DMA32\n"
	"  pages free     200000\n"
	"        present  258016\n"
	"        nr_present_like_field 99\n";

static void test_zoneinfo(void)
{
	uint64_t pages = 0;

	tap_ok(sysmem_parse_zoneinfo(zoneinfo, &pages) == 0 && pages == 3998 + 258016,
	       "sysmem: sums the present lines of every zone (%llu)", (unsigned long long)pages);
	tap_ok(sysmem_parse_zoneinfo("Node 0\n  pages free 1\n", &pages) == -EINVAL,
	       "sysmem: text without present lines is an error");
	tap_ok(sysmem_present_pages(&pages) == 0 && pages > 0,
	       "sysmem: this machine's /proc/zoneinfo parses");
}

static void test_fsstamp(void)
{
	uint8_t buf[4096];
	struct torpor_fsrec a, b;
	char uuid[37], cmd[256], path[] = "/tmp/torpor-stamp-XXXXXX";
	int fd;

	memset(buf, 0, sizeof(buf));
	tap_ok(fsstamp_parse(buf, sizeof(buf), &a) == -EMEDIUMTYPE, "fsstamp: zeroes are no filesystem");
	buf[1024 + 0x38] = 0x53;
	buf[1024 + 0x39] = 0xef;
	buf[1024 + 0x34] = 7;
	buf[1024 + 0x2c] = 0x10;
	buf[1024 + 0x68] = 0xab;
	tap_ok(fsstamp_parse(buf, sizeof(buf), &a) == 0 && a.mount_count == 7 &&
	       a.mount_time == 0x10 && a.uuid[0] == 0xab, "fsstamp: ext superblock fields read");
	tap_ok(fsstamp_parse(buf, 1500, &a) == -EINVAL, "fsstamp: a short buffer is refused");
	b = a;
	b.write_time += 100;
	tap_ok(fsstamp_same(&a, &b), "fsstamp: a later write time alone is no new mount");
	b.mount_count++;
	tap_ok(!fsstamp_same(&a, &b), "fsstamp: a new mount count is a new mount");
	b = a;
	b.mount_time++;
	tap_ok(!fsstamp_same(&a, &b), "fsstamp: a new mount time is a new mount");

	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 8 << 20) < 0) {
		tap_ok(0, "fsstamp: scratch file");
		return;
	}
	snprintf(cmd, sizeof(cmd), "mke2fs -q -F -t ext4 -U 0c5e6a1b-2d30-4b0a-9d41-7f3c1c9e4c2e "
		 "%s >/dev/null 2>&1", path);
	if (system(cmd) != 0) {
		tap_ok(0, "fsstamp: mke2fs made an ext4 image (install e2fsprogs)");
	} else {
		tap_ok(fsstamp_read(fd, &a) == 0, "fsstamp: reads a real mke2fs image");
		fsstamp_uuid_str(a.uuid, uuid);
		tap_ok(!strcmp(uuid, "0c5e6a1b-2d30-4b0a-9d41-7f3c1c9e4c2e") && a.mount_count == 0,
		       "fsstamp: UUID %s, never mounted", uuid);
	}
	close(fd);
	unlink(path);
}

int main(void)
{
	test_zoneinfo();
	test_fsstamp();
	return tap_done();
}
