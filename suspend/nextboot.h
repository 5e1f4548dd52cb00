/* SPDX-License-Identifier: GPL-2.0-only */
/* nextboot.h - does the next boot look where the image goes? */
#ifndef SUSPEND_NEXTBOOT_H
#define SUSPEND_NEXTBOOT_H

#include <stdint.h>
#include <sys/types.h>

#include "cmdline.h"

enum nextboot_result {
	NEXTBOOT_AGREES,	/* resume= (and resume_offset=) name the area */
	NEXTBOOT_UNNAMED,	/* no resume= (or no command line to read): the device is not
				   checked here, only a resume_offset= */
	NEXTBOOT_MALFORMED,	/* a parameter torpor reads is malformed: the boot discards */
	NEXTBOOT_NORESUME,	/* noresume (nohibernate, hibernate=no): the boot discards */
	NEXTBOOT_AMBIGUOUS,	/* several devices carry resume=: the boot discards them all */
	NEXTBOOT_NO_DEVICE,	/* resume= names no device here */
	NEXTBOOT_OTHER_DEVICE,	/* resume= names another device (->dev) */
	NEXTBOOT_NO_OFFSET,	/* a swap file, but no resume_offset=: the boot reads page 0 */
	NEXTBOOT_OTHER_OFFSET,	/* resume_offset= names another page */
};

struct nextboot {
	struct torpor_cmdline cl;	/* what the command line says */
	dev_t dev;			/* NEXTBOOT_OTHER_DEVICE: the device resume= names */
	int err;			/* NEXTBOOT_NO_DEVICE: why resume= did not resolve */
};

enum nextboot_result nextboot_check(const char *cmdline_path, dev_t dev, uint64_t offset_pages,
				    const char *spec, struct nextboot *ret);

#endif
