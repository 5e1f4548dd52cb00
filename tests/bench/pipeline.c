// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipeline.c - make bench-host: torpor's writer and loader natively, no QEMU
 *
 * A synthetic snapshot stream of MIB MiB (a page mix: zero pages, text-like
 * pages, binary records, random pages) goes through torpor's writer (the
 * suspend side's code, with 1..N compression threads) into an image file
 * made with mkswap, then back through the loader (the resume side's code,
 * built with glibc here) into a sink that compares it with the stream.  In
 * the same run, as references: a plain copy of the same bytes with the same
 * reads (one page per read(), as /dev/snapshot gives them) and 4 MiB writes,
 * flushed like the image; and the lz4 command line tool at its default level
 * on the same file.  Each is run REPEAT times; medians are printed, in MB/s
 * of stream (uncompressed) bytes.
 *
 * Then, with MAX_THREADS, each compression setting of the comma-separated list
 * COMPRESS (default lz4:1,lz4:2,lz4:4,lz4:8,lz4hc:1): MB/s and image size, the
 * measurement the default setting is chosen by.
 *
 * Usage: pipeline DIR [MIB [MAX_THREADS [REPEAT [COMPRESS]]]]   (DIR gets ~2.2x MIB)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "blkio.h"
#include "loader.h"
#include "packpool.h"
#include "writer.h"
#include "../unit/snapsink.h"
#include "../unit/swapfile.h"

#define PS 4096
#define RUNS_MAX 9

static char stream_path[512], image_path[512], copy_path[512];
static uint64_t stream_len;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* fake_alloc()'s slots: in order, after the header page */
static uint64_t slot_offset(uint64_t k)
{
	return (k + 1) * PS;
}

/*
 * One page of the mix: 30% zero, 25% text-like, 30% binary records (pointers,
 * small integers, padding), 15% random (already compressed data, keys).
 */
static void make_page(uint8_t *pg, uint64_t n, uint32_t *x)
{
	static const char words[] = "the of and to in is that for it as was with be by on not "
				    "he this are or his from at which but have an they you ";
	unsigned kind = (unsigned)((n * 2654435761u) >> 7) % 20;
	size_t i;

	if (kind < 6) {
		memset(pg, 0, PS);
		return;
	}
	for (i = 0; i < PS; i++) {
		*x ^= *x << 13, *x ^= *x >> 17, *x ^= *x << 5;
		if (kind < 11)
			pg[i] = (uint8_t)words[(i * 7 + (*x & 3) + n) % (sizeof(words) - 1)];
		else if (kind < 17)
			pg[i] = i % 16 < 6 ? (uint8_t)(i % 16 == 5 ? 0x7f : *x & 0x3f) :
					     (i % 16 < 8 ? (uint8_t)(n & 0xff) : 0);
		else
			pg[i] = (uint8_t)(*x >> 11);
	}
}

static int make_stream(uint64_t mib)
{
	uint8_t *buf = malloc(4u << 20);
	uint32_t x = 2463534242u;
	uint64_t p, pages = (mib << 20) / PS;
	int fd, r = 0;

	fd = open(stream_path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || !buf)
		return -1;
	for (p = 0; p < pages && r == 0; p++) {
		make_page(buf + (p % 1024) * PS, p, &x);
		if (p % 1024 == 1023 || p == pages - 1)
			r = blkio_pwrite(fd, buf, (p % 1024 + 1) * PS, (p - p % 1024) * PS);
	}
	stream_len = pages * PS;
	free(buf);
	close(fd);
	return r;
}

static int mkswap_image(void)
{
	return swapfile_make(image_path, stream_len + stream_len / 8 + (64u << 20), "");
}

