/* SPDX-License-Identifier: GPL-2.0-only */
/* ascii.h - ASCII text without a locale (the initramfs has none): hex digits, case */
#ifndef CORE_ASCII_H
#define CORE_ASCII_H

/* The value of hex digit @c, or -1. */
static inline int ascii_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static inline int ascii_tolower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* ASCII case-insensitive equality; no locale in the initramfs. */
static inline int ascii_eq_nocase(const char *a, const char *b)
{
	while (*a && ascii_tolower((unsigned char)*a) == ascii_tolower((unsigned char)*b)) {
		a++;
		b++;
	}
	return *a == *b;
}

#endif
