// SPDX-License-Identifier: GPL-2.0-only
/* unescape.c - the kernel's \ooo escapes in /proc files, undone */
#include <errno.h>

#include "unescape.h"

int unescape_octal(char *s)
{
	char *d = s;
	unsigned int v;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			v = (unsigned int)(s[1] - '0') << 6 | (unsigned int)(s[2] - '0') << 3 |
			    (unsigned int)(s[3] - '0');
			if (v == 0 || v > 0377)
				return -EINVAL;
			*d++ = (char)v;
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
	return 0;
}