/* Write the image with @threads workers (0: inline); seconds, or -1. */
static double run_writer(const struct pack_setting *set, unsigned threads, uint64_t *ret_stored)
{
	struct writer w;
	char orig[10];
	double t0, t;
	int dev, snap, r;

	if (mkswap_image())
		return -1;
	dev = open(image_path, O_RDWR);
	snap = open(stream_path, O_RDONLY);
	r = writer_init(&w, dev, 0, PS, stream_len + (64u << 20));
	if (r == 0)
		r = writer_setup_pack(&w, set, threads);
	if (r == 0)
		r = writer_check_header(&w, orig, 1);
	w.alloc_slot = fake_alloc;
	slot_next = 0;
	slot_limit = (stream_len + stream_len / 8 + (60u << 20)) / PS;
	t0 = now();
	if (r == 0)
		r = writer_save(&w, snap, stream_len);
	if (r == 0)
		r = writer_commit(&w, orig);
	t = now() - t0;
	*ret_stored = w.img.meta.data_pages * PS;
	if (r < 0)
		fprintf(stderr, "pipeline: writer failed: %s\n", strerror(-r));
	writer_release(&w);
	close(snap);
	close(dev);
	return r < 0 ? -1 : t;
}

/* Load it back into the sink; seconds, or -1. */
static double run_loader(void)
{
	struct loader l;
	double t0, t;
	int dev, r;

	dev = open(image_path, O_RDONLY);
	sink.off = 0;
	sink.bad = 0;
	t0 = now();
	r = loader_init(&l, dev, stream_len + stream_len / 8 + (64u << 20), 0, PS);
	if (r == 0)
		r = loader_read_root(&l);
	if (r == 0)
		r = loader_read_meta(&l);
	l.write_pages = sink_writev;
	if (r == 0)
		r = loader_feed(&l, -1);
	t = now() - t0;
	if (r < 0 || sink.bad || sink.off != stream_len)
		fprintf(stderr, "pipeline: loader failed (%d, %s)\n", r, l.failed ? l.failed : "");
	loader_release(&l);
	close(dev);
	return r < 0 || sink.bad || sink.off != stream_len ? -1 : t;
}

