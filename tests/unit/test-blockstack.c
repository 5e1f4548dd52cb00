// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-blockstack.c - which block devices answer while frozen, on a fake sysfs:
 * loop (with its backing file named), nbd, ublk, rbd and zloop, dm stacked on
 * them at any depth, dm on a plain disk, partitions of md and dm stacks (whose
 * slaves/ are their disk's), zram and brd (in memory), a stack looping on
 * itself, and the /sys/dev/block name lookup.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blockstack.h"
#include "sysblock.h"
#include "tap.h"

static char root[64];

static void mkdirs(const char *rel)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			(void)mkdir(path, 0755);
			*p = '/';
		}
	(void)mkdir(path, 0755);
}

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

/* @top holds @under: sysfs's slaves/ entry */
static void slave(const char *top, const char *under)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "sys/class/block/%s/slaves/%s", top, under);
	mkdirs(rel);
}

static void devlink(unsigned int maj, unsigned int min, const char *name)
{
	char path[512], target[256];

	mkdirs("sys/dev/block");
	snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u", root, maj, min);
	snprintf(target, sizeof(target), "../../devices/virtual/block/%s", name);
	if (symlink(target, path) < 0)
		abort();
}

/* partition @part of disk @disk, linked as sysfs does: inside the disk's directory */
static void partition(const char *disk, const char *part)
{
	char rel[256], path[512], target[256];

	snprintf(rel, sizeof(rel), "sys/devices/virtual/block/%s/%s", disk, part);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "sys/devices/virtual/block/%s/%s/partition", disk, part);
	put(rel, "1\n");
	mkdirs("sys/class/block");
	snprintf(path, sizeof(path), "%s/sys/class/block/%s", root, part);
	snprintf(target, sizeof(target), "../../devices/virtual/block/%s/%s", disk, part);
	if (symlink(target, path) < 0)
		abort();
}

static const char *kind_name(int k)
{
	return k == BLOCKSTACK_ANSWERS ? "answers" : k == BLOCKSTACK_IN_MEMORY ? "in memory" :
	       k == BLOCKSTACK_STOPS ? "stops" : "an error";
}

static void expect(const char *name, int want, const char *want_via)
{
	char via[256];
	int r = blockstack_classify(root, name, via, sizeof(via));

	tap_ok(r == want && (!want_via || !strcmp(via, want_via)),
	       "blockstack: %s %s%s%s (%d, '%s')", name, kind_name(want),
	       want_via && *want_via ? ", via " : "", want_via ? want_via : "", r, via);
}

