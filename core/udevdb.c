// SPDX-License-Identifier: GPL-2.0-only
/*
 * udevdb.c - the udev properties that keep a device from being probed
 *
 * Where each comes from (udev rules):
 *  - DM_UDEV_DISABLE_DISK_RULES_FLAG: device-mapper's 13-dm-disk.rules runs no
 *    blkid and makes no by-uuid link; LVM sets it on its internal layers
 *    (a snapshot's origin "-real" and "-cow", thin pools, pvmove).
 *  - DM_UDEV_DISABLE_OTHER_RULES_FLAG: no rule outside device-mapper's looks at
 *    the device: the same internal devices, cryptsetup's temporary ones, a
 *    suspended device, a multipath map with no usable path.
 *  - DM_NOSCAN, MPATH_DEVICE_READY=0: multipath-tools' 11-dm-mpath.rules on a
 *    map with no usable path ("there would be a hang or IO error on access").
 *  - DM_SUSPENDED: its I/O waits until it is resumed.
 *  - DM_MULTIPATH_DEVICE_PATH=1, ID_FS_TYPE=mpath_member: a path of a
 *    multipath map (multipath.rules), which shows the map's content.
 *  - UDEV_DISABLE_PERSISTENT_STORAGE_RULES_FLAG, _BLKID_FLAG: systemd's
 *    60-persistent-storage.rules does not probe it (the admin's switch for
 *    slow devices, and tools that keep udev off their devices).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "udevdb.h"

#define LINE_MAX_DB	512	/* longer lines (a long symlink) are skipped */

static const char *const no_probe[] = {
	"DM_UDEV_DISABLE_DISK_RULES_FLAG=1",
	"DM_UDEV_DISABLE_OTHER_RULES_FLAG=1",
	"DM_NOSCAN=1",
	"DM_SUSPENDED=1",
	"MPATH_DEVICE_READY=0",
	"DM_MULTIPATH_DEVICE_PATH=1",
	"ID_FS_TYPE=mpath_member",
	"UDEV_DISABLE_PERSISTENT_STORAGE_RULES_FLAG=1",
	"UDEV_DISABLE_PERSISTENT_STORAGE_BLKID_FLAG=1",
};

/* The entry of no_probe[] that "E:" line @line (without "E:") is, or NULL. */
static const char *match(const char *line)
{
	size_t i;

	for (i = 0; i < sizeof(no_probe) / sizeof(no_probe[0]); i++)
		if (!strcmp(line, no_probe[i]))
			return no_probe[i];
	return NULL;
}

/* Does udev say not to probe it; kernel-doc in udevdb.h. */
int udevdb_no_probe(const char *path, char *ret_flag, size_t len)
{
	char chunk[1024], line[LINE_MAX_DB];
	const char *hit = NULL;
	int fd, r = 0, skip = 0, eof = 0;
	size_t at = 0, i;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while (!hit && !eof) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		/* a last line without its newline ends the record all the same */
		if (n == 0) {
			eof = 1;
			chunk[n++] = '\n';
		}
		for (i = 0; i < (size_t)n && !hit; i++) {
			if (chunk[i] != '\n') {
				if (at + 1 < sizeof(line))
					line[at++] = chunk[i];
				else
					skip = 1;
				continue;
			}
			line[at] = '\0';
			if (!skip && at > 2 && line[0] == 'E' && line[1] == ':')
				hit = match(line + 2);
			at = 0;
			skip = 0;
		}
	}
	close(fd);
	if (r < 0)
		return r;
	if (!hit)
		return 0;
	if (len)
		snprintf(ret_flag, len, "%s", hit);
	return 1;
}
