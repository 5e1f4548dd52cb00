/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fsstamp.h - what changes on a filesystem each time it is mounted
 *
 * torpor records it for each local filesystem mounted when hibernating and
 * compares before resuming: a filesystem mounted (read-write) in between has a
 * new mount count and mount time, and restoring the old memory over it would
 * corrupt it.  TuxOnIce had this check; the kernel and uswsusp do not.
 */
#ifndef CORE_FSSTAMP_H
#define CORE_FSSTAMP_H

#include <stdint.h>

#include "image.h"

#define FSSTAMP_READ_BYTES 2048		/* read this much from the start of the device */

int fsstamp_parse(const uint8_t *buf, size_t len, struct torpor_fsrec *ret);
int fsstamp_read(int fd, struct torpor_fsrec *ret);
int fsstamp_same(const struct torpor_fsrec *then, const struct torpor_fsrec *now);
void fsstamp_uuid_str(const uint8_t uuid[16], char out[37]);

#endif
