/* SPDX-License-Identifier: GPL-2.0-only */
/* target.h - which swap area the image goes to, resolved before anything is frozen */
#ifndef SUSPEND_TARGET_H
#define SUSPEND_TARGET_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "efiloc.h"

struct hib_target {
	dev_t dev;			/* the resume device (partition, or the file's filesystem) */
	uint64_t offset_pages;		/* page index of the swap header on it */
	int is_file;			/* a swap file rather than a partition */
	uint64_t swap_bytes;		/* size of the area, from /proc/swaps */
	uint64_t swap_used;		/* bytes of it in use then (swapped out, swap cache) */
	char swap_path[PATH_MAX];	/* the /proc/swaps entry */
	char dev_name[64];		/* for messages */
	int efi_location;		/* no resume= names it: the EFI variable will (efiwrite.h) */
	int efi_unnamed;		/* no resume= names it: a leftover variable must go */
	struct efiloc efi;		/* what that variable says */
};

/* What target_find() and target_find_only() found, when they could look */
enum target_match {
	TARGET_FOUND,		/* @ret names the area */
	TARGET_NONE,		/* no active swap area matches (target_find_only(): none
				 * is active, or not a block device) */
	TARGET_SEVERAL,		/* several swap files on the device match, and no offset
				 * says which (target_find_only(): several areas are active) */
	TARGET_OTHER_PAGE,	/* none matches, but a swap file on the device begins at
				 * another page: @ret names it, with that page */
};

extern const char *target_swaps;	/* "/proc/swaps" (tests: a file) */

int target_find(dev_t dev, int has_offset, uint64_t offset_pages, struct hib_target *ret);
int target_find_only(struct hib_target *ret);
int target_file_offset(int fd, uint32_t page_size, uint64_t *ret_pages);
int target_fd_location(int fd, dev_t *ret_dev, int *ret_offset_err, uint64_t *ret_pages);
int target_file_location(const char *path, dev_t *ret_dev, int *ret_offset_err,
			 uint64_t *ret_pages);

#endif
