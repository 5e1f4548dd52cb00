// SPDX-License-Identifier: GPL-2.0-only
/* sysblock.c - a block device's sysfs name, from its /sys/dev/block/MAJ:MIN link */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sysblock.h"

int sysblock_name(const char *root, dev_t dev, char *buf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *name;
	ssize_t n;
	int m;

	m = snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u", root, major(dev), minor(dev));
	if (m < 0 || (size_t)m >= sizeof(path))
		return -ENAMETOOLONG;
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	name = strrchr(link, '/');
	name = name ? name + 1 : link;
	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	if (strlen(name) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, name, strlen(name) + 1);
	return 0;
}
