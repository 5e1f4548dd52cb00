// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-mountinfo.c - libFuzzer target for mountinfo_parse_line()
 *
 * The input, cut at its first NUL, is one line.  When it parses, every field must lie
 * inside the line, the numeric and option fields hold no space, and writing the entry
 * back out with the kernel's escapes must parse again to the same entry.
 */
/* fuzz-sources: core/mountinfo.c core/unescape.c core/decimal.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mountinfo.h"

static int inside(const char *p, const char *buf, size_t len)
{
	return p >= buf && p + strlen(p) <= buf + len;
}

/* @s with space, tab, newline and backslash as the kernel writes them */
static size_t escape(char *out, const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\\')
			n += (size_t)sprintf(out + n, "\\%03o", (unsigned char)*s);
		else
			out[n++] = *s;
	}
	out[n] = '\0';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mountinfo_entry e, again;
	char *line = malloc(size + 1), *out, *root, *mp, *fstype, *source;
	size_t cap = size * 4 + 128;

	check(line);
	memcpy(line, data, size);
	line[size] = '\0';
	if (mountinfo_parse_line(line, &e) != 0) {
		free(line);
		return 0;
	}
	check(inside(e.root, line, size) && inside(e.mount_point, line, size) &&
	      inside(e.mount_opts, line, size) && inside(e.fstype, line, size) &&
	      inside(e.source, line, size) && inside(e.super_opts, line, size));
	check(!strchr(e.mount_opts, ' ') && !strchr(e.super_opts, ' ') && e.fstype[0] &&
	      e.super_opts[0] && e.mount_point[0] && e.root[0]);

	out = malloc(cap * 5);
	check(out);
	root = out + cap;
	mp = root + cap;
	fstype = mp + cap;
	source = fstype + cap;
	escape(root, e.root);
	escape(mp, e.mount_point);
	escape(fstype, e.fstype);
	escape(source, e.source);
	snprintf(out, cap, "%u %u %u:%u %s %s %s%s%s - %s %s %s\n", e.id, e.parent, e.major,
		 e.minor, root, mp, e.mount_opts, e.optional[0] ? " " : "", e.optional, fstype,
		 source, e.super_opts);
	check(mountinfo_parse_line(out, &again) == 0);
	check(again.id == e.id && again.parent == e.parent && again.major == e.major &&
	      again.minor == e.minor && !strcmp(again.root, e.root) &&
	      !strcmp(again.mount_point, e.mount_point) && !strcmp(again.mount_opts, e.mount_opts) &&
	      !strcmp(again.optional, e.optional) && !strcmp(again.fstype, e.fstype) &&
	      !strcmp(again.source, e.source) && !strcmp(again.super_opts, e.super_opts));
	free(out);
	free(line);
	return 0;
}
