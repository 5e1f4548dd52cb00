/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mountinfo.h - the one parser of /proc/self/mountinfo (see proc(5)), by fields
 *
 * A line is
 *   ID PARENT MAJ:MIN ROOT MOUNT_POINT MOUNT_OPTS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTS
 * with single spaces between fields and the kernel's octal escapes (\040 space,
 * \011 tab, \012 newline, \134 backslash) inside them.  No field has a length limit.
 */
#ifndef CORE_MOUNTINFO_H
#define CORE_MOUNTINFO_H

#include <stddef.h>

#define MOUNTINFO_PATH "/proc/self/mountinfo"
#define MOUNTINFO_LINE_MAX (1u << 20)	/* a longer line is refused, not split */

/* One line, decoded; the strings point into the line that was parsed. */
struct mountinfo_entry {
	unsigned int id;
	unsigned int parent;
	unsigned int major, minor;	/* st_dev of the filesystem (0:N for btrfs, tmpfs...) */
	const char *root;		/* the directory of the filesystem mounted here */
	const char *mount_point;
	const char *mount_opts;		/* per mount: "rw,relatime" */
	const char *optional;		/* "shared:1 master:2", or "" */
	const char *fstype;		/* "ext4", "fuse.sshfs" */
	const char *source;		/* "/dev/vda1", "tmpfs", "" */
	const char *super_opts;		/* per filesystem: "rw,errors=remount-ro" */
};

/**
 * mountinfo_parse_line() - split one mountinfo line into its fields, in place
 * @line: one NUL-terminated line, a final '\n' allowed; it is modified (fields are
 *        cut at their spaces and unescaped) and @ret points into it
 * @ret: written on success only
 *
 * Return: 0, or -EINVAL for a line of another shape (too few or too many fields, no
 * lone "-", a number out of range, an escape that decodes to NUL).
 */
int mountinfo_parse_line(char *line, struct mountinfo_entry *ret);

/**
 * mountinfo_has_option() - is @opt one of the comma-separated @opts?
 * Exact match of a whole option: "rw" is in "ro,rw" but not in "rwx" or "ro".
 */
int mountinfo_has_option(const char *opts, const char *opt);

/* Reads a mountinfo file with read(): lines of any length up to MOUNTINFO_LINE_MAX. */
struct mountinfo_reader {
	int fd;
	char *buf;
	size_t cap;		/* bytes allocated */
	size_t len;		/* bytes held */
	size_t pos;		/* start of the next line */
	int eof;
	unsigned int lineno;	/* of the line last returned or refused */
};

/**
 * mountinfo_open() - start reading @path (MOUNTINFO_PATH, or a copy for tests)
 * Return: 0 or -errno from open().
 */
int mountinfo_open(struct mountinfo_reader *r, const char *path);

/**
 * mountinfo_next() - the next line, parsed
 * @ret: valid until the next call
 *
 * Return: 1 with @ret filled; 0 at the end of the file; -EINVAL for a malformed line
 * and -E2BIG for one longer than MOUNTINFO_LINE_MAX (that line is skipped: the next
 * call goes on after it; r->lineno says which); -ENOMEM; -errno from read().
 */
int mountinfo_next(struct mountinfo_reader *r, struct mountinfo_entry *ret);

void mountinfo_close(struct mountinfo_reader *r);

#endif
