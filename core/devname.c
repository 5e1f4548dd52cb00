// SPDX-License-Identifier: GPL-2.0-only
/*
 * devname.c - resolve what resume= names to a block device number
 *
 * The resume side runs in an initramfs that may have no udev, so every tag
 * (UUID=, LABEL=, PARTUUID=, PARTLABEL=) has two routes: the /dev/disk/by-*
 * link when udev made one (udevlink.c), else a scan of /sys/class/block that
 * reads the devices' content (devscan.c).  Only device numbers come out of
 * here; devname_open() (devopen.c) opens them.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include "ascii.h"
#include "devname.h"
#include "devnum.h"
#include "devscan.h"
#include "sysblock.h"
#include "udevlink.h"
#include "util.h"

/* Whether @dev exists; without a sysfs to ask, assume it does. */
static int dev_present(dev_t dev)
{
	char path[PATH_MAX];
	struct stat st;

	if (devroot_path(path, sizeof(path), "/sys/dev/block/%u:%u",
			 (unsigned int)major(dev), (unsigned int)minor(dev)) < 0)
		return -EINVAL;
	if (stat(path, &st) == 0)
		return 0;
	if (devroot_path(path, sizeof(path), "/sys/dev/block") < 0 || stat(path, &st) == 0)
		return -ENOENT;
	return 0;
}

static int is_guid_text(const char *v)
{
	int i;

	if (strlen(v) != 36)
		return 0;
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (v[i] != '-')
				return 0;
		} else if (ascii_hexval((unsigned char)v[i]) < 0) {
			return 0;
		}
	}
	return 1;
}

/* The kernel's MBR PARTUUID: 8 hex digits, '-', the partition number in 2 or 3 hex digits. */
static int is_mbr_partuuid(const char *v)
{
	size_t i, n = strlen(v);

	if (n < 11 || n > 12 || v[8] != '-')
		return 0;
	for (i = 0; i < n; i++)
		if (i != 8 && ascii_hexval((unsigned char)v[i]) < 0)
			return 0;
	return 1;
}

/* Copy a tag value, without one pair of surrounding double quotes, and check its form. */
static int tag_value(enum lookup what, const char *raw, char *out, size_t len, char *norm)
{
	size_t n = strlen(raw), i, j = 0;

	if (n >= 2 && raw[0] == '"' && raw[n - 1] == '"') {
		raw++;
		n -= 2;
	}
	if (n == 0 || n >= len)
		return -EINVAL;
	memcpy(out, raw, n);
	out[n] = '\0';
	if (what == LK_PARTUUID && !is_guid_text(out) && !is_mbr_partuuid(out))
		return -EINVAL;
	if (what != LK_UUID)
		return 0;
	for (i = 0; i < n; i++) {
		if (out[i] == '-')
			continue;
		if (ascii_hexval((unsigned char)out[i]) < 0)
			return -EINVAL;
		norm[j++] = ascii_tolower((unsigned char)out[i]);
	}
	norm[j] = '\0';
	return j ? 0 : -EINVAL;
}

/* The udev link /dev/disk/by-KIND/VALUE, when there is one. */
static int try_link(enum lookup what, const char *value, dev_t *ret)
{
	static const char *const dirs[] = { "by-uuid", "by-label", "by-partuuid", "by-partlabel" };

	return udevlink_find(dirs[what], value, what == LK_UUID || what == LK_PARTUUID, ret);
}

/*
 * UUID=, LABEL=, PARTUUID=, PARTLABEL=: the udev link (if @links), then a sysfs
 * scan.  With @all, the scan always runs and collects every match in @all.
 */
static int resolve_tag_scan(enum lookup what, const char *raw, int links, dev_t *ret,
			    struct scan *all)
{
	char value[TAG_VALUE_MAX];
	dev_t dev = 0, link = 0;
	int r, have_link = 0;
	struct scan s;

	memset(&s, 0, sizeof(s));
	r = tag_value(what, raw, value, sizeof(value), s.norm);
	if (r < 0)
		return r;
	if (links && !all && try_link(what, value, &link) == 0)
		have_link = 1;
	s.what = what;
	s.value = value;
	if (all) {
		s.all = all->all;
		s.cap = all->cap;
	}
	r = devscan_block(&s, &dev);
	if (all)
		all->n = s.n;
	if (have_link) {
		/*
		 * udev links one device even when two carry the tag (a copy of a
		 * disk), not necessarily the one that matters: the devices' content
		 * decides.  A link to a format the probe does not know stands; one
		 * to a device that the content's one is built on (a multipath path's
		 * partition, before udev moves the link to the map's) yields to it.
		 */
		if (r == -ENOTUNIQ || (r == 0 && dev != link && !devscan_built_on(dev, link)))
			return -ENOTUNIQ;
		if (r != 0)
			dev = link;
		r = 0;
	}
	if (r == 0)
		*ret = dev;
	return r;
}

