/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udevlink.h - udev's /dev/disk/by-* links: the device a tag's link names,
 * with the tag value encoded in the link's name as udev does, and decoded back
 */
#ifndef CORE_UDEVLINK_H
#define CORE_UDEVLINK_H

#include <stddef.h>
#include <sys/types.h>

#define UDEVLINK_NAME_MAX	1024	/* a link's name: room for a 256-byte value, encoded */

/**
 * udevlink_find() - the device of udev's link /dev/disk/@dir/NAME for @value
 * @dir: "by-uuid", "by-label", "by-partuuid" or "by-partlabel"
 * @value: the tag value, encoded into NAME as udev does ("a b" is "a\x20b")
 * @fold: also try NAME in lower case (udev writes UUIDs so)
 * @ret: written on success only
 *
 * Return: 0; -ENOENT without such a link; -ENOTBLK; -ENAMETOOLONG; -errno from stat().
 */
int udevlink_find(const char *dir, const char *value, int fold, dev_t *ret);

/**
 * udevlink_decode() - a link's name back to the tag value
 * @in: the name, "\xHH" for each encoded byte
 * @out: the value, NUL-terminated
 * @len: size of @out
 *
 * Return: 0, or -EINVAL when it does not fit or encodes a NUL.
 */
int udevlink_decode(const char *in, char *out, size_t len);

#endif
