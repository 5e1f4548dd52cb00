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

/*
 * Every form a resume= spec takes, in the order resolve() tries them (klibc's
 * name_to_dev_t() keeps one such list):
 *
 *   /dev/disk/by-uuid/NAME       udev's link, checked against the devices'
 *   /dev/disk/by-label/NAME      content as the tag NAME stands for (NAME is
 *   /dev/disk/by-partuuid/NAME   encoded as udev does: "\x20" for a blank);
 *   /dev/disk/by-partlabel/NAME  a NAME the tag does not take: the link alone
 *   /dev/disk/by-KIND/NAME       any other udev link (by-id, by-path): the link
 *   /dev/NAME                    the node, else NAME as sysfs knows it, a '/'
 *                                spelt '!' (cciss/c0d0): no devtmpfs needed
 *   /dev/mapper/NAME             the node, else the dm device sysfs calls NAME
 *   UUID=VALUE                   a swap area's or filesystem's (ext2/3/4, xfs,
 *                                btrfs): hex digits in any case, '-' anywhere
 *   LABEL=VALUE                  a swap area's or filesystem's label, exactly
 *   PARTUUID=VALUE               a GPT partition's unique GUID, or an MBR
 *                                partition's "SSSSSSSS-PP" (signature-number)
 *   PARTLABEL=VALUE              a GPT partition's name, exactly
 *   MAJ:MIN                      in decimal: a 12-bit major, a 20-bit minor
 *   HEX                          the kernel's bare hex form, "0x" allowed:
 *                                fe10 is 254:16
 *
 * A tag's VALUE may be wrapped in double quotes.  A /dev path with an empty,
 * "." or ".." component is refused.  The four tags, with their udev links:
 */
static const struct tag_form {
	const char *tag;		/* as resume= writes it */
	const char *link;		/* udev's directory of links for it, in /dev/disk */
	enum lookup what;
	int fold;			/* udev writes the link's name in lower case */
} forms[] = {
	[LK_UUID] = { "UUID=", "by-uuid", LK_UUID, 1 },
	[LK_LABEL] = { "LABEL=", "by-label", LK_LABEL, 0 },
	[LK_PARTUUID] = { "PARTUUID=", "by-partuuid", LK_PARTUUID, 1 },
	[LK_PARTLABEL] = { "PARTLABEL=", "by-partlabel", LK_PARTLABEL, 0 },
};

/* The form whose tag @spec starts with ("UUID=..."), its value in *@ret_value; or NULL. */
static const struct tag_form *tag_form(const char *spec, const char **ret_value)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		n = strlen(forms[i].tag);
		if (!strncmp(spec, forms[i].tag, n)) {
			*ret_value = spec + n;
			return &forms[i];
		}
	}
	return NULL;
}

/* The form whose udev link @path is ("/dev/disk/by-uuid/NAME"), NAME in *@ret_name; or NULL. */
static const struct tag_form *link_form(const char *path, const char **ret_name)
{
	size_t i, n;

	if (strncmp(path, "/dev/disk/", 10))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		n = strlen(forms[i].link);
		if (!strncmp(path + 10, forms[i].link, n) && path[10 + n] == '/') {
			*ret_name = path + 10 + n + 1;
			return &forms[i];
		}
	}
	return NULL;
}

/* The tag value a link's NAME encodes: 0, or -EINVAL. */
static int link_value(const char *name, char *value, size_t len)
{
	if (strchr(name, '/') || udevlink_decode(name, value, len) < 0)
		return -EINVAL;
	return 0;
}

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

/* Whether @value is one tag @f takes: 1 or 0. */
static int tag_takes(const struct tag_form *f, const char *value)
{
	char out[TAG_VALUE_MAX], norm[TAG_VALUE_MAX];

	return tag_value(f->what, value, out, sizeof(out), norm) == 0;
}

/*
 * UUID=, LABEL=, PARTUUID=, PARTLABEL=: the udev link (if @links), then a sysfs
 * scan.  With @all, the scan always runs and collects every match in @all.
 * An enum devscan_found (the link counts as found), or -errno.
 */
static int resolve_tag_scan(const struct tag_form *f, const char *raw, int links, dev_t *ret,
			    struct scan *all)
{
	char value[TAG_VALUE_MAX];
	dev_t dev = 0, link = 0;
	int r, have_link = 0;
	struct scan s;

	memset(&s, 0, sizeof(s));
	r = tag_value(f->what, raw, value, sizeof(value), s.norm);
	if (r < 0)
		return r;
	if (links && !all && udevlink_find(f->link, value, f->fold, &link) == 0)
		have_link = 1;
	s.what = f->what;
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
		if (r == DEVSCAN_MANY ||
		    (r == DEVSCAN_ONE && dev != link && !devscan_built_on(dev, link)))
			return DEVSCAN_MANY;
		if (r != DEVSCAN_ONE)
			dev = link;
		r = DEVSCAN_ONE;
	}
	if (r == DEVSCAN_ONE)
		*ret = dev;
	return r;
}

