// SPDX-License-Identifier: GPL-2.0-only
/*
 * scan.c - make bench-scan: how long a content scan of /sys/class/block takes
 * (core/devname.c, a UUID= that no device carries, so every device is read),
 * over N fake devices (default 50) in a temporary tree under devname_root:
 * each a 68 KiB image file with a swap header, as torpor-resume reads them.
 * Built twice, with each build's libcore.a: glibc as torpor-suspend is, klcc
 * as torpor-resume is.  Integers only: klibc's printf has no %f.
 * Usage: scan-bench NAME [N]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "devname.h"

#define DEV_BYTES	(68u << 10)
#define ROUNDS		20

static char root[128];

static uint64_t now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000000 + (uint64_t)tv.tv_usec;
}

static int put(const char *rel, const void *data, size_t len)
{
	char p[512];
	int fd, ok;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	ok = write(fd, data, len) == (ssize_t)len;
	close(fd);
	return ok ? 0 : -1;
}

static int dir(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return mkdir(p, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static int link_to(const char *target, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return symlink(target, p);
}

/* One disk "vbN", 254:N, with a swap header whose UUID ends in N. */
static int add_dev(unsigned int n, uint8_t *img)
{
	char rel[256], text[128];
	int r = 0;

	snprintf(rel, sizeof(rel), "sys/devices/vb%u", n);
	r |= dir(rel);
	snprintf(rel, sizeof(rel), "sys/devices/vb%u/holders", n);
	r |= dir(rel);
	snprintf(rel, sizeof(rel), "sys/devices/vb%u/dev", n);
	snprintf(text, sizeof(text), "254:%u\n", n);
	r |= put(rel, text, strlen(text));
	snprintf(rel, sizeof(rel), "sys/devices/vb%u/size", n);
	r |= put(rel, "136\n", 4);
	snprintf(rel, sizeof(rel), "sys/devices/vb%u/uevent", n);
	snprintf(text, sizeof(text), "MAJOR=254\nMINOR=%u\nDEVNAME=vb%u\nDEVTYPE=disk\n", n, n);
	r |= put(rel, text, strlen(text));
	snprintf(rel, sizeof(rel), "sys/class/block/vb%u", n);
	snprintf(text, sizeof(text), "../../devices/vb%u", n);
	r |= link_to(text, rel);
	snprintf(rel, sizeof(rel), "sys/dev/block/254:%u", n);
	r |= link_to(text, rel);
	/* swap header: version 1, UUID at 1036, signature at the page's end */
	memset(img, 0, DEV_BYTES);
	img[1024] = 1;
	img[1036] = 0x3f;
	img[1051] = (uint8_t)n;
	memcpy(img + 4096 - 10, "SWAPSPACE2", 10);
	snprintf(rel, sizeof(rel), "dev/vb%u", n);
	r |= put(rel, img, DEV_BYTES);
	return r;
}

int main(int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");
	unsigned int n = argc > 2 ? (unsigned int)atoi(argv[2]) : 50, i;
	uint64_t t0, best = UINT64_MAX, sum = 0, t;
	uint8_t *img = malloc(DEV_BYTES);
	char cmd[200];
	dev_t dev;
	int r = 0;

	if (!img || argc < 2 || n == 0 || n > 250)
		return 2;
	/* klibc has no mkdtemp() */
	snprintf(root, sizeof(root), "%s/torpor-scan-%d", tmp && *tmp ? tmp : "/tmp", (int)getpid());
	if (mkdir(root, 0700) < 0)
		return 2;
	r |= dir("sys") | dir("sys/devices") | dir("sys/class") | dir("sys/class/block") |
	     dir("sys/dev") | dir("sys/dev/block") | dir("dev");
	for (i = 1; i <= n && !r; i++)
		r |= add_dev(i, img);
	devname_root = root;
	for (i = 0; i < ROUNDS && !r; i++) {
		t0 = now_us();
		if (devname_resolve("UUID=00000000-0000-0000-0000-000000000000", &dev) != -ENOENT)
			r = 1;
		t = now_us() - t0;
		sum += t;
		if (t < best)
			best = t;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	if (r) {
		fprintf(stderr, "scan-bench: setting up or scanning failed\n");
		return 1;
	}
	printf("%-6s scan of %u devices: best %llu us, mean %llu us (%llu us a device)\n", argv[1],
	       n, (unsigned long long)best, (unsigned long long)(sum / ROUNDS),
	       (unsigned long long)(sum / ROUNDS / n));
	return 0;
}
