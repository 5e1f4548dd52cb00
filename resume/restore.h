/* SPDX-License-Identifier: GPL-2.0-only */
/* restore.h - torpor-resume's main sequence */
#ifndef RESUME_RESTORE_H
#define RESUME_RESTORE_H

#include <stdint.h>

struct restore_opts {
	char device[256];		/* resume device spec, "" if none */
	uint64_t offset;		/* swap header page index */
	int noresume;			/* discard the image instead of restoring it */
	const char *discard_reason;	/* discard it for this reason (a doubt), NULL if none */
	int force;			/* accept an image from another kernel build */
	int dump;			/* only describe the image */
	int wait_seconds;		/* how long to wait for the device */
	/*
	 * another device and offset the initramfs hook named (its own reading of
	 * the command line, or its configuration) that the kernel command line
	 * does not: any image there is discarded first, "" if none
	 */
	char other_device[256];
	uint64_t other_offset;
};

int restore_run(const struct restore_opts *o);

#endif
