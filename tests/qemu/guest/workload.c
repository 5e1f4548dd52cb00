// SPDX-License-Identifier: GPL-2.0-only
/*
 * workload: the guest process whose memory must survive a hibernate/resume cycle.
 *
 * Usage: workload TOKEN MIB DIR [FILESET]
 *        workload append LOG [WITNESS]
 *        workload fill FILE MIB
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
 * 5. With FILESET (a block device or a file, the whole trip of make bench): before
 *    "ready", reads it all into the page cache, keeps it open and mapped, and touches
 *    every page of the mapping.  On SIGUSR2 touches the whole working set, reading
 *    every word as a program that uses its data would, 16 MiB of memory and 16 MiB
 *    of the file set in turn (neither is favoured), and writes "touched <ms> <memory
 *    MiB> <file set MiB> <0|1> <memory MiB resident> <file set MiB resident>" to
 *    DIR/touched; <ms> is CLOCK_MONOTONIC, with three decimals; what was resident is
 *    mincore()'s answer just before the touch.
 *
 * Files are written to DIR/.tmp and renamed, so a reader never sees half a line.
 *
 * "append" is the fast appender of the power-cut scenarios: it appends the lines
 * N+1, N+2, ... to LOG (which holds N lines), one write() each, as fast as it can.
 * After each write() returns it records the line's number in the first 512-byte
 * block of the raw device WITNESS with O_DIRECT, so the count of appends the
 * program saw succeed reaches the disk image at once and survives a power cut.
 * "fill" writes MIB MiB of pages of the same kind (half text, half noise, seeded
 * from the page number) to FILE: the file set's disk, made on the host.
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#define PAGE 4096
#define HALF (PAGE / 2)

#define TOUCH_CHUNK (16 << 20)

static volatile sig_atomic_t check_requested, touch_requested;
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

static void on_usr2(int sig)
{
	(void)sig;
	touch_requested = 1;
}

/* the file set: read into the page cache, kept open and mapped */
struct fileset {
	const volatile unsigned char *map;
	size_t len;
	int fd;
};

static void fileset_open(struct fileset *fs, const char *path)
{
	static char buf[1 << 20];
	struct timespec a, b;
	struct stat st;
	uint64_t len;
	size_t off;
	ssize_t r;

	fs->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fs->fd < 0 || fstat(fs->fd, &st)) {
		perror(path);
		exit(1);
	}
	len = (uint64_t)st.st_size;
	if (S_ISBLK(st.st_mode) && ioctl(fs->fd, BLKGETSIZE64, &len)) {
		perror(path);
		exit(1);
	}
	fs->len = (size_t)len;
	clock_gettime(CLOCK_MONOTONIC, &a);
	while ((r = read(fs->fd, buf, sizeof(buf))) > 0)
		;
	clock_gettime(CLOCK_MONOTONIC, &b);
	/* the reference for bringing it back: the same bytes read once, cold */
	fprintf(stderr, "workload: file set of %zu MiB read in %.3f ms\n", fs->len >> 20,
		(double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6);
	fs->map = mmap(NULL, fs->len, PROT_READ, MAP_SHARED, fs->fd, 0);
	if (r < 0 || !fs->len || fs->map == MAP_FAILED) {
		perror(path);
		exit(1);
	}
	for (off = 0; off < fs->len; off += PAGE)
		(void)fs->map[off];
}

/* every word of [p, p + n) read, as a program that uses its data */
static uint64_t touch_range(const volatile unsigned char *p, size_t n)
{
	const volatile uint64_t *w = (const volatile uint64_t *)p;
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < n / 8; i++)
		x += w[i];
	return x;
}

/* the MiB of [p, p + n) in memory now (mincore) */
static size_t resident_mib(const void *p, size_t n)
{
	static unsigned char vec[(8ul << 30) / PAGE];
	size_t i, in = 0, pages = (n + PAGE - 1) / PAGE;

	if (pages > sizeof(vec) || mincore((void *)p, n, vec))
		return 0;
	for (i = 0; i < pages; i++)
		in += vec[i] & 1;
	return in / (1024 * 1024 / PAGE);
}

static void touch(const unsigned char *mem, size_t bytes, const struct fileset *fs)
{
	size_t res_mem = resident_mib(mem, bytes), res_fs = resident_mib((const void *)fs->map, fs->len);
	struct timespec a, b;
	size_t off, end = bytes > fs->len ? bytes : fs->len;
	uint64_t x = 0;
	char line[128];
	double ms;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (off = 0; off < end; off += TOUCH_CHUNK) {
		if (off < bytes)
			x += touch_range(mem + off, bytes - off < TOUCH_CHUNK ? bytes - off : TOUCH_CHUNK);
		if (off < fs->len)
			x += touch_range(fs->map + off,
					 fs->len - off < TOUCH_CHUNK ? fs->len - off : TOUCH_CHUNK);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	snprintf(line, sizeof(line), "touched %.3f %zu %zu %llu %zu %zu\n", ms, bytes >> 20,
		 fs->len >> 20, (unsigned long long)(x & 1), res_mem, res_fs);
	put_file("touched", line);
}

/* workload fill FILE MIB: the file set's pages, on the host */
static int fill(const char *path, const char *mib)
{
	unsigned char page[PAGE];
	size_t n, pages = strtoul(mib, NULL, 10) * (1024 * 1024 / PAGE);
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		return 1;
	}
	for (n = 0; n < pages; n++) {
		fill_page(page, 0x66696c6573657421ULL, n);
		if (fwrite(page, PAGE, 1, f) != 1) {
			perror(path);
			return 1;
		}
	}
	if (fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
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
	struct fileset fs = { NULL, 0, -1 };
	struct sigaction sa;
	unsigned long long counter = 0;
	unsigned char *mem;
	char token[128], line[256];
	size_t pages, n;
	uint64_t seed;

	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "append"))
		return append(argv[2], argc == 4 ? argv[3] : NULL);
	if (argc == 4 && !strcmp(argv[1], "fill"))
		return fill(argv[2], argv[3]);
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: workload TOKEN MIB DIR [FILESET] | workload append LOG [WITNESS] | workload fill FILE MIB\n");
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
	if (argc == 5)
		fileset_open(&fs, argv[4]);
	snprintf(line, sizeof(line), "ready %016llx\n", (unsigned long long)sum_pages(mem, pages));
	put_file("ready", line);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	for (;;) {
		if (touch_requested && fs.map) {
			touch_requested = 0;
			touch(mem, pages * PAGE, &fs);
		}
		if (check_requested) {
			check_requested = 0;
			check(mem, pages, seed, token);
		}
		snprintf(line, sizeof(line), "%llu\n", ++counter);
		put_file("counter", line);
		nanosleep(&tick, NULL);
	}
}
