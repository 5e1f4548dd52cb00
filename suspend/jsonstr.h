/* SPDX-License-Identifier: GPL-2.0-only */
/* jsonstr.h - a string as JSON text, whatever its bytes (jsonstr.c) */
#ifndef SUSPEND_JSONSTR_H
#define SUSPEND_JSONSTR_H

#include <stdio.h>

void json_string(FILE *f, const char *s);

#endif
