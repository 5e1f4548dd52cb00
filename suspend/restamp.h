/* SPDX-License-Identifier: GPL-2.0-only */
/* restamp.h - read the recorded filesystems' stamps again once the snapshot is taken */
#ifndef SUSPEND_RESTAMP_H
#define SUSPEND_RESTAMP_H

#include <stdint.h>

#include "image.h"

struct restamp {
	uint32_t n;
	int *fd;		/* each filesystem's device (O_DIRECT when it can), or -errno */
	uint8_t *direct;	/* fd[i] was opened O_DIRECT: reads pass the kernel's cache */
	int *head_fd;		/* xfs: its /sys/fs/xfs/<dev>/log/log_head_lsn, else -1 */
	uint8_t *buf;		/* FSSTAMP_READ_BYTES, touched so it needs no fault later */
};

int restamp_open(struct restamp *rs, const struct torpor_fsrec *fs, uint32_t n);
int restamp_read(const struct restamp *rs, struct torpor_fsrec *fs, uint32_t n,
		 uint32_t *ret_failed);
int restamp_unopened(const struct restamp *rs, uint32_t from);
void restamp_close(struct restamp *rs);

#endif