int main(void)
{
	char name[64];
	int r;

	snprintf(root, sizeof(root), "/tmp/test-blockstack.XXXXXX");
	if (!mkdtemp(root))
		return 1;
	mkdirs("sys/class/block/vda2");
	mkdirs("sys/class/block/loop0/loop");
	put("sys/class/block/loop0/loop/backing_file", "/srv/disk.img\n");
	mkdirs("sys/class/block/loop1");	/* no loop/ (not bound): named alone */
	slave("dm-0", "loop0");			/* LUKS in a container file */
	slave("dm-1", "vda2");			/* LUKS on a partition */
	slave("dm-2", "dm-0");			/* LVM in that container */
	slave("dm-3", "dm-1");
	slave("md0", "vda2");
	slave("md0", "nbd0p1");			/* a RAID 1 half over the network */
	slave("dm-5", "dm-5");			/* a stack that loops: never trusted */
	mkdirs("sys/class/block/ublkb0");
	mkdirs("sys/class/block/rbd0");

	mkdirs("sys/class/block/zram0");
	mkdirs("sys/class/block/ram0");
	mkdirs("sys/class/block/zloop0");
	slave("dm-6", "zram0");			/* LUKS on zram */
	slave("dm-7", "zram0");			/* half in memory, half a loop: stops */
	slave("dm-7", "loop0");
	/* md1 over loop3, partitioned; dm-8 on its partition; md2 over vdc, partitioned */
	slave("md1", "loop3");
	partition("md1", "md1p2");
	slave("dm-8", "md1p2");
	slave("md2", "vdc");
	partition("md2", "md2p1");
	mkdirs("sys/devices/virtual/block/loop4/loop");
	put("sys/devices/virtual/block/loop4/loop/backing_file", "/srv/parted.img\n");
	{
		char path[512];

		snprintf(path, sizeof(path), "%s/sys/class/block/loop4", root);
		if (symlink("../../devices/virtual/block/loop4", path) < 0)
			abort();
	}
	partition("loop4", "loop4p1");

	expect("vda2", BLOCKSTACK_ANSWERS, "");
	expect("loop0", BLOCKSTACK_STOPS, "loop0 (/srv/disk.img)");
	expect("loop1", BLOCKSTACK_STOPS, "loop1");
	expect("loop4p1", BLOCKSTACK_STOPS, "loop4p1 (/srv/parted.img)");
	expect("dm-0", BLOCKSTACK_STOPS, "loop0 (/srv/disk.img)");
	expect("dm-1", BLOCKSTACK_ANSWERS, "");
	expect("dm-2", BLOCKSTACK_STOPS, "loop0 (/srv/disk.img)");
	expect("dm-3", BLOCKSTACK_ANSWERS, "");
	expect("md0", BLOCKSTACK_STOPS, "nbd0p1");
	expect("ublkb0", BLOCKSTACK_STOPS, "ublkb0");
	expect("rbd0", BLOCKSTACK_STOPS, "rbd0");
	expect("zloop0", BLOCKSTACK_STOPS, "zloop0");
	expect("dm-5", BLOCKSTACK_STOPS, NULL);
	expect("sda", BLOCKSTACK_ANSWERS, "");
	expect("md1p2", BLOCKSTACK_STOPS, "loop3");
	expect("dm-8", BLOCKSTACK_STOPS, "loop3");
	expect("md2p1", BLOCKSTACK_ANSWERS, "");
	expect("zram0", BLOCKSTACK_IN_MEMORY, "zram0");
	expect("ram0", BLOCKSTACK_IN_MEMORY, "ram0");
	expect("dm-6", BLOCKSTACK_IN_MEMORY, "zram0");
	expect("dm-7", BLOCKSTACK_STOPS, "loop0 (/srv/disk.img)");

	/* md anywhere in the stack: the lost note is not written there (lateguard.c) */
	tap_ok(blockstack_has_md(root, "md0") == 1 && blockstack_has_md(root, "md2p1") == 1 &&
	       blockstack_has_md(root, "dm-8") == 1,
	       "blockstack: md0, a partition of md2, LVM over md1's partition: md");
	tap_ok(blockstack_has_md(root, "vda2") == 0 && blockstack_has_md(root, "dm-3") == 0 &&
	       blockstack_has_md(root, "zram0") == 0 && blockstack_has_md(root, "sda") == 0,
	       "blockstack: a partition, LVM over LUKS over it, zram, a disk: no md");
	tap_ok(blockstack_has_md(root, "dm-5") == 1, "blockstack: a stack that loops: taken as md");

	devlink(7, 0, "loop0");
	devlink(254, 2, "dm-2");
	r = sysblock_name(root, makedev(254, 2), name, sizeof(name));
	tap_ok(r == 0 && !strcmp(name, "dm-2"), "blockstack: 254:2 is dm-2 (%d)", r);
	r = sysblock_name(root, makedev(254, 9), name, sizeof(name));
	tap_ok(r == -ENOENT, "blockstack: 254:9 is not in sysfs (%d)", r);
	r = sysblock_name(root, makedev(7, 0), name, 3);
	tap_ok(r == -ENAMETOOLONG, "blockstack: a name longer than the buffer is refused (%d)", r);

	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			tap_ok(0, "blockstack: remove %s", root);
	}
	return tap_done();
}