/* A tag's one device: 0, -ENOENT when none carries it, -ENOTUNIQ when two do, -errno. */
static int resolve_tag(const struct tag_form *f, const char *raw, int links, dev_t *ret)
{
	int r = resolve_tag_scan(f, raw, links, ret, NULL);

	if (r == DEVSCAN_NONE)
		return -ENOENT;
	if (r == DEVSCAN_MANY)
		return -ENOTUNIQ;
	return r == DEVSCAN_ONE ? 0 : r;
}

/* /dev/disk/by-KIND/NAME: the link, else the tag it stands for. */
static int resolve_disk_link(const char *path, dev_t *ret)
{
	char value[TAG_VALUE_MAX];
	const struct tag_form *f;
	const char *name;
	int r;

	f = link_form(path, &name);
	if (f) {
		if (link_value(name, value, sizeof(value)) < 0)
			return -EINVAL;
		/* the link if there is one, checked against the devices' content */
		if (tag_takes(f, value))
			return resolve_tag(f, value, 1, ret);
		/* a name our tags do not take: the link alone */
	}
	r = devroot_stat_block(ret, "%s", path);
	return r == 0 || r == -ENOTBLK ? r : -ENOENT;
}

/* /dev/NAME: the node, else the name in sysfs (no devtmpfs), else a dm name. */
static int resolve_dev_path(const char *path, dev_t *ret)
{
	const char *rel = path + 5;
	char name[NODE_NAME_MAX];
	struct scan s;
	size_t i;
	int r;

	if (!devroot_rel_is_safe(rel))
		return -EINVAL;
	if (!strncmp(rel, "disk/by-", 8))
		return resolve_disk_link(path, ret);
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
		if (devscan_block(&s, ret) == DEVSCAN_ONE)
			return 0;
	}
	return r == -ENOENT || r == -ENOTDIR ? -ENOENT : r;
}

static int resolve(const char *spec, dev_t *ret)
{
	const struct tag_form *f;
	const char *value;
	int r;

	if (!strncmp(spec, "/dev/", 5))
		return resolve_dev_path(spec, ret);
	f = tag_form(spec, &value);
	if (f)
		return resolve_tag(f, value, 1, ret);
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
	r = resolve_tag(&forms[LK_UUID], uuid, 0, &dev);
	devread_lookup_end();
	if (r < 0)
		return r;
	*ret_dev = dev;
	return 0;
}

/* devname_resolve_all() within one lookup */
static int resolve_all(const char *spec, dev_t *ret_devs, size_t cap, size_t *ret_n)
{
	char value[TAG_VALUE_MAX];
	const struct tag_form *f;
	const char *v;
	struct scan all;
	dev_t dev;
	int r;

	*ret_n = 0;
	if (!spec || !*spec || strlen(spec) >= PATH_MAX || !cap)
		return -EINVAL;
	f = tag_form(spec, &v);
	if (f) {
		if (strlen(v) >= sizeof(value))
			return -EINVAL;
		memcpy(value, v, strlen(v) + 1);
	} else {
		f = link_form(spec, &v);
		if (f && link_value(v, value, sizeof(value)) < 0)
			return -EINVAL;
	}
	if (!f) {
		r = devname_resolve(spec, &dev);
		if (r < 0)
			return r;
		ret_devs[0] = dev;
		*ret_n = 1;
		return 0;
	}
	memset(&all, 0, sizeof(all));
	all.all = ret_devs;
	all.cap = cap;
	r = resolve_tag_scan(f, value, 0, &dev, &all);
	if (r < 0)
		return r;
	*ret_n = all.n;
	return all.n ? 0 : -ENOENT;
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
	char value[TAG_VALUE_MAX], norm[TAG_VALUE_MAX];
	const struct tag_form *f;
	const char *v;
	dev_t dev;
	int r;

	if (!spec || strlen(spec) >= PATH_MAX)
		return -EINVAL;
	r = -EINVAL;
	if (!strncmp(spec, "/dev/disk/by-", 13)) {
		r = devroot_rel_is_safe(spec + 5) ? devroot_stat_block(&dev, "%s", spec) : -EINVAL;
	} else {
		f = tag_form(spec, &v);
		if (f)
			r = tag_value(f->what, v, value, sizeof(value), norm);
		if (f && r == 0)
			r = udevlink_find(f->link, value, f->fold, &dev);
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
