// SPDX-License-Identifier: GPL-2.0-only
/*
 * mounts.c - find the local filesystems mounted now and read their mount stamps
 *
 * Each ext2/3/4, btrfs and xfs filesystem on a block device, once, from
 * /proc/self/mountinfo.
 * torpor-resume refuses the image if any of them was mounted again since.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devname.h"
#include "fsstamp.h"
#include "mounts.h"
#include "target.h"

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

/* The types core/fsstamp.c reads a stamp of. */
static int has_stamp(const char *type)
{
	return !strcmp(type, "ext4") || !strcmp(type, "ext3") || !strcmp(type, "ext2") ||
	       !strcmp(type, "btrfs") || !strcmp(type, "xfs");
}

/*
 * btrfs shows an anonymous device number (0:N) in mountinfo, one per subvolume:
 * its block device is the mount source (one of its devices when it has several).
 */
static int source_device(const char *line, unsigned int *ret_major, unsigned int *ret_minor)
{
	const char *sep = strstr(line, " - ");
	char src[256];
	struct stat st;

	if (!sep || sscanf(sep + 3, "%*s %255s", src) != 1)
		return -EINVAL;
	target_unescape(src);
	if (stat(src, &st) < 0 || !S_ISBLK(st.st_mode))
		return -ENODEV;
	*ret_major = major(st.st_rdev);
	*ret_minor = minor(st.st_rdev);
	return 0;
}

/**
 * mounts_collect() - stamps of all mounted local ext, btrfs and xfs filesystems
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
		if (mounts_parse_line(line, &ma, &mi, type, sizeof(type)) < 0 || !has_stamp(type))
			continue;
		if (ma == 0 && (strcmp(type, "btrfs") || source_device(line, &ma, &mi) < 0))
			continue;
		for (i = 0; i < n; i++)
			if (tab[i].dev == (ma << 20 | mi))
				break;
		if (i < n)
			continue;
		fd = devname_open(makedev(ma, mi), O_RDONLY);
		if (fd < 0)
			continue;
		if (fsstamp_read(fd, FSSTAMP_NO_LOG_HEAD, &f) == 0) {
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
