// SPDX-License-Identifier: GPL-2.0-only
/*
 * workload: the guest process whose memory must survive a hibernate/resume cycle.
 *
 * Usage: workload TOKEN MIB DIR
 *        workload append LOG [WITNESS]
 *
 * 1. Writes TOKEN to DIR/token.
 * 2. Fills MIB MiB of memory, page by page: the first half of each page is a
 *    short text record repeated (compressible), the second half is xorshift64*
 *    output seeded from TOKEN and the page number (incompressible).  Writes
 *    "ready <sum>" to DIR/ready, where sum is a checksum over all of it.
 * 3. Every 100 ms writes an incrementing counter to DIR/counter.
 * 4. On SIGUSR1 regenerates every page from TOKEN, compares it with memory and
 *    recomputes the checksum; writes "ok <sum> <token>" or
 *    "bad <sum> <token> pages=<bad> first=<page>" to DIR/status.
 *
 * Files are written to DIR/.tmp and renamed, so a reader never sees half a line.
 *
 * "append" is the fast appender of the power-cut scenarios: it appends the lines
 * N+1, N+2, ... to LOG (which holds N lines), one write() each, as fast as it can.
 * After each write() returns it records the line's number in the first 512-byte
 * block of the raw device WITNESS with O_DIRECT, so the count of appends the
 * program saw succeed reaches the disk image at once and survives a power cut.
 * Built statically with gcc for the test initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define HALF (PAGE / 2)

static volatile sig_atomic_t check_requested;
static const char *dir;

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t token_seed(const char *token)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (; *token; token++)
		h = (h ^ (unsigned char)*token) * 0x100000001b3ULL;
	return h;
}

static void fill_page(unsigned char *p, uint64_t seed, size_t n)
{
	uint64_t s = splitmix64(seed ^ n) | 1;
	uint64_t *w = (uint64_t *)(p + HALF);
	char rec[64];
	size_t i, len;

	len = (size_t)snprintf(rec, sizeof(rec), "torpor page %zu seed %016llx | ", n,
			       (unsigned long long)seed);
	for (i = 0; i < HALF; i++)
		p[i] = (unsigned char)rec[i % len];
	for (i = 0; i < HALF / 8; i++) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		w[i] = s * 0x2545f4914f6cdd1dULL;
	}
}

static uint64_t sum_pages(const unsigned char *mem, size_t pages)
{
	const uint64_t *w = (const uint64_t *)mem;
	size_t i, n = pages * (PAGE / 8);
	uint64_t sum = 0;

	for (i = 0; i < n; i++)
		sum = (sum ^ w[i]) * 0x100000001b3ULL + i;
	return sum;
}

static void put_file(const char *name, const char *text)
{
	char tmp[512], path[512];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/.tmp-%s", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		exit(1);
	}
	fputs(text, f);
	if (fclose(f) || rename(tmp, path)) {
		perror(path);
		exit(1);
	}
}

static void on_usr1(int sig)
{
	(void)sig;
	check_requested = 1;
}

static void check(const unsigned char *mem, size_t pages, uint64_t seed, const char *token)
{
	unsigned char expect[PAGE];
	size_t n, bad = 0, first = 0;
	char line[256];
	uint64_t sum;

	for (n = 0; n < pages; n++) {
		fill_page(expect, seed, n);
		if (memcmp(expect, mem + n * PAGE, PAGE)) {
			if (!bad)
				first = n;
			bad++;
		}
	}
	sum = sum_pages(mem, pages);
	if (bad)
		snprintf(line, sizeof(line), "bad %016llx %s pages=%zu first=%zu\n",
			 (unsigned long long)sum, token, bad, first);
	else
		snprintf(line, sizeof(line), "ok %016llx %s\n", (unsigned long long)sum, token);
	put_file("status", line);
}

/* the lines in @fd, which must end in a newline when not empty */
static unsigned long long count_lines(int fd)
{
	unsigned long long n = 0;
	char buf[65536];
	ssize_t r, i;

	while ((r = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < r; i++)
			n += buf[i] == '\n';
	if (r < 0) {
		perror("workload: read log");
		exit(1);
	}
	return n;
}

static int append(const char *log, const char *witness)
{
	unsigned long long i;
	char line[32], *block = NULL;
	int fd, wfd = -1, len;

	fd = open(log, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(log);
		return 1;
	}
	i = count_lines(fd);
	if (witness) {
		wfd = open(witness, O_WRONLY | O_DIRECT | O_CLOEXEC);
		if (wfd < 0 || posix_memalign((void **)&block, 4096, 4096)) {
			perror(witness);
			return 1;
		}
		memset(block, 0, 4096);
	}
	for (;;) {
		len = snprintf(line, sizeof(line), "%llu\n", ++i);
		if (write(fd, line, (size_t)len) != len) {
			perror("workload: append");
			return 1;
		}
		if (wfd < 0)
			continue;
		memcpy(block, line, (size_t)len + 1);
		while (pwrite(wfd, block, 512, 0) != 512) {
			if (errno != EINTR) {
				perror("workload: witness");
				return 1;
			}
		}
	}
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	struct sigaction sa;
	unsigned long long counter = 0;
	unsigned char *mem;
	char token[128], line[256];
	size_t pages, n;
	uint64_t seed;

	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "append"))
		return append(argv[2], argc == 4 ? argv[3] : NULL);
	if (argc != 4) {
		fprintf(stderr, "usage: workload TOKEN MIB DIR | workload append LOG [WITNESS]\n");
		return 2;
	}
	snprintf(token, sizeof(token), "%s", argv[1]);
	pages = strtoul(argv[2], NULL, 10) * (1024 * 1024 / PAGE);
	dir = argv[3];
	seed = token_seed(token);

	snprintf(line, sizeof(line), "%s\n", token);
	put_file("token", line);

	mem = aligned_alloc(PAGE, pages * PAGE);
	if (!mem) {
		perror("workload: aligned_alloc");
		return 1;
	}
	for (n = 0; n < pages; n++)
		fill_page(mem + n * PAGE, seed, n);
	snprintf(line, sizeof(line), "ready %016llx\n", (unsigned long long)sum_pages(mem, pages));
	put_file("ready", line);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	for (;;) {
		if (check_requested) {
			check_requested = 0;
			check(mem, pages, seed, token);
		}
		snprintf(line, sizeof(line), "%llu\n", ++counter);
		put_file("counter", line);
		nanosleep(&tick, NULL);
	}
}