static int resolve_tag(enum lookup what, const char *raw, int links, dev_t *ret)
{
	return resolve_tag_scan(what, raw, links, ret, NULL);
}

/* /dev/disk/by-KIND/NAME: the link, else the tag it stands for. */
static int resolve_disk_link(const char *rel, dev_t *ret)
{
	static const struct {
		const char *dir;
		enum lookup what;
	} kinds[] = {
		{ "disk/by-uuid/", LK_UUID },
		{ "disk/by-label/", LK_LABEL },
		{ "disk/by-partuuid/", LK_PARTUUID },
		{ "disk/by-partlabel/", LK_PARTLABEL },
	};
	char value[TAG_VALUE_MAX];
	size_t i, n;
	int r;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		n = strlen(kinds[i].dir);
		if (strncmp(rel, kinds[i].dir, n))
			continue;
		if (strchr(rel + n, '/') || udevlink_decode(rel + n, value, sizeof(value)) < 0)
			return -EINVAL;
		/* the link if there is one, checked against the devices' content */
		r = resolve_tag(kinds[i].what, value, 1, ret);
		if (r != -EINVAL)
			return r;
		break;		/* a name our tags do not take: the link alone */
	}
	r = devroot_stat_block(ret, "/dev/%s", rel);
	return r == 0 || r == -ENOTBLK ? r : -ENOENT;
}

/* /dev/NAME: the node, else the name in sysfs (no devtmpfs), else a dm name. */
static int resolve_dev_path(const char *rel, dev_t *ret)
{
	char name[NODE_NAME_MAX];
	struct scan s;
	size_t i;
	int r;

	if (!devroot_rel_is_safe(rel))
		return -EINVAL;
	if (!strncmp(rel, "disk/by-", 8))
		return resolve_disk_link(rel, ret);
	r = devroot_stat_block(ret, "/dev/%s", rel);
	if (r == 0)
		return 0;
	/* sysfs spells a '/' in a kernel device name as '!' (cciss/c0d0) */
	if (strlen(rel) < sizeof(name)) {
		for (i = 0; rel[i]; i++)
			name[i] = rel[i] == '/' ? '!' : rel[i];
		name[i] = '\0';
		if (devroot_sysfs_dev(name, ret) == 0)
			return 0;
	}
	if (!strncmp(rel, "mapper/", 7) && !strchr(rel + 7, '/')) {
		memset(&s, 0, sizeof(s));
		s.what = LK_DMNAME;
		s.value = rel + 7;
		if (devscan_block(&s, ret) == 0)
			return 0;
	}
	return r == -ENOENT || r == -ENOTDIR ? -ENOENT : r;
}

static int resolve(const char *spec, dev_t *ret)
{
	static const struct {
		const char *prefix;
		enum lookup what;
	} tags[] = {
		{ "UUID=", LK_UUID },
		{ "LABEL=", LK_LABEL },
		{ "PARTUUID=", LK_PARTUUID },
		{ "PARTLABEL=", LK_PARTLABEL },
	};
	size_t i, n;
	int r;

	if (!strncmp(spec, "/dev/", 5))
		return resolve_dev_path(spec + 5, ret);
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		n = strlen(tags[i].prefix);
		if (!strncmp(spec, tags[i].prefix, n))
			return resolve_tag(tags[i].what, spec + n, 1, ret);
	}
	r = strchr(spec, ':') ? devnum_parse_majmin(spec, ret) : devnum_parse_hex(spec, ret);
	if (r < 0)
		return r;
	return dev_present(*ret);
}

/* The device of a filesystem UUID, by its content alone; kernel-doc in devname.h. */
int devname_resolve_uuid(const char *uuid, dev_t *ret_dev)
{
	dev_t dev;
	int r;

	if (!uuid || !*uuid)
		return -EINVAL;
	devread_lookup_start();
	r = resolve_tag(LK_UUID, uuid, 0, &dev);
	devread_lookup_end();
	if (r < 0)
		return r;
	*ret_dev = dev;
	return 0;
}

