// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmdline.c - the kernel command line, split the way the kernel splits it
 *
 * next_arg() follows lib/cmdline.c next_arg() quote for quote, but reads the
 * line instead of writing NULs into it: a parameter is a run of non-space
 * bytes where double quotes protect spaces, the value starts after the first
 * '=', and one leading and one trailing quote are dropped from the value (or
 * from the whole word when it starts with a quote).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"

#define CMDLINE_FILE_MAX	65536	/* COMMAND_LINE_SIZE is 2048..4096 on most arches */

struct arg {
	const char *param;
	size_t param_len;
	const char *val;		/* NULL when the word has no '=' */
	size_t val_len;
};

/* The kernel's isspace(): the C locale set. */
static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static const char *skip_spaces(const char *p)
{
	while (is_space(*p))
		p++;
	return p;
}

/* One word of the line into @a; returns where the next word starts. */
static const char *next_arg(const char *p, struct arg *a)
{
	size_t i, equals = 0, vstart, vend;
	int in_quote = 0, quoted = 0;

	if (*p == '"') {
		p++;
		in_quote = 1;
		quoted = 1;
	}
	for (i = 0; p[i]; i++) {
		if (is_space(p[i]) && !in_quote)
			break;
		/* as in the kernel, an '=' at position 0 does not count */
		if (equals == 0 && p[i] == '=')
			equals = i;
		if (p[i] == '"')
			in_quote = !in_quote;
	}

	a->param = p;
	if (!equals) {
		a->param_len = i;
		if (quoted && i > 0 && p[i - 1] == '"')
			a->param_len = i - 1;
		a->val = NULL;
		a->val_len = 0;
	} else {
		a->param_len = equals;
		vstart = equals + 1;
		vend = i;
		if (p[vstart] == '"') {
			vstart++;
			if (p[i - 1] == '"')
				vend = i - 1;
		}
		if (quoted && p[i - 1] == '"')
			vend = i - 1;
		if (vend < vstart)
			vend = vstart;
		a->val = p + vstart;
		a->val_len = vend - vstart;
	}

	p += i;
	if (*p)
		p++;
	return skip_spaces(p);
}

/* Parameter name comparison: '-' and '_' are the same, as in the kernel's parameq(). */
static int param_is(const struct arg *a, const char *name)
{
	size_t i;

	if (strlen(name) != a->param_len)
		return 0;
	for (i = 0; i < a->param_len; i++) {
		char x = a->param[i] == '-' ? '_' : a->param[i];
		char y = name[i] == '-' ? '_' : name[i];

		if (x != y)
			return 0;
	}
	return 1;
}

/* Strict decimal: at least one digit, nothing else, no overflow past @max. */
static int parse_decimal(const struct arg *a, unsigned long long max, unsigned long long *ret)
{
	unsigned long long v = 0;
	size_t i;

	if (!a->val || a->val_len == 0)
		return -EINVAL;
	for (i = 0; i < a->val_len; i++) {
		unsigned int d = (unsigned char)a->val[i] - '0';

		if (d > 9)
			return -EINVAL;
		if (v > (max - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

/* kstrtobool(), where a missing value means true as for a bool module parameter. */
static int parse_bool(const struct arg *a, int *ret)
{
	const char *v = a->val;

	if (!v) {
		*ret = 1;
		return 0;
	}
	if (a->val_len == 0)
		return -EINVAL;
	switch (v[0]) {
	case 'y': case 'Y': case '1':
		*ret = 1;
		return 0;
	case 'n': case 'N': case '0':
		*ret = 0;
		return 0;
	case 'o': case 'O':
		if (a->val_len < 2)
			return -EINVAL;
		if (v[1] == 'n' || v[1] == 'N') {
			*ret = 1;
			return 0;
		}
		if (v[1] == 'f' || v[1] == 'F') {
			*ret = 0;
			return 0;
		}
		return -EINVAL;
	default:
		return -EINVAL;
	}
}

/* kernel/power/hibernate.c hibernate_setup(): "noresume..." and other "no..." disable resume. */
static int hibernate_value_disables_resume(const struct arg *a)
{
	if (!a->val || a->val_len < 2 || strncmp(a->val, "no", 2) != 0)
		return 0;
	return !(a->val_len >= 10 && strncmp(a->val, "nocompress", 10) == 0);
}

static int apply_arg(const struct arg *a, struct torpor_cmdline *c)
{
	unsigned long long n;
	int r;

	if (param_is(a, "resume") && a->val) {
		if (a->val_len >= sizeof(c->resume))
			return -EINVAL;
		memcpy(c->resume, a->val, a->val_len);
		c->resume[a->val_len] = '\0';
	} else if (param_is(a, "resume_offset") && a->val) {
		r = parse_decimal(a, ULLONG_MAX, &n);
		if (r < 0)
			return r;
		c->resume_offset = n;
		c->has_resume_offset = 1;
	} else if (param_is(a, "noresume") || param_is(a, "nohibernate")) {
		c->noresume = 1;
	} else if (param_is(a, "hibernate")) {
		if (hibernate_value_disables_resume(a))
			c->noresume = 1;
	} else if (param_is(a, "torpor.debug")) {
		return parse_bool(a, &c->debug);
	} else if (param_is(a, "torpor.force")) {
		return parse_bool(a, &c->force);
	} else if (param_is(a, "torpor.wait")) {
		r = parse_decimal(a, INT_MAX, &n);
		if (r < 0)
			return r;
		c->wait_seconds = (int)n;
	}
	return 0;
}

/* Parse a whole command line into a fresh struct; kernel-doc in cmdline.h. */
int cmdline_parse(const char *text, struct torpor_cmdline *ret)
{
	struct torpor_cmdline c;
	const char *p;
	struct arg a;
	int r;

	memset(&c, 0, sizeof(c));
	c.wait_seconds = -1;

	p = skip_spaces(text);
	while (*p) {
		p = next_arg(p, &a);
		/* the kernel stops at "--": what follows is for init */
		if (!a.val && a.param_len == 2 && strncmp(a.param, "--", 2) == 0)
			break;
		r = apply_arg(&a, &c);
		if (r < 0)
			return r;
	}
	*ret = c;
	return 0;
}

/* Read @path (at most 64 KiB) and parse it; kernel-doc in cmdline.h. */
int cmdline_read(const char *path, struct torpor_cmdline *ret)
{
	size_t len = 0;
	ssize_t n;
	char *buf;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(CMDLINE_FILE_MAX + 1);
	if (!buf) {
		r = -ENOMEM;
		goto out_close;
	}
	for (;;) {
		n = read(fd, buf + len, CMDLINE_FILE_MAX + 1 - len);
		if (n < 0) {
			r = -errno;
			if (r == -EINTR)
				continue;
			goto out_free;
		}
		if (n == 0)
			break;
		len += n;
		if (len > CMDLINE_FILE_MAX) {
			r = -E2BIG;
			goto out_free;
		}
	}
	buf[len] = '\0';
	r = cmdline_parse(buf, ret);
out_free:
	free(buf);
out_close:
	close(fd);
	return r;
}
