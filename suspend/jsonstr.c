// SPDX-License-Identifier: GPL-2.0-only
/*
 * jsonstr.c - a string as JSON text (RFC 8259): quoted, '"' and '\' escaped,
 * control characters (C0, DEL and C1) as \u00XX, and bytes that are not
 * UTF-8 (paths, a kernel command line, an image's kernel name: untrusted) as
 * U+FFFD, so the output always parses; and the UTF-8 test statussay.c's
 * terminal lines use
 */
#include <stdio.h>
#include <string.h>

#include "jsonstr.h"

/**
 * utf8_len() - the length of the well-formed UTF-8 sequence at @p (Unicode 15,
 * table 3-7): 1 for ASCII (NUL included), 2-4, or 0 when the bytes there are
 * not one (a NUL ends the string: a sequence cut by it is not one)
 */
size_t utf8_len(const unsigned char *p)
{
	unsigned char c = p[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;	/* no surrogates */
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;	/* nothing past U+10FFFF */
	for (i = 1; i < n; i++) {
		if (p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xbf))
			return 0;	/* a NUL ends the string here too */
	}
	return n;
}

/**
 * json_string() - write @s to @f as a JSON string, quotes included; NULL as null
 * @f: the stream
 * @s: a NUL-terminated string of any bytes, or NULL
 */
void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	if (!s) {
		fputs("null", f);
		return;
	}
	putc('"', f);
	while (*p) {
		n = utf8_len(p);
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
		} else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) {
			/* a C1 control (CSI, OSC): valid JSON raw, but it acts on a terminal */
			fprintf(f, "\\u%04x", p[1]);
		} else if (n == 0) {
			fputs("\\ufffd", f);
			n = 1;
		} else {
			fwrite(p, 1, n, f);
		}
		p += n ? n : 1;
	}
	putc('"', f);
}
