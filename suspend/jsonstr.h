/* SPDX-License-Identifier: GPL-2.0-only */
/* jsonstr.h - a string as JSON text, whatever its bytes (jsonstr.c) */
#ifndef SUSPEND_JSONSTR_H
#define SUSPEND_JSONSTR_H

#include <stddef.h>
#include <stdio.h>

void json_string(FILE *f, const char *s);
size_t utf8_len(const unsigned char *p);

#endif
