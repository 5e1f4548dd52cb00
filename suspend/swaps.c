// SPDX-License-Identifier: GPL-2.0-only
/*
 * swaps.c - read /proc/swaps: "Filename Type Size Used Priority", one active
 * swap area a line under a header line; the kernel escapes spaces, tabs,
 * newlines and backslashes in the file name as octal (\040), so a line splits
 * on whitespace safely.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swaps.h"
#include "unescape.h"

/* "-2" (the kernel's priorities are shorts): 0 and @ret set, or -EINVAL */
static int parse_prio(const char *s, int *ret)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < -65536 || v > 65535)
		return -EINVAL;
	*ret = (int)v;
	return 0;
}

/**
 * swaps_parse_line() - one line of /proc/swaps
 * A line without the Used column counts as unused; one without a Priority
 * column, or with one that is not a number, has none (has_prio 0).
 * Return: 0; -ENOENT for the header line; -EINVAL for a line of another shape
 * (a name longer than PATH_MAX included).
 */
int swaps_parse_line(const char *line, struct swap_entry *ret)
{
	struct swap_entry e;
	char type[32], prio[16];
	int n;

	memset(&e, 0, sizeof(e));
	n = sscanf(line, "%4095s %31s %llu %llu %15s", e.path, type, &e.kib, &e.used_kib, prio);
	if (n < 3)
		return strncmp(line, "Filename", 8) ? -EINVAL : -ENOENT;
	/* without a Used column (never seen) nothing counts as used: the late check stays */
	if (n == 3)
		e.used_kib = 0;
	if (n == 5 && parse_prio(prio, &e.prio) == 0)
		e.has_prio = 1;
	if (!strcmp(type, "file"))
		e.is_file = 1;
	else if (strcmp(type, "partition"))
		return -EINVAL;
	if (unescape_octal(e.path) < 0)
		return -EINVAL;
	*ret = e;
	return 0;
}

/**
 * swaps_read() - every active swap area listed in @file (normally "/proc/swaps")
 * @ret: a malloc()ed table (NULL when empty), @ret_n: its length
 * Return: 0 or -errno; lines of another shape are skipped.
 */
int swaps_read(const char *file, struct swap_entry **ret, size_t *ret_n)
{
	char line[PATH_MAX + 128];
	struct swap_entry e, *tab = NULL, *nt;
	size_t n = 0;
	FILE *f;

	f = fopen(file, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (swaps_parse_line(line, &e) < 0)
			continue;
		nt = realloc(tab, (n + 1) * sizeof(*tab));
		if (!nt) {
			free(tab);
			fclose(f);
			return -ENOMEM;
		}
		tab = nt;
		tab[n++] = e;
	}
	fclose(f);
	*ret = tab;
	*ret_n = n;
	return 0;
}
