/* SPDX-License-Identifier: GPL-2.0-only */
/* swaps.h - the active swap areas, from /proc/swaps (its only reader) */
#ifndef SUSPEND_SWAPS_H
#define SUSPEND_SWAPS_H

#include <limits.h>
#include <stddef.h>

struct swap_entry {
	char path[PATH_MAX];		/* octal escapes undone */
	int is_file;			/* "file", not "partition" */
	unsigned long long kib;		/* size */
	unsigned long long used_kib;	/* in use: swapped-out pages and swap cache */
	int prio;			/* the kernel fills higher ones first, equal ones in turn */
	int has_prio;			/* the Priority column was there and a number */
};

int swaps_parse_line(const char *line, struct swap_entry *ret);
int swaps_read(const char *file, struct swap_entry **ret, size_t *ret_n);

#endif