/* devname_resolve_all() within one lookup */
static int resolve_all(const char *spec, dev_t *ret_devs, size_t cap, size_t *ret_n)
{
	static const struct {
		const char *prefix;
		enum lookup what;
	} tags[] = {
		{ "UUID=", LK_UUID },
		{ "LABEL=", LK_LABEL },
		{ "PARTUUID=", LK_PARTUUID },
		{ "PARTLABEL=", LK_PARTLABEL },
		{ "/dev/disk/by-uuid/", LK_UUID },
		{ "/dev/disk/by-label/", LK_LABEL },
		{ "/dev/disk/by-partuuid/", LK_PARTUUID },
		{ "/dev/disk/by-partlabel/", LK_PARTLABEL },
	};
	char value[TAG_VALUE_MAX];
	struct scan all;
	dev_t dev;
	size_t i, n;
	int r;

	*ret_n = 0;
	if (!spec || !*spec || strlen(spec) >= PATH_MAX || !cap)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		n = strlen(tags[i].prefix);
		if (strncmp(spec, tags[i].prefix, n))
			continue;
		if (spec[0] == '/') {
			if (strchr(spec + n, '/') ||
			    udevlink_decode(spec + n, value, sizeof(value)) < 0)
				return -EINVAL;
		} else if (strlen(spec + n) < sizeof(value)) {
			memcpy(value, spec + n, strlen(spec + n) + 1);
		} else {
			return -EINVAL;
		}
		memset(&all, 0, sizeof(all));
		all.all = ret_devs;
		all.cap = cap;
		r = resolve_tag_scan(tags[i].what, value, 0, &dev, &all);
		if (r < 0 && r != -ENOTUNIQ)
			return r;
		*ret_n = all.n;
		return all.n ? 0 : -ENOENT;
	}
	r = devname_resolve(spec, &dev);
	if (r < 0)
		return r;
	ret_devs[0] = dev;
	*ret_n = 1;
	return 0;
}

/* Every device a tag names, by content; kernel-doc in devname.h. */
int devname_resolve_all(const char *spec, dev_t *ret_devs, size_t cap, size_t *ret_n)
{
	int r;

	devread_lookup_start();
	r = resolve_all(spec, ret_devs, cap, ret_n);
	devread_lookup_end();
	return r;
}

/* udev's link for a tag spec; kernel-doc in devname.h. */
int devname_link(const char *spec, dev_t *ret_dev)
{
	static const struct {
		const char *prefix;
		enum lookup what;
	} tags[] = {
		{ "UUID=", LK_UUID },
		{ "LABEL=", LK_LABEL },
		{ "PARTUUID=", LK_PARTUUID },
		{ "PARTLABEL=", LK_PARTLABEL },
	};
	char value[TAG_VALUE_MAX], norm[TAG_VALUE_MAX];
	size_t i, n;
	dev_t dev;
	int r;

	if (!spec || strlen(spec) >= PATH_MAX)
		return -EINVAL;
	r = -EINVAL;
	if (!strncmp(spec, "/dev/disk/by-", 13)) {
		r = devroot_rel_is_safe(spec + 5) ? devroot_stat_block(&dev, "%s", spec) : -EINVAL;
	} else {
		for (i = 0; i < ARRAY_SIZE(tags); i++) {
			n = strlen(tags[i].prefix);
			if (strncmp(spec, tags[i].prefix, n))
				continue;
			r = tag_value(tags[i].what, spec + n, value, sizeof(value), norm);
			if (r == 0)
				r = try_link(tags[i].what, value, &dev);
			break;
		}
	}
	if (r < 0)
		return r;
	/* reading it would hang the caller */
	if (sysblock_name(devroot_dir(), dev, value, sizeof(value)) == 0 &&
	    devscan_unreadable(value))
		return -EBUSY;
	*ret_dev = dev;
	return 0;
}

/* resume= spec to device number: 0, -ENOENT (wait), -EINVAL; kernel-doc in devname.h. */
int devname_resolve(const char *spec, dev_t *ret_dev)
{
	dev_t dev;
	int r;

	if (!spec || !*spec || strlen(spec) >= PATH_MAX)
		return -EINVAL;
	devread_lookup_start();
	r = resolve(spec, &dev);
	devread_lookup_end();
	if (r < 0)
		return r;
	*ret_dev = dev;
	return 0;
}
