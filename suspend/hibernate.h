/* SPDX-License-Identifier: GPL-2.0-only */
/* hibernate.h - torpor-suspend's main sequence */
#ifndef SUSPEND_HIBERNATE_H
#define SUSPEND_HIBERNATE_H

#include <stdint.h>

struct hib_opts {
	char resume[256];		/* resume device spec, "" if none */
	uint64_t offset;		/* resume_offset in pages */
	int has_offset;
	int reboot;			/* reboot instead of power off */
	int check_only;			/* --check: resolve and verify, do not hibernate */
};

int hibernate_run(const struct hib_opts *o);

#endif
