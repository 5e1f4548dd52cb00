// SPDX-License-Identifier: GPL-2.0-only
/*
 * devnum.c - device numbers written as text: "MAJ:MIN", as sysfs and resume=
 * write them, and the kernel's bare hex form
 */
#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include "ascii.h"
#include "decimal.h"
#include "devnum.h"

/* Strict decimal of exactly @n bytes, no sign, no overflow past @max. */
static int parse_uint(const char *s, size_t n, unsigned long max, unsigned long *ret)
{
	unsigned long long v;
	int r = decimal_parse(s, n, max, &v);

	if (r == 0)
		*ret = (unsigned long)v;
	return r;
}

/* "MAJ:MIN" in decimal, 12-bit major and 20-bit minor; kernel-doc in devnum.h. */
int devnum_parse_majmin(const char *s, dev_t *ret)
{
	const char *colon = strchr(s, ':');
	unsigned long maj = 0, min = 0;

	if (!colon || parse_uint(s, colon - s, 0xfff, &maj) < 0 ||
	    parse_uint(colon + 1, strlen(colon + 1), 0xfffff, &min) < 0)
		return -EINVAL;
	*ret = makedev(maj, min);
	return 0;
}

/* The kernel's bare hex form, e.g. fe10 = 254:16; kernel-doc in devnum.h. */
int devnum_parse_hex(const char *s, dev_t *ret)
{
	unsigned long v = 0;
	size_t i, n;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	n = strlen(s);
	if (n == 0 || n > 8)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		int d = ascii_hexval((unsigned char)s[i]);

		if (d < 0)
			return -EINVAL;
		v = (v << 4) | d;
	}
	if (v == 0)
		return -EINVAL;
	*ret = makedev((v & 0xfff00) >> 8, (v & 0xff) | ((v >> 12) & 0xfff00));
	return 0;
}
