// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysmem.c - the kernel's count of present memory pages
 *
 * The kernel refuses an image whose num_physpages differs from its own
 * get_num_physpages(), the sum of node_present_pages over online nodes: the
 * sum of the "present" lines of /proc/zoneinfo.  torpor records that number
 * when hibernating and compares it before resuming, so a machine that boots
 * with another amount of memory gets torpor's clear refusal instead of a
 * kernel error halfway through the load.  Its free memory, from
 * /proc/meminfo, is what the kernel's restore can take (restoreneed.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysmem.h"

/**
 * sysmem_parse_zoneinfo() - sum the "present" counts of a /proc/zoneinfo text
 * Return: 0, or -EINVAL when the text has no such line.
 */
int sysmem_parse_zoneinfo(const char *text, uint64_t *ret_pages)
{
	const char *p = text;
	uint64_t sum = 0;
	int seen = 0;

	while ((p = strstr(p, "present")) != NULL) {
		/* a field line: start of line, spaces, "present", spaces, number */
		const char *q = p;

		while (q > text && q[-1] == ' ')
			q--;
		p += 7;
		if (q != text && q[-1] != '\n')
			continue;
		if (*p != ' ')
			continue;
		sum += strtoull(p, NULL, 10);
		seen = 1;
	}
	if (!seen)
		return -EINVAL;
	*ret_pages = sum;
	return 0;
}

/* The whole of @path (a /proc file), NUL-terminated, in *@ret_buf; 0 or -errno */
static int read_proc(const char *path, char **ret_buf)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap), *nb;
	ssize_t n;
	int fd, r;

	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		free(buf);
		return r;
	}
	for (;;) {
		if (cap - len < 4096) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				r = -ENOMEM;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
	*ret_buf = buf;
	return 0;
out:
	close(fd);
	free(buf);
	return r;
}

/* Present pages of the running kernel; 0 or -errno. */
int sysmem_present_pages(uint64_t *ret_pages)
{
	char *buf;
	int r = read_proc("/proc/zoneinfo", &buf);

	if (r < 0)
		return r;
	r = sysmem_parse_zoneinfo(buf, ret_pages);
	free(buf);
	return r;
}

/**
 * sysmem_parse_meminfo() - the bytes of field @key ("MemFree") of a
 * /proc/meminfo text, whose lines read "Key:   N kB"
 * Return: 0, or -EINVAL when the text has no such line.
 */
int sysmem_parse_meminfo(const char *text, const char *key, uint64_t *ret_bytes)
{
	size_t n = strlen(key);
	const char *p = text;
	char *end;
	unsigned long long v;

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, n) || p[n] != ':')
			continue;
		p += n + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = strtoull(p, &end, 10);
		if (strncmp(end, " kB", 3) || v > UINT64_MAX / 1024)
			return -EINVAL;
		*ret_bytes = (uint64_t)v * 1024;
		return 0;
	}
	return -EINVAL;
}

/* MemTotal and MemFree of the running kernel, in bytes; 0 or -errno. */
int sysmem_meminfo(uint64_t *ret_total, uint64_t *ret_free)
{
	uint64_t total, free_bytes;
	char *buf;
	int r = read_proc("/proc/meminfo", &buf);

	if (r < 0)
		return r;
	r = sysmem_parse_meminfo(buf, "MemTotal", &total);
	if (r == 0)
		r = sysmem_parse_meminfo(buf, "MemFree", &free_bytes);
	free(buf);
	if (r < 0)
		return r;
	*ret_total = total;
	*ret_free = free_bytes;
	return 0;
}