/* The reference: the same reads (a page each), 4 MiB writes, one fdatasync. */
static double run_copy(void)
{
	uint8_t *buf = blkio_alloc(4u << 20);
	uint64_t off = 0;
	size_t fill = 0;
	double t0, t;
	int in, out, r = 0;

	in = open(stream_path, O_RDONLY);
	out = open(copy_path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (in < 0 || out < 0 || !buf)
		return -1;
	t0 = now();
	while (off < stream_len && r == 0) {
		if (read(in, buf + fill, PS) != PS)
			r = -EIO;
		fill += PS;
		off += PS;
		if (r == 0 && (fill == (4u << 20) || off == stream_len)) {
			r = blkio_pwrite(out, buf, fill, off - fill);
			fill = 0;
		}
	}
	if (r == 0 && fdatasync(out) < 0)
		r = -errno;
	t = now() - t0;
	close(in);
	close(out);
	blkio_free(buf, 4u << 20);
	return r < 0 ? -1 : t;
}

static double run_cmd(const char *cmd)
{
	double t0 = now();

	if (system(cmd) != 0)
		return -1;
	return now() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of @n runs as MB/s of the stream; 0 when any run failed. */
static double median_mbs(double *t, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (t[i] <= 0)
			return 0;
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	return (double)stream_len / 1e6 / t[n / 2];
}

/* The references, printed: a plain copy and the lz4 tool.  Nonzero when one failed. */
static int bench_references(int repeat, double *ret_copy)
{
	double t[RUNS_MAX], copy, lz4c, lz4d;
	char cmd[1200];
	int i, bad = 0;

	for (i = 0; i < repeat; i++)
		t[i] = run_copy();
	copy = median_mbs(t, repeat);
	printf("%-28s %10.0f MB/s\n", "plain copy (reference)", copy);
	bad |= copy == 0;
	snprintf(cmd, sizeof(cmd), "lz4 -1 -q -f %s %s.lz4", stream_path, copy_path);
	for (i = 0; i < repeat; i++)
		t[i] = run_cmd(cmd);
	lz4c = median_mbs(t, repeat);
	snprintf(cmd, sizeof(cmd), "lz4 -d -q -f %s.lz4 %s", copy_path, copy_path);
	for (i = 0; i < repeat; i++)
		t[i] = run_cmd(cmd);
	lz4d = median_mbs(t, repeat);
	printf("%-28s %10.0f MB/s  (lz4 -d: %.0f MB/s)\n", "lz4 -1 CLI, one thread", lz4c, lz4d);
	bad |= lz4c == 0 || lz4d == 0;
	*ret_copy = copy;
	return bad;
}

/* Each compression setting of @list with @max threads, printed.  Nonzero when one failed. */
static int bench_settings(const char *list, unsigned max, int repeat, double copy)
{
	struct pack_setting set;
	double t[RUNS_MAX], w;
	uint64_t stored = 0;
	char name[64];
	int i, bad = 0;
	size_t n;

	while (*list) {
		n = strcspn(list, ",");
		snprintf(name, sizeof(name), "%.*s", (int)n, list);
		list += n + (list[n] == ',');
		if (pack_setting_parse(name, &set) < 0) {
			fprintf(stderr, "pipeline: bad compression setting '%s'\n", name);
			bad = 1;
			continue;
		}
		for (i = 0; i < repeat; i++)
			t[i] = run_writer(&set, max > 1 ? max : 0, &stored);
		w = median_mbs(t, repeat);
		printf("compress=%-10s %2u thread%s %10.0f MB/s  %.2fx copy   image %.1f%%\n", name,
		       max, max > 1 ? "s" : " ", w, copy > 0 ? w / copy : 0,
		       100.0 * (double)stored / (double)stream_len);
		bad |= w == 0;
	}
	return bad;
}

int main(int argc, char **argv)
{
	uint64_t mib = argc > 2 ? strtoull(argv[2], NULL, 10) : 2048, stored = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned max = argc > 3 ? (unsigned)atoi(argv[3]) : (unsigned)(ncpu > 1 ? ncpu : 1);
	int repeat = argc > 4 ? atoi(argv[4]) : 3, i, bad = 0;
	const char *list = argc > 5 ? argv[5] : "lz4:1,lz4:2,lz4:4,lz4:8,lz4hc:1";
	struct pack_setting lz4 = { PACK_LZ4, 1 };
	double t[RUNS_MAX], copy, load, w;
	char cmd[1200];
	unsigned th;

	if (argc < 2 || mib < 16 || max < 1 || max > PACK_THREADS_MAX || repeat < 1 ||
	    repeat > RUNS_MAX) {
		fprintf(stderr, "usage: pipeline DIR [MIB>=16 [MAX_THREADS 1-16 [REPEAT 1-9 "
			"[COMPRESS,...]]]]\n");
		return 2;
	}
	snprintf(stream_path, sizeof(stream_path), "%s/stream", argv[1]);
	snprintf(image_path, sizeof(image_path), "%s/image", argv[1]);
	snprintf(copy_path, sizeof(copy_path), "%s/copy", argv[1]);
	if (make_stream(mib)) {
		fprintf(stderr, "pipeline: cannot write %s\n", stream_path);
		return 1;
	}
	{
		int fd = open(stream_path, O_RDONLY);

		sink.want = mmap(NULL, stream_len, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (sink.want == MAP_FAILED)
			return 1;
		sink.len = stream_len;
	}
	printf("# host pipeline: %llu MiB stream (30%% zero, 25%% text, 30%% records, 15%% "
	       "random pages), %ld CPUs, medians of %d runs, MB/s of uncompressed bytes\n",
	       (unsigned long long)mib, ncpu, repeat);
	bad |= bench_references(repeat, &copy);
	for (th = 1; th <= max; th++) {
		for (i = 0; i < repeat; i++)
			t[i] = run_writer(&lz4, th > 1 ? th : 0, &stored);
		w = median_mbs(t, repeat);
		for (i = 0; i < repeat; i++)
			t[i] = run_loader();
		load = median_mbs(t, repeat);
		printf("torpor write, %2u thread%s     %10.0f MB/s  %.2fx copy   image %.1f%% | "
		       "load %6.0f MB/s  %.2fx copy\n", th, th > 1 ? "s" : " ", w,
		       copy > 0 ? w / copy : 0, 100.0 * (double)stored / (double)stream_len, load,
		       copy > 0 ? load / copy : 0);
		bad |= w == 0 || load == 0;
	}
	bad |= bench_settings(list, max, repeat, copy);
	unlink(stream_path);
	unlink(image_path);
	unlink(copy_path);
	snprintf(cmd, sizeof(cmd), "%s.lz4", copy_path);
	unlink(cmd);
	return bad;
}
