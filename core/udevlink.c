// SPDX-License-Identifier: GPL-2.0-only
/*
 * udevlink.c - udev's /dev/disk/by-* links: the device a tag's link names,
 * with the tag value encoded in the link's name as udev does (libblkid's
 * blkid_encode_string()), and decoded back
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "ascii.h"
#include "devroot.h"
#include "udevlink.h"

/* Valid UTF-8 sequence length at @s (2..4), or 0. */
static int utf8_seq(const unsigned char *s)
{
	int n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* libblkid's blkid_encode_string(), which names udev's by-label links: "a b" -> "a\x20b". */
static int udev_encode(const char *in, char *out, size_t len)
{
	static const char ok[] = "#+-.:=@_";
	size_t j = 0;
	int n;

	for (; *in; in += n) {
		unsigned char c = *in;

		n = utf8_seq((const unsigned char *)in);
		if (n == 0)
			n = 1;
		if (n == 1 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
				(c >= 'A' && c <= 'Z') || strchr(ok, c))) {
			if (j + 4 >= len)
				return -ENAMETOOLONG;
			snprintf(out + j, 5, "\\x%02x", c);
			j += 4;
			continue;
		}
		if (j + n >= len)
			return -ENAMETOOLONG;
		memcpy(out + j, in, n);
		j += n;
	}
	out[j] = '\0';
	return 0;
}

/* Undo udev_encode(): "\xHH" back to the byte; kernel-doc in udevlink.h. */
int udevlink_decode(const char *in, char *out, size_t len)
{
	size_t j = 0;

	while (*in) {
		if (j + 1 >= len)
			return -EINVAL;
		if (in[0] == '\\' && in[1] == 'x' && ascii_hexval((unsigned char)in[2]) >= 0 &&
		    ascii_hexval((unsigned char)in[3]) >= 0) {
			out[j] = ascii_hexval((unsigned char)in[2]) << 4 |
				 ascii_hexval((unsigned char)in[3]);
			if (!out[j++])
				return -EINVAL;
			in += 4;
		} else {
			out[j++] = *in++;
		}
	}
	out[j] = '\0';
	return 0;
}

/* The link /dev/disk/@dir/VALUE, @value encoded; kernel-doc in udevlink.h. */
int udevlink_find(const char *dir, const char *value, int fold, dev_t *ret)
{
	char name[UDEVLINK_NAME_MAX];
	size_t i;
	int r;

	r = udev_encode(value, name, sizeof(name));
	if (r < 0)
		return r;
	r = devroot_stat_block(ret, "/dev/disk/%s/%s", dir, name);
	if (r == 0 || !fold)
		return r;
	/* udev names these links in lower case */
	for (i = 0; name[i]; i++)
		name[i] = ascii_tolower((unsigned char)name[i]);
	return devroot_stat_block(ret, "/dev/disk/%s/%s", dir, name);
}
