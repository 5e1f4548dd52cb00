/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fsstamp.h - what changes on a filesystem each time it is mounted
 *
 * torpor records it for each local filesystem mounted when hibernating and
 * compares before resuming: a filesystem mounted (read-write) in between has a
 * new mount count and mount time (ext), a new transaction generation (btrfs), or
 * a new superblock LSN or log record at the old log head (xfs), and restoring the
 * old memory over it would corrupt it.  TuxOnIce had this check; the kernel and
 * uswsusp do not.  What each struct torpor_fsrec field holds per kind: image.h.
 */
#ifndef CORE_FSSTAMP_H
#define CORE_FSSTAMP_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"

/* read this much from the start of the device: btrfs's superblock is at 64 KiB */
#define FSSTAMP_READ_BYTES	(65536 + 4096)
/* xfs: the log head is not known (no sysfs, external log): the superblock LSN only */
#define FSSTAMP_NO_LOG_HEAD	UINT64_MAX
/* ext: in write_time above s_wtime, the needs_recovery flag of the superblock */
#define FSSTAMP_EXT_RECOVER	(1ULL << 32)

int fsstamp_parse(const uint8_t *buf, size_t len, struct torpor_fsrec *ret);
int fsstamp_read(int fd, uint64_t log_head, struct torpor_fsrec *ret);
int fsstamp_read_buf(int fd, uint8_t *buf, uint64_t log_head, struct torpor_fsrec *ret);
int fsstamp_btrfs_dev(const uint8_t *buf, size_t len, uint64_t *ret_devid,
		      uint64_t *ret_num_devices);
uint64_t fsstamp_log_head(const struct torpor_fsrec *f);
int fsstamp_parse_log_head(const char *text, uint64_t *ret);
int fsstamp_same(const struct torpor_fsrec *then, const struct torpor_fsrec *now);
void fsstamp_describe(const struct torpor_fsrec *then, const struct torpor_fsrec *now,
		      char *buf, size_t len);
const char *fsstamp_kind_name(uint32_t kind);
void fsstamp_uuid_str(const uint8_t uuid[16], char out[37]);

#endif
