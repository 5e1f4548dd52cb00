// SPDX-License-Identifier: GPL-2.0-only
/*
 * mounts.c - find the local filesystems mounted now and read their mount stamps
 *
 * Each ext2/3/4 filesystem on a block device, once, from /proc/self/mountinfo.
 * torpor-resume refuses the image if any of them was mounted again since.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devname.h"
#include "fsstamp.h"
#include "mounts.h"

/**
 * mounts_parse_line() - device number and filesystem type of one mountinfo line
 * Return: 0, or -EINVAL for a line of another shape.
 */
int mounts_parse_line(const char *line, unsigned int *ret_major, unsigned int *ret_minor,
		      char *ret_fstype, size_t fstype_len)
{
	unsigned int ma, mi;
	const char *sep;
	char type[64];

	if (sscanf(line, "%*u %*u %u:%u", &ma, &mi) != 2)
		return -EINVAL;
	sep = strstr(line, " - ");
	if (!sep || sscanf(sep + 3, "%63s", type) != 1)
		return -EINVAL;
	*ret_major = ma;
	*ret_minor = mi;
	snprintf(ret_fstype, fstype_len, "%s", type);
	return 0;
}

static int is_ext(const char *type)
{
	return !strcmp(type, "ext4") || !strcmp(type, "ext3") || !strcmp(type, "ext2");
}

/**
 * mounts_collect() - stamps of all mounted local ext filesystems
 * @ret: a malloc()ed table, @ret_n: its length (both written on success)
 * Return: 0 or -errno.  A filesystem whose device cannot be read is skipped.
 */
int mounts_collect(struct torpor_fsrec **ret, uint32_t *ret_n)
{
	char line[4096], type[64];
	struct torpor_fsrec *tab = NULL, *nt, f;
	unsigned int ma, mi;
	uint32_t n = 0, i;
	FILE *fp;
	int fd;

	fp = fopen("/proc/self/mountinfo", "re");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (mounts_parse_line(line, &ma, &mi, type, sizeof(type)) < 0 || !is_ext(type) ||
		    ma == 0)
			continue;
		for (i = 0; i < n; i++)
			if (tab[i].dev == (ma << 20 | mi))
				break;
		if (i < n)
			continue;
		fd = devname_open(makedev(ma, mi), O_RDONLY);
		if (fd < 0)
			continue;
		if (fsstamp_read(fd, &f) == 0) {
			nt = realloc(tab, (n + 1) * sizeof(*tab));
			if (!nt) {
				close(fd);
				fclose(fp);
				free(tab);
				return -ENOMEM;
			}
			tab = nt;
			f.dev = ma << 20 | mi;
			tab[n++] = f;
		}
		close(fd);
	}
	fclose(fp);
	*ret = tab;
	*ret_n = n;
	return 0;
}
