/* SPDX-License-Identifier: GPL-2.0-only */
/* mounts.h - stamps of the local filesystems mounted while hibernating */
#ifndef SUSPEND_MOUNTS_H
#define SUSPEND_MOUNTS_H

#include <stdint.h>

#include "image.h"

int mounts_parse_line(const char *line, unsigned int *ret_major, unsigned int *ret_minor,
		      char *ret_fstype, size_t fstype_len);
int mounts_collect(struct torpor_fsrec **ret, uint32_t *ret_n);

#endif
