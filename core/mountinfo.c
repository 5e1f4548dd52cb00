// SPDX-License-Identifier: GPL-2.0-only
/*
 * mountinfo.c - the one parser of /proc/self/mountinfo, by fields
 *
 * torpor-suspend reads it to find the filesystems to stamp and to sync,
 * torpor-resume to refuse a restore while a disk filesystem is mounted
 * read-write.  Fields are cut at single spaces, never by width: a mount point
 * of any length, or with escaped blanks, cannot shift the fields after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decimal.h"
#include "mountinfo.h"
#include "unescape.h"

#define READ_CHUNK 4096

/* The field at *p, cut at the next space; *p moves past it, or to NULL at the end. */
static char *next_field(char **p)
{
	char *s = *p, *e;

	if (!s)
		return NULL;
	e = strchr(s, ' ');
	if (e) {
		*e = '\0';
		*p = e + 1;
	} else {
		*p = NULL;
	}
	return s;
}

/* A decimal number of digits only, up to UINT_MAX; *s moves past it. */
static int parse_uint(const char **s, unsigned int *ret)
{
	unsigned long long v;
	size_t n = decimal_span(*s);

	if (decimal_parse(*s, n, UINT_MAX, &v) < 0)
		return -EINVAL;
	*ret = (unsigned int)v;
	*s += n;
	return 0;
}

static int whole_uint(const char *s, unsigned int *ret)
{
	if (parse_uint(&s, ret) < 0 || *s)
		return -EINVAL;
	return 0;
}

int mountinfo_parse_line(char *line, struct mountinfo_entry *ret)
{
	char *p = line, *f[6], *opt, *e;
	struct mountinfo_entry m;
	const char *s;
	size_t len = strlen(line);
	int i;

	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	for (i = 0; i < 6; i++) {
		f[i] = next_field(&p);
		if (!f[i] || !f[i][0])
			return -EINVAL;
	}
	if (whole_uint(f[0], &m.id) < 0 || whole_uint(f[1], &m.parent) < 0)
		return -EINVAL;
	s = f[2];
	if (parse_uint(&s, &m.major) < 0 || *s++ != ':' || parse_uint(&s, &m.minor) < 0 || *s)
		return -EINVAL;

	/* optional fields, each non-empty, up to the lone "-" */
	opt = p;
	for (;;) {
		if (!p || !*p || *p == ' ')
			return -EINVAL;
		if (p[0] == '-' && (p[1] == ' ' || !p[1]))
			break;
		e = strchr(p, ' ');
		if (!e)
			return -EINVAL;
		p = e + 1;
	}
	if (p == opt) {
		m.optional = p + 1;	/* the '\0' that ends "-" below */
	} else {
		p[-1] = '\0';
		m.optional = opt;
	}
	next_field(&p);			/* the "-" */

	m.fstype = next_field(&p);
	m.source = next_field(&p);	/* may be empty: mount -t tmpfs "" /mnt */
	m.super_opts = next_field(&p);
	if (!m.super_opts || p || !m.fstype[0] || !m.super_opts[0])
		return -EINVAL;
	if (unescape_octal(f[3]) < 0 || unescape_octal(f[4]) < 0 ||
	    unescape_octal((char *)m.fstype) < 0 || unescape_octal((char *)m.source) < 0)
		return -EINVAL;
	m.root = f[3];
	m.mount_point = f[4];
	m.mount_opts = f[5];
	*ret = m;
	return 0;
}

int mountinfo_has_option(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = opts;

	while (*p) {
		if (!strncmp(p, opt, n) && (p[n] == ',' || !p[n]))
			return 1;
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
	return 0;
}

int mountinfo_open(struct mountinfo_reader *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	return 0;
}

void mountinfo_close(struct mountinfo_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

/* Make room for more bytes at the end: drop what was returned, then grow. */
static int make_room(struct mountinfo_reader *r)
{
	size_t cap;
	char *nb;

	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	if (r->len + 1 < r->cap)
		return 0;
	if (r->cap >= MOUNTINFO_LINE_MAX + 1)
		return -E2BIG;
	cap = r->cap ? r->cap * 2 : READ_CHUNK;
	if (cap > MOUNTINFO_LINE_MAX + 1)
		cap = MOUNTINFO_LINE_MAX + 1;
	nb = realloc(r->buf, cap);
	if (!nb)
		return -ENOMEM;
	r->buf = nb;
	r->cap = cap;
	return 0;
}

/* Fill: 1 when bytes were added, 0 at the end of the file, or -errno. */
static int fill(struct mountinfo_reader *r)
{
	ssize_t n;
	int e;

	e = make_room(r);
	if (e < 0)
		return e;
	do
		n = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0) {
		r->eof = 1;
		return 0;
	}
	r->len += (size_t)n;
	return 1;
}

int mountinfo_next(struct mountinfo_reader *r, struct mountinfo_entry *ret)
{
	char *line, *nl;
	int skipping = 0, e;

	for (;;) {
		nl = r->len > r->pos ? memchr(r->buf + r->pos, '\n', r->len - r->pos) : NULL;
		if (nl || (r->eof && r->len > r->pos)) {
			line = r->buf + r->pos;
			if (nl) {
				*nl = '\0';
				r->pos = (size_t)(nl - r->buf) + 1;
			} else {
				r->buf[r->len] = '\0';	/* fill() kept a byte for it */
				r->pos = r->len;
			}
			r->lineno++;
			if (skipping)
				return -E2BIG;
			return mountinfo_parse_line(line, ret) < 0 ? -EINVAL : 1;
		}
		if (r->eof) {
			if (!skipping)
				return 0;
			r->lineno++;
			return -E2BIG;
		}
		e = fill(r);
		if (e == -E2BIG) {
			/* a line longer than any we keep: drop what we have of it, find its end */
			skipping = 1;
			r->pos = r->len;
			e = fill(r);
		}
		if (e < 0)
			return e;
	}
}
