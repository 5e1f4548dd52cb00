/* SPDX-License-Identifier: GPL-2.0-only */
/* decimal.h - the one strict decimal number parser of both programs */
#ifndef CORE_DECIMAL_H
#define CORE_DECIMAL_H

#include <stddef.h>

/**
 * decimal_parse() - a strict decimal number
 * @s: the digits (need not be NUL-terminated)
 * @len: how many bytes of @s to read
 * @max: the largest value accepted
 * @ret: the value, set on success only
 *
 * Only the digits 0-9: no sign, no spaces, no "0x", no suffix.
 * Return: 0, or -EINVAL when @s is empty, has another byte or exceeds @max.
 */
int decimal_parse(const char *s, size_t len, unsigned long long max, unsigned long long *ret);

/* The length of the run of digits at the start of @s. */
size_t decimal_span(const char *s);

#endif
