// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.c - read /etc/torpor.conf: "key = value" lines, '#' comments
 *
 * Everything is checked before torpor-suspend does anything: one wrong line
 * stops it with the file's name and the line's number, so a typo never turns
 * into a hibernation to the wrong place or with the wrong settings.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "decimal.h"

enum key {
	K_RESUME,
	K_RESUME_OFFSET,
	K_POWEROFF,
	K_IMAGE_SIZE,
	K_PROGRESS,
	K_COMPRESS,
	K_THREADS,
	K_IMAGE_FILE,
	K_DISCARD_AFTER_RESUME,
	K_INITRAMFS,
	K_WARM_BACK,
	K_COUNT,
};

static const char *const key_names[K_COUNT] = {
	[K_RESUME] = "resume",
	[K_RESUME_OFFSET] = "resume_offset",
	[K_POWEROFF] = "poweroff",
	[K_IMAGE_SIZE] = "image_size",
	[K_PROGRESS] = "progress",
	[K_COMPRESS] = "compress",
	[K_THREADS] = "threads",
	[K_IMAGE_FILE] = "image_file",
	[K_DISCARD_AFTER_RESUME] = "discard_after_resume",
	[K_INITRAMFS] = "initramfs",
	[K_WARM_BACK] = "warm_back",
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int config_parse_poweroff(const char *s, enum config_poweroff *ret)
{
	if (!strcmp(s, "shutdown"))
		*ret = CONFIG_POWEROFF_SHUTDOWN;
	else if (!strcmp(s, "reboot"))
		*ret = CONFIG_POWEROFF_REBOOT;
	else if (!strcmp(s, "platform"))
		*ret = CONFIG_POWEROFF_PLATFORM;
	else if (!strcmp(s, "hybrid"))
		*ret = CONFIG_POWEROFF_HYBRID;
	else
		return -EINVAL;
	return 0;
}

int config_parse_threads(const char *s, unsigned *ret)
{
	unsigned long long v;

	if (!strcmp(s, "auto")) {
		*ret = 0;
		return 0;
	}
	if (decimal_parse(s, strlen(s), PACK_THREADS_MAX, &v) < 0 || v < 1)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

const char *config_poweroff_name(enum config_poweroff p)
{
	switch (p) {
	case CONFIG_POWEROFF_REBOOT:
		return "reboot";
	case CONFIG_POWEROFF_PLATFORM:
		return "platform";
	case CONFIG_POWEROFF_HYBRID:
		return "hybrid";
	default:
		return "shutdown";
	}
}

int config_parse_bool(const char *s, int *ret)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcmp(s, yes[i])) {
			*ret = 1;
			return 0;
		}
		if (!strcmp(s, no[i])) {
			*ret = 0;
			return 0;
		}
	}
	return -EINVAL;
}

int config_parse_size(const char *s, uint64_t *ret)
{
	size_t n = decimal_span(s);
	unsigned long long v;
	unsigned int shift = 0;

	if (s[n] && s[n + 1])
		return -EINVAL;
	switch (s[n]) {
	case '\0':
		break;
	case 'K': case 'k':
		shift = 10;
		break;
	case 'M': case 'm':
		shift = 20;
		break;
	case 'G': case 'g':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (decimal_parse(s, n, UINT64_MAX >> shift, &v) < 0)
		return -EINVAL;
	*ret = (uint64_t)v << shift;
	return 0;
}

int config_parse_image_size(const char *s, enum config_image_size *ret_mode,
			    uint64_t *ret_bytes)
{
	static const char *const words[] = {
		[CONFIG_IMAGE_SIZE_AUTO] = "auto",
		[CONFIG_IMAGE_SIZE_MAX] = "max",
		[CONFIG_IMAGE_SIZE_KERNEL] = "kernel",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcmp(s, words[i])) {
			*ret_mode = (enum config_image_size)i;
			*ret_bytes = 0;
			return 0;
		}
	}
	if (config_parse_size(s, &v) < 0)
		return -EINVAL;
	*ret_mode = CONFIG_IMAGE_SIZE_BYTES;
	*ret_bytes = v;
	return 0;
}

