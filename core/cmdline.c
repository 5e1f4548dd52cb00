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
#include "decimal.h"

#define CMDLINE_FILE_MAX	65536	/* COMMAND_LINE_SIZE is 2048..4096 on most arches */

struct arg {
	const char *param;
	size_t param_len;
	const char *val;		/* NULL when the word has no '=' */
	size_t val_len;
};

/* The kernel's isspace() (lib/ctype.c): the C locale set and 0xA0, which it marks _S|_SP. */
static int is_space(char c)
{
	unsigned char u = (unsigned char)c;

	return u == ' ' || (u >= '\t' && u <= '\r') || u == 0xa0;
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

/* The first @n bytes of the name equal @name: the kernel's parameqn(), '-' and '_' alike. */
static int param_starts(const struct arg *a, const char *name, size_t n)
{
	size_t i;

	if (a->param_len < n)
		return 0;
	for (i = 0; i < n; i++) {
		char x = a->param[i] == '-' ? '_' : a->param[i];
		char y = name[i] == '-' ? '_' : name[i];

		if (x != y)
			return 0;
	}
	return 1;
}

/* The whole name equals @name, as the kernel's parameq(). */
static int param_is(const struct arg *a, const char *name)
{
	size_t n = strlen(name);

	return a->param_len == n && param_starts(a, name, n);
}

/*
 * The kernel's __setup() entries match by prefix (init/main.c obsolete_checksetup()
 * compares strlen(p->str) bytes): "noresumeXYZ" runs noresume_setup().
 */
static int param_has_prefix(const struct arg *a, const char *name)
{
	return param_starts(a, name, strlen(name));
}

static int parse_decimal(const struct arg *a, unsigned long long max, unsigned long long *ret)
{
	return a->val ? decimal_parse(a->val, a->val_len, max, ret) : -EINVAL;
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

/*
 * A malformed resume_offset= as the kernel's sscanf("%llu") reads it: spaces
 * skipped (the kernel's, 0xA0 among them: a quoted value may hold them), then
 * the leading digits, wrapping modulo 2^64 as simple_strntoull() does.
 * -EINVAL when no digit follows the spaces (the kernel keeps offset 0).
 */
static int kernel_offset(const struct arg *a, unsigned long long *ret)
{
	unsigned long long v = 0;
	size_t i = 0, start;

	while (i < a->val_len && is_space(a->val[i]))
		i++;
	for (start = i; i < a->val_len && a->val[i] >= '0' && a->val[i] <= '9'; i++)
		v = v * 10 + (unsigned long long)(a->val[i] - '0');
	if (i == start)
		return -EINVAL;
	*ret = v;
	return 0;
}

/* Record the first malformed parameter, as written (printable bytes only, cut short). */
static void set_malformed(struct torpor_cmdline *c, const struct arg *a, const char *why)
{
	const char *end = a->val ? a->val + a->val_len : a->param + a->param_len;
	size_t len, i;

	if (*end == '"')
		end++;			/* the closing quote of a quoted value */
	len = (size_t)(end - a->param);

	if (c->malformed_why)
		return;
	c->malformed_why = why;
	if (len > sizeof(c->malformed) - 1) {
		len = sizeof(c->malformed) - 4;
		memcpy(c->malformed + len, "...", 4);
	} else {
		c->malformed[len] = '\0';
	}
	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)a->param[i];

		c->malformed[i] = (b < 0x20 || b >= 0x7f) ? '?' : (char)b;
	}
}

static void apply_arg(const struct arg *a, struct torpor_cmdline *c)
{
	unsigned long long n;

	if (param_is(a, "resume") && a->val) {
		if (a->val_len >= sizeof(c->resume)) {
			c->resume_bad = 1;
			set_malformed(c, a, "longer than 255 bytes");
			return;
		}
		memcpy(c->resume, a->val, a->val_len);
		c->resume[a->val_len] = '\0';
	} else if (param_is(a, "resume_offset") && a->val) {
		if (parse_decimal(a, ULLONG_MAX, &n) < 0) {
			c->resume_offset_bad = 1;
			set_malformed(c, a, a->val_len ? "not a decimal page number" : "empty");
			if (kernel_offset(a, &n) < 0)
				return;
		}
		c->resume_offset = n;
		c->has_resume_offset = 1;
	} else if (param_has_prefix(a, "noresume") || param_has_prefix(a, "nohibernate")) {
		c->noresume = 1;
	} else if (param_is(a, "hibernate")) {
		if (hibernate_value_disables_resume(a))
			c->noresume = 1;
	} else if (param_is(a, "torpor.debug")) {
		if (parse_bool(a, &c->debug) < 0)
			set_malformed(c, a, "not a boolean (1, y, on, 0, n, off)");
	} else if (param_is(a, "torpor.force")) {
		if (parse_bool(a, &c->force) < 0)
			set_malformed(c, a, "not a boolean (1, y, on, 0, n, off)");
	} else if (param_is(a, "torpor.wait")) {
		if (parse_decimal(a, INT_MAX, &n) < 0)
			set_malformed(c, a, "not a number of seconds");
		else
			c->wait_seconds = (int)n;
	}
}

/* Parse a whole command line into a fresh struct; kernel-doc in cmdline.h. */
void cmdline_parse(const char *text, struct torpor_cmdline *ret)
{
	const char *p;
	struct arg a;

	memset(ret, 0, sizeof(*ret));
	ret->wait_seconds = -1;

	p = skip_spaces(text);
	while (*p) {
		p = next_arg(p, &a);
		/* the kernel stops at "--": what follows is for init */
		if (!a.val && a.param_len == 2 && strncmp(a.param, "--", 2) == 0)
			break;
		apply_arg(&a, ret);
	}
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
	cmdline_parse(buf, ret);
	r = 0;
out_free:
	free(buf);
out_close:
	close(fd);
	return r;
}
