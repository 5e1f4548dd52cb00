/* SPDX-License-Identifier: GPL-2.0-only */
/* restamp.h - read the recorded filesystems' stamps again once the snapshot is taken */
#ifndef SUSPEND_RESTAMP_H
#define SUSPEND_RESTAMP_H

#include <stdint.h>

#include "image.h"

/* the most devices of one btrfs the late check reads */
#define RESTAMP_BTRFS_MAX	64

/* A btrfs's device other than the one its record names (fd[index] reads that one). */
struct restamp_member {
	uint32_t index;		/* the filesystem's record */
	uint32_t dev;		/* major << 20 | minor */
	int fd;			/* opened as fd[] is, or -errno */
	uint8_t direct;		/* opened O_DIRECT */
};

struct restamp {
	uint32_t n;
	int *fd;		/* each filesystem's device (O_DIRECT when it can), or -errno */
	uint8_t *direct;	/* fd[i] was opened O_DIRECT: reads pass the kernel's cache */
	int *head_fd;		/* xfs: its /sys/fs/xfs/<dev>/log/log_head_lsn, else -1 */
	uint8_t *buf;		/* FSSTAMP_READ_BYTES, touched so it needs no fault later */
	/*
	 * btrfs: every device the kernel lists in /sys/fs/btrfs/<fsid>/devices/,
	 * that the late check reads them all; 1 and 0 for the other kinds
	 */
	int *listed;		/* how many it lists, its record's own counted, or -errno */
	uint64_t *num_devices;	/* how many its superblock counts, read before the freeze */
	struct restamp_member *more;	/* the others, nr_more of them */
	uint32_t nr_more;
};

/* Why the late check could not read every device of a btrfs (restamp_btrfs_gap()). */
enum restamp_gap_kind {
	RESTAMP_GAP_LIST = 1,	/* its sysfs directory could not be read: err */
	RESTAMP_GAP_OPEN,	/* a device of it did not open: member, err */
	RESTAMP_GAP_COUNT,	/* sysfs lists fewer (or more) than its superblock counts */
	RESTAMP_GAP_SUPER,	/* its superblock could not be read before the freeze: err */
	RESTAMP_GAP_MANY,	/* more devices than RESTAMP_BTRFS_MAX */
};

struct restamp_gap {
	enum restamp_gap_kind kind;
	int err;
	uint32_t member;	/* RESTAMP_GAP_OPEN: in rs->more */
};

int restamp_open(struct restamp *rs, const struct torpor_fsrec *fs, uint32_t n);
int restamp_read(const struct restamp *rs, struct torpor_fsrec *fs, uint32_t n,
		 uint32_t *ret_failed);
int restamp_unopened(const struct restamp *rs, uint32_t from);
int restamp_btrfs_gap(const struct restamp *rs, const struct torpor_fsrec *fs, uint32_t from,
		      struct restamp_gap *ret);
void restamp_close(struct restamp *rs);

#endif
