/* SPDX-License-Identifier: GPL-2.0-only */
/* unescape.h - the kernel's \ooo escapes in /proc files (mountinfo, swaps), undone */
#ifndef CORE_UNESCAPE_H
#define CORE_UNESCAPE_H

/**
 * unescape_octal() - undo the kernel's \ooo escapes in @s, in place
 * Three octal digits after a backslash are one byte; any other backslash stays.
 * Return: 0, or -EINVAL when an escape decodes to NUL or past 0377 (@s is then undefined).
 */
int unescape_octal(char *s);

#endif
