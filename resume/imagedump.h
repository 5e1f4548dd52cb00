/* SPDX-License-Identifier: GPL-2.0-only */
/* imagedump.h - --dump: the image's header and map, described on stdout */
#ifndef RESUME_IMAGEDUMP_H
#define RESUME_IMAGEDUMP_H

#include "loader.h"

void imagedump_print(const struct loader *l, const char *name);

#endif
