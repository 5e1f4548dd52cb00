/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fakesysfs.h - build a fake /sys and /dev under a temporary directory, for the
 * unit tests that point devname_root at it
 *
 * Files, directories and links are named relative to root[], which the test's
 * main() fills (mkdtemp()); block devices get what the lookups read: sysfs's
 * dev, size, uevent, holders/, partition and the /sys/class/block and
 * /sys/dev/block links.  Static functions in a header, as procdir.h: each unit
 * test is one program built from one file (see the Makefile's tests rule).
 */
#ifndef TESTS_FAKESYSFS_H
#define TESTS_FAKESYSFS_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* the directory standing in for / */
static char root[256];

static inline void die(const char *what)
{
	perror(what);
	exit(2);
}

static inline void mkdirs(const char *rel)
{
	char p[PATH_MAX], *s;

	if (snprintf(p, sizeof(p), "%s/%s", root, rel) >= (int)sizeof(p))
		die(rel);
	for (s = p + strlen(root) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			die(p);
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		die(p);
}

static inline void parent_dirs(const char *rel)
{
	char d[PATH_MAX], *s;

	snprintf(d, sizeof(d), "%s", rel);
	s = strrchr(d, '/');
	if (s) {
		*s = '\0';
		mkdirs(d);
	}
}

static inline void put_file(const char *rel, const void *data, size_t len)
{
	char p[PATH_MAX];
	int fd;

	parent_dirs(rel);
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		die(p);
	close(fd);
}

static inline void put_text(const char *rel, const char *text)
{
	put_file(rel, text, strlen(text));
}

static inline void unlink_rel(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (unlink(p) < 0)
		die(p);
}

static inline void put_link(const char *target, const char *rel)
{
	char p[PATH_MAX];

	parent_dirs(rel);
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	unlink(p);
	if (symlink(target, p) < 0)
		die(p);
}

/* A block device in the fake sysfs: a disk, or partition @partno of disk @parent. */
static inline void add_block(const char *name, const char *parent, int partno, unsigned int maj,
			     unsigned int min, unsigned long long sectors)
{
	char dir[256], rel[320], text[320], node[64];
	const char *devname = name;

	if (!strcmp(name, "cciss!c0d0"))
		devname = "cciss/c0d0";
	if (parent)
		snprintf(dir, sizeof(dir), "devices/virtual/block/%s/%s", parent, name);
	else
		snprintf(dir, sizeof(dir), "devices/virtual/block/%s", name);
	snprintf(rel, sizeof(rel), "sys/%s/dev", dir);
	snprintf(text, sizeof(text), "%u:%u\n", maj, min);
	put_text(rel, text);
	snprintf(rel, sizeof(rel), "sys/%s/size", dir);
	snprintf(text, sizeof(text), "%llu\n", sectors);
	put_text(rel, text);
	snprintf(rel, sizeof(rel), "sys/%s/uevent", dir);
	snprintf(text, sizeof(text), "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\nDEVTYPE=%s\n", maj, min,
		 devname, parent ? "partition" : "disk");
	put_text(rel, text);
	snprintf(rel, sizeof(rel), "sys/%s/holders", dir);
	mkdirs(rel);
	if (parent) {
		snprintf(rel, sizeof(rel), "sys/%s/partition", dir);
		snprintf(text, sizeof(text), "%d\n", partno);
		put_text(rel, text);
	} else {
		snprintf(rel, sizeof(rel), "sys/%s/queue/logical_block_size", dir);
		put_text(rel, "512\n");
	}
	snprintf(rel, sizeof(rel), "sys/class/block/%s", name);
	snprintf(text, sizeof(text), "../../%s", dir);
	put_link(text, rel);
	snprintf(node, sizeof(node), "%u:%u", maj, min);
	snprintf(rel, sizeof(rel), "sys/dev/block/%s", node);
	put_link(text, rel);
}

static inline void uuid_bytes(const char *text, uint8_t out[16])
{
	int i = 0;

	for (; *text && i < 16; text++) {
		unsigned int v;

		if (*text == '-')
			continue;
		sscanf(text, "%2x", &v);
		out[i++] = v;
		text++;
	}
}

#endif
