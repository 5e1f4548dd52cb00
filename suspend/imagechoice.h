/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * imagechoice.h - image_size = auto: the largest image the swap area takes
 * compressed, so the kernel drops no more page cache and swaps out no more
 * than the snapshot's own copy needs, and the next boot can restore
 */
#ifndef SUSPEND_IMAGECHOICE_H
#define SUSPEND_IMAGECHOICE_H

#include <stdint.h>

#include "fitcheck.h"

/* the ratio auto assumes: the sample's, this much higher (permille), at most 1 */
#define IMAGECHOICE_RATIO_PAD	125

/* why imagechoice_auto() chose what it did */
enum imagechoice_why {
	IMAGECHOICE_ALL,	/* the largest image the kernel keeps fits: all of RAM */
	IMAGECHOICE_FITS,	/* the largest image that fits, above the kernel's */
	IMAGECHOICE_BOOT,	/* smaller: the largest the next boot can restore */
	IMAGECHOICE_KEEP,	/* no larger image fits: the kernel's value */
	IMAGECHOICE_KEEP_NO_FIT, /* not even the kernel's fits: kept (the gate refuses) */
	IMAGECHOICE_KEEP_UNKNOWN, /* the kernel's value is unknown: kept */
	IMAGECHOICE_KEEP_BOOT,	/* the next boot restores no larger image: kept */
};

struct image_choice {
	enum imagechoice_why why;
	uint64_t bytes;		/* for image_size; the kernel's own when kept */
	uint64_t image;		/* the most memory the image then holds */
	uint64_t need;		/* what that takes, with the padded ratio, and its margin */
	uint32_t ratio_permille; /* the padded ratio */
};

void imagechoice_auto(const struct fit_input *in, uint64_t free_bytes, uint64_t boot_max,
		      struct image_choice *ret);

#endif