/* Copy at most @len - 1 bytes of @s (@n long), NUL-terminated. */
static void copy_cut(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static int find_key(const char *k, size_t n)
{
	size_t i, j;

	for (i = 0; i < K_COUNT; i++) {
		for (j = 0; j < n && key_names[i][j]; j++)
			if (key_names[i][j] != (k[j] == '-' ? '_' : k[j]))
				break;
		if (j == n && !key_names[i][j])
			return (int)i;
	}
	return -1;
}

/* One value (@n bytes, n <= CONFIG_LINE_MAX) into @c; 0 or -EINVAL. */
static int set_value(struct config *c, int key, const char *s, size_t n)
{
	char v[CONFIG_LINE_MAX + 1];
	unsigned long long u;
	size_t i;

	for (i = 0; i < n; i++)
		if (is_blank(s[i]))
			return -EINVAL;	/* also a comment after the value */
	copy_cut(v, sizeof(v), s, n);
	switch (key) {
	case K_RESUME:
		if (n >= sizeof(c->resume))
			return -EINVAL;
		memcpy(c->resume, v, n + 1);
		c->has_resume = 1;
		return 0;
	case K_RESUME_OFFSET:
		if (decimal_parse(v, n, UINT64_MAX, &u) < 0)
			return -EINVAL;
		c->resume_offset = u;
		c->has_resume_offset = 1;
		return 0;
	case K_POWEROFF:
		c->has_poweroff = 1;
		return config_parse_poweroff(v, &c->poweroff);
	case K_IMAGE_SIZE:
		c->has_image_size = 1;
		return config_parse_image_size(v, &c->image_size_mode, &c->image_size);
	case K_PROGRESS:
		c->has_progress = 1;
		return config_parse_bool(v, &c->progress);
	case K_COMPRESS:
		c->has_compress = 1;
		return pack_setting_parse(v, &c->compress);
	case K_THREADS:
		c->has_threads = 1;
		return config_parse_threads(v, &c->threads);
	case K_IMAGE_FILE:
		/* an absolute path: swapon(2) and the messages need no working directory */
		if (n >= sizeof(c->image_file) || v[0] != '/')
			return -EINVAL;
		memcpy(c->image_file, v, n + 1);
		c->has_image_file = 1;
		return 0;
	case K_DISCARD_AFTER_RESUME:
		c->has_discard_after_resume = 1;
		return config_parse_bool(v, &c->discard_after_resume);
	case K_INITRAMFS:
		/* "none": the check is left out, at the user's risk (warned at each run) */
		if (n >= sizeof(c->initramfs) || (v[0] != '/' && strcmp(v, CONFIG_INITRAMFS_NONE)))
			return -EINVAL;
		memcpy(c->initramfs, v, n + 1);
		c->has_initramfs = 1;
		return 0;
	case K_WARM_BACK:
		c->has_warm_back = 1;
		return config_parse_bool(v, &c->warm_back);
	}
	return -EINVAL;
}

static int fail(struct config_error *err, enum config_err_kind kind, unsigned int line)
{
	err->kind = kind;
	err->line = line;
	return -EINVAL;
}

/* One line, without its end: @s, @n bytes. */
static int parse_line(const char *s, size_t n, unsigned int lineno, struct config *c,
		      unsigned int first[K_COUNT], struct config_error *err)
{
	const char *eq, *k, *v;
	size_t kn, vn;
	int key;

	if (n && s[n - 1] == '\r')
		n--;
	while (n && is_blank(*s))
		s++, n--;
	while (n && is_blank(s[n - 1]))
		n--;
	if (!n || *s == '#')
		return 0;
	eq = memchr(s, '=', n);
	if (!eq || eq == s)
		return fail(err, CONFIG_E_SYNTAX, lineno);
	k = s;
	kn = eq - s;
	while (kn && is_blank(k[kn - 1]))
		kn--;
	v = eq + 1;
	vn = n - (v - s);
	while (vn && is_blank(*v))
		v++, vn--;
	copy_cut(err->key, sizeof(err->key), k, kn);
	copy_cut(err->value, sizeof(err->value), v, vn);
	key = find_key(k, kn);
	if (key < 0)
		return fail(err, CONFIG_E_UNKNOWN_KEY, lineno);
	if (first[key]) {
		err->first_line = first[key];
		return fail(err, CONFIG_E_DUPLICATE, lineno);
	}
	first[key] = lineno;
	if (!vn)
		return fail(err, CONFIG_E_EMPTY_VALUE, lineno);
	if (set_value(c, key, v, vn) < 0)
		return fail(err, CONFIG_E_BAD_VALUE, lineno);
	return 0;
}

int config_parse(const char *text, size_t len, struct config *ret, struct config_error *err)
{
	unsigned int first[K_COUNT] = { 0 };
	unsigned int lineno = 0;
	struct config c;
	size_t pos = 0, n;
	const char *nl;
	int r;

	memset(&c, 0, sizeof(c));
	memset(err, 0, sizeof(*err));
	if (len > CONFIG_FILE_MAX) {
		err->kind = CONFIG_E_TOO_BIG;
		return -EFBIG;
	}
	while (pos < len) {
		lineno++;
		nl = memchr(text + pos, '\n', len - pos);
		n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		if (memchr(text + pos, '\0', n))
			return fail(err, CONFIG_E_NUL, lineno);
		if (n > CONFIG_LINE_MAX)
			return fail(err, CONFIG_E_LONG_LINE, lineno);
		r = parse_line(text + pos, n, lineno, &c, first, err);
		if (r < 0)
			return r;
		pos += n + 1;
	}
	*ret = c;
	return 0;
}

int config_read(const char *path, struct config *ret, struct config_error *err)
{
	char *buf;
	ssize_t n;
	size_t len = 0;
	int fd, r;

	memset(err, 0, sizeof(*err));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* one byte more than allowed, to see a file that is too big */
	buf = malloc(CONFIG_FILE_MAX + 1);
	if (!buf) {
		r = -ENOMEM;
		goto out_close;
	}
	for (;;) {
		n = read(fd, buf + len, CONFIG_FILE_MAX + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			goto out_free;
		}
		if (n == 0 || (len += n) > CONFIG_FILE_MAX)
			break;
	}
	r = config_parse(buf, len, ret, err);
out_free:
	free(buf);
out_close:
	close(fd);
	return r;
}

/* @base's setting @f from @over, where @over has it */
#define OVERRIDE(f)							\
	do {								\
		if (over->has_##f) {					\
			memcpy(&base->f, &over->f, sizeof(base->f));	\
			base->has_##f = 1;				\
		}							\
	} while (0)

void config_override(struct config *base, const struct config *over)
{
	OVERRIDE(resume);
	OVERRIDE(resume_offset);
	OVERRIDE(poweroff);
	OVERRIDE(image_size);
	if (over->has_image_size)
		base->image_size_mode = over->image_size_mode;
	OVERRIDE(progress);
	OVERRIDE(compress);
	OVERRIDE(threads);
	OVERRIDE(image_file);
	OVERRIDE(discard_after_resume);
	OVERRIDE(initramfs);
	OVERRIDE(warm_back);
}

static const char *bad_value_why(const char *key)
{
	int k = find_key(key, strlen(key));

	switch (k) {
	case K_RESUME:
		return "a device is one word of at most 255 bytes";
	case K_RESUME_OFFSET:
		return "not a decimal page number";
	case K_POWEROFF:
		return CONFIG_POWEROFF_WHY;
	case K_IMAGE_SIZE:
		return CONFIG_IMAGE_SIZE_WHY;
	case K_PROGRESS:
		return "not 'yes' or 'no'";
	case K_COMPRESS:
		return "not 'lz4', 'lz4:N' (1-65537), 'lz4hc', 'lz4hc:N' (1-12) or 'none'";
	case K_THREADS:
		return "not 'auto' or a number from 1 to 16";
	case K_IMAGE_FILE:
		return "not an absolute path of at most 255 bytes";
	case K_DISCARD_AFTER_RESUME:
		return "not 'yes' or 'no'";
	case K_INITRAMFS:
		return "not an absolute path of at most 255 bytes, nor none";
	case K_WARM_BACK:
		return "not 'yes' or 'no'";
	}
	return "invalid";
}

const char *config_describe(const struct config_error *e, char *buf, size_t len)
{
	switch (e->kind) {
	case CONFIG_E_NONE:
		snprintf(buf, len, "no error");
		break;
	case CONFIG_E_SYNTAX:
		snprintf(buf, len, "expected 'key = value'");
		break;
	case CONFIG_E_UNKNOWN_KEY:
		snprintf(buf, len, "unknown key '%s'", e->key);
		break;
	case CONFIG_E_EMPTY_VALUE:
		snprintf(buf, len, "no value for '%s'", e->key);
		break;
	case CONFIG_E_BAD_VALUE:
		snprintf(buf, len, "invalid value '%s' for '%s': %s", e->value, e->key,
			 bad_value_why(e->key));
		break;
	case CONFIG_E_DUPLICATE:
		snprintf(buf, len, "duplicate key '%s', first given on line %u", e->key,
			 e->first_line);
		break;
	case CONFIG_E_LONG_LINE:
		snprintf(buf, len, "line longer than %d bytes", CONFIG_LINE_MAX);
		break;
	case CONFIG_E_NUL:
		snprintf(buf, len, "NUL byte: not a text file");
		break;
	case CONFIG_E_TOO_BIG:
		snprintf(buf, len, "file larger than %d KiB", CONFIG_FILE_MAX / 1024);
		break;
	}
	return buf;
}

const char *config_hint(const struct config_error *e, char *buf, size_t len)
{
	switch (e->kind) {
	case CONFIG_E_UNKNOWN_KEY:
		snprintf(buf, len, "the keys are resume, resume_offset, poweroff, image_size, "
			 "progress, compress, threads, image_file, discard_after_resume, "
			 "initramfs and warm_back (see torpor.conf(5))");
		break;
	case CONFIG_E_EMPTY_VALUE:
		snprintf(buf, len, "give a value, or remove the line to get the default");
		break;
	case CONFIG_E_BAD_VALUE:
		snprintf(buf, len, "a comment must be on a line of its own; see torpor.conf(5) "
			 "for the values '%s' takes", e->key);
		break;
	case CONFIG_E_DUPLICATE:
		snprintf(buf, len, "keep one of the two lines");
		break;
	default:
		snprintf(buf, len, "each line is 'key = value', a '#' comment, or blank "
			 "(see torpor.conf(5))");
	}
	return buf;
}
