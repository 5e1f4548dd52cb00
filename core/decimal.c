// SPDX-License-Identifier: GPL-2.0-only
/* decimal.c - strict decimal numbers: command line values, sysfs and /proc fields */
#include <errno.h>

#include "decimal.h"

/* Parse exactly @len digits; kernel-doc in decimal.h. */
int decimal_parse(const char *s, size_t len, unsigned long long max, unsigned long long *ret)
{
	unsigned long long v = 0;
	size_t i;

	if (!s || len == 0)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (max - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

size_t decimal_span(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}
