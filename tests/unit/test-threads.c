// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-threads.c - the writer with pack workers and the flusher thread
 *
 * The same stream written with 1, 2, 4 and 16 threads (and with every
 * compression setting) must give the same data, byte for byte, in extent
 * order, the same block table, and feed back the identical stream through the
 * loader.  Failures in the middle (swap area full, a write error, a stop
 * request) must come back as errors with every thread of ours gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "config.h"
#include "loader.h"
#include "packpool.h"
#include "procdir.h"
#include "snapsink.h"
#include "swapfile.h"
#include "tap.h"
#include "writer.h"

#define PS 4096
#define SWAP_PAGES 12288	/* 48 MiB swap file */
#define STREAM_PAGES (64 * 37 + 5)	/* 37 full blocks and a short one */

static char dir[] = "/tmp/torpor-threads-XXXXXX";
static char swap_path[256], stream_path[256];
static uint8_t *stream;
static size_t stream_len;
/* fake_alloc()'s slots in a scattered order: runs of three, then a gap */
static uint64_t slot_offset(uint64_t k)
{
	return (k + k / 3 + 1) * PS;
}

/* A page mix: zero pages, text-like, repeated binary records, random. */
static void make_stream(void)
{
	uint32_t x = 2463534242u;
	size_t p, i;

	stream_len = (size_t)STREAM_PAGES * PS;
	stream = malloc(stream_len);
	sink.copy = malloc(stream_len);
	sink.len = stream_len;
	for (p = 0; p < STREAM_PAGES; p++) {
		uint8_t *pg = stream + p * PS;

		for (i = 0; i < PS; i++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			switch (p % 5) {
			case 0:
				pg[i] = 0;
				break;
			case 1:
				pg[i] = "the quick brown fox jumps over the lazy dog "[(i + x % 3) % 44];
				break;
			case 2:
			case 3:
				pg[i] = (uint8_t)(i % 64 < 8 ? x : i * 7);
				break;
			default:
				pg[i] = (uint8_t)x;
			}
		}
	}
}

static int mkswap_file(void)
{
	return swapfile_make(swap_path, (uint64_t)SWAP_PAGES * PS, "");
}

/* Threads of this process. */
static int nr_tasks(void)
{
	return dir_entries("/proc/self/task");
}

static uint64_t polls, stop_at;

static int test_poll(uint64_t done, uint64_t total)
{
	(void)done;
	(void)total;
	return ++polls == stop_at;
}

struct result {
	int r;
	unsigned threads_used;
	uint64_t data_pages, stored, syncs;
	uint64_t estimate;		/* writer_estimate_bytes() after a failure */
	unsigned max_tasks;
};

static size_t sync_bytes;	/* the syncer's step for write_image(), 0: the default */

static unsigned max_tasks;

static void count_tasks(uint64_t done, uint64_t total)
{
	int n = nr_tasks();

	(void)done;
	(void)total;
	if (n > (int)max_tasks)
		max_tasks = (unsigned)n;
}

/* Write the stream with @threads workers and @set; @dev_flags opens the swap file. */
static struct result write_image(const struct pack_setting *set, unsigned threads, int dev_flags)
{
	struct result res = { 0 };
	struct writer w;
	char orig[10] = SWAP_SIG;
	int dev, snap;

	dev = open(swap_path, dev_flags);
	snap = open(stream_path, O_RDONLY);
	res.r = writer_init(&w, dev, 0, PS, stream_len * 2);
	if (res.r == 0)
		res.r = writer_setup_pack(&w, set, threads);
	w.alloc_slot = fake_alloc;
	if (sync_bytes)
		w.fl.sync_bytes = sync_bytes;
	w.poll = test_poll;
	w.progress = count_tasks;
	polls = 0;
	max_tasks = 0;
	slot_next = 0;
	if (res.r == 0)
		res.r = writer_save(&w, snap, stream_len);
	res.threads_used = w.threads_used;
	res.max_tasks = max_tasks;
	res.syncs = w.fl.syncs;
	if (res.r == 0)
		res.r = writer_commit(&w, orig);
	if (res.r < 0)
		res.estimate = writer_estimate_bytes(&w);
	if (res.r < 0)
		writer_abort(&w);
	res.data_pages = w.img.meta.data_pages;
	res.stored = w.img.meta.stored_bytes;
	writer_release(&w);
	close(snap);
	close(dev);
	return res;
}

/* The loader on @dev up to the image map: 0 or the first error. */
static int open_image(struct loader *l, int dev)
{
	int r = loader_init(l, dev, (uint64_t)SWAP_PAGES * PS, 0, PS);

	if (r == 0)
		r = loader_read_root(l);
	if (r == 0)
		r = loader_read_meta(l);
	return r;
}

/* The image's data in extent order, and its block table; loader-checked. */
static int read_data(uint8_t **ret_data, size_t *ret_len, struct torpor_block **ret_blocks,
		     uint32_t *ret_nr)
{
	struct loader l;
	uint8_t *data;
	size_t len = 0;
	uint32_t i;
	int dev, r;

	dev = open(swap_path, O_RDONLY);
	r = open_image(&l, dev);
	if (r < 0) {
		loader_release(&l);
		close(dev);
		return r;
	}
	data = malloc(l.img.meta.data_pages * PS);
	for (i = 0; i < l.img.meta.nr_extents && r == 0; i++) {
		r = blkio_pread(dev, data + len, (size_t)l.img.extents[i].pages * PS,
				l.img.extents[i].offset);
		len += (size_t)l.img.extents[i].pages * PS;
	}
	*ret_blocks = malloc(l.img.meta.nr_blocks * sizeof(**ret_blocks));
	memcpy(*ret_blocks, l.img.blocks, l.img.meta.nr_blocks * sizeof(**ret_blocks));
	*ret_nr = l.img.meta.nr_blocks;
	*ret_data = data;
	*ret_len = len;
	loader_release(&l);
	close(dev);
	return r;
}

/* The loader feeds back exactly the stream. */
static int round_trip(void)
{
	struct loader l;
	int dev, r;

	sink.off = 0;
	dev = open(swap_path, O_RDONLY);
	r = open_image(&l, dev);
	l.write_pages = sink_writev;
	if (r == 0)
		r = loader_feed(&l, -1);
	if (r == 0 && (sink.off != stream_len || memcmp(sink.copy, stream, stream_len)))
		r = -EIO;
	loader_release(&l);
	close(dev);
	return r;
}

static void test_identical(void)
{
	static const unsigned counts[] = { 0, 2, 4, 16 };
	struct pack_setting lz4 = { PACK_LZ4, 1 };
	uint8_t *ref = NULL, *data;
	struct torpor_block *ref_b = NULL, *b;
	size_t ref_len = 0, len;
	uint32_t ref_nr = 0, nr;
	struct result res;
	size_t i;
	int r;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		mkswap_file();
		slot_limit = SWAP_PAGES - 1000;
		res = write_image(&lz4, counts[i], O_RDWR);
		r = res.r == 0 ? read_data(&data, &len, &b, &nr) : res.r;
		if (i == 0) {
			ref = data, ref_len = len, ref_b = b, ref_nr = nr;
			tap_ok(r == 0 && res.threads_used == 0 && round_trip() == 0,
			       "threads: inline packing writes and round trips (%d)", r);
			continue;
		}
		tap_ok(r == 0 && len == ref_len && !memcmp(data, ref, len) && nr == ref_nr &&
		       !memcmp(b, ref_b, nr * sizeof(*b)),
		       "threads: %u workers write the same data and block table as one (%d, %zu "
		       "vs %zu bytes)", counts[i], r, len, ref_len);
		tap_ok(res.threads_used >= 1 && res.threads_used <= counts[i] &&
		       res.max_tasks >= 2 && res.max_tasks <= counts[i] + 3,
		       "threads: %u workers: %u packed, at most %u tasks seen while writing",
		       counts[i], res.threads_used, res.max_tasks);
		tap_ok(round_trip() == 0, "threads: %u workers: the loader feeds the identical "
		       "stream", counts[i]);
		tap_ok(nr_tasks() == 1, "threads: %u workers: none left after the write",
		       counts[i]);
		free(data);
		free(b);
	}
	free(ref);
	free(ref_b);
}

/* The syncer flushes each sync_bytes while writing; the image is the same. */
static void test_syncer(void)
{
	struct pack_setting lz4 = { PACK_LZ4, 1 };
	struct result res;

	mkswap_file();
	slot_limit = SWAP_PAGES - 1000;
	sync_bytes = 256u << 10;
	res = write_image(&lz4, 2, O_RDWR);
	sync_bytes = 0;
	tap_ok(res.r == 0 && res.syncs >= 1 &&
	       round_trip() == 0 && nr_tasks() == 1,
	       "threads: the syncer flushed %llu times for %llu KiB written, the image round "
	       "trips, no thread left (%d)", (unsigned long long)res.syncs,
	       (unsigned long long)(res.data_pages * PS >> 10), res.r);
}

static void test_settings(void)
{
	static const char *const names[] = { "lz4:8", "lz4hc:3", "lz4hc", "none" };
	struct pack_setting set;
	struct result res, base;
	size_t i;

	mkswap_file();
	slot_limit = SWAP_PAGES - 1000;
	set.kind = PACK_LZ4, set.level = 1;
	base = write_image(&set, 2, O_RDWR);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		tap_ok(pack_setting_parse(names[i], &set) == 0, "threads: '%s' parses", names[i]);
		mkswap_file();
		res = write_image(&set, 2, O_RDWR);
		tap_ok(res.r == 0 && round_trip() == 0,
		       "threads: compress=%s round trips (%llu stored bytes, lz4: %llu)",
		       names[i], (unsigned long long)res.stored, (unsigned long long)base.stored);
		if (set.kind == PACK_NONE)
			tap_ok(res.stored == stream_len, "threads: none stores every byte as it is");
		if (set.kind == PACK_LZ4HC && set.level == 9)
			tap_ok(res.stored < base.stored, "threads: lz4hc is smaller than lz4");
	}
}

static void test_parse(void)
{
	static const char *const bad[] = { "", "lz4:", "lz4:0", "lz4:65538", "lz4hc:13",
					   "lz4hc:x", "none:1", "zstd", "LZ4", "lz4:1x", "lz4:-1",
					   "lz4: 3" };
	struct pack_setting set = { PACK_NONE, 77 };
	unsigned t = 99;
	char name[32];
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok &= pack_setting_parse(bad[i], &set) == -EINVAL;
	tap_ok(ok && set.kind == PACK_NONE && set.level == 77,
	       "threads: bad compress values refused, nothing written");
	tap_ok(pack_setting_parse("lz4:65537", &set) == 0 && set.level == 65537 &&
	       pack_setting_parse("lz4hc:12", &set) == 0 && set.kind == PACK_LZ4HC &&
	       set.level == 12, "threads: the largest levels parse");
	pack_setting_parse("lz4", &set);
	pack_setting_name(&set, name, sizeof(name));
	tap_ok(!strcmp(name, "lz4:1"), "threads: lz4 is lz4:1 (%s)", name);
	tap_ok(config_parse_threads("auto", &t) == 0 && t == 0 &&
	       config_parse_threads("16", &t) == 0 && t == 16 &&
	       config_parse_threads("17", &t) < 0 && config_parse_threads("0", &t) < 0 &&
	       config_parse_threads("", &t) < 0 && t == 16,
	       "threads: threads takes auto or 1..16");
	tap_ok(pack_pool_init(&(struct pack_pool){ 0 }, &set, 17, 1 << 18, PS, 0) == -EINVAL,
	       "threads: more than 16 workers refused");
}

/*
 * flusher_write_pages(): pages gathered from scattered places (every other page
 * of a buffer, a run of adjacent ones in between) into runs of offsets longer
 * than one pwritev() takes, with gaps; what lands must be each page at its offset.
 */
static void test_write_pages(void)
{
	enum { N = 300 };
	static const uint8_t *src[N];
	static uint64_t off[N];
	uint8_t *mem = malloc((size_t)2 * N * PS), *back = malloc((size_t)2 * N * PS);
	uint64_t at = 0;
	char path[300];
	size_t i;
	int fd, r, ok = 1;

	for (i = 0; i < 2 * N; i++)
		memset(mem + i * PS, (int)(i % 251) + 1, PS);
	for (i = 0; i < N; i++) {
		/* pages 100..139 adjacent in memory (one iovec), the rest every other page */
		src[i] = mem + (i >= 100 && i < 140 ? 2 * 100 + (i - 100) : 2 * i) * PS;
		/* runs of 97 pages, then a gap of 3 */
		off[i] = at;
		at += PS;
		if (i % 97 == 96)
			at += 3 * PS;
	}
	snprintf(path, sizeof(path), "%s/pages", dir);
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	r = flusher_write_pages(fd, src, off, N, PS);
	if (r == 0 && pread(fd, back, (size_t)at, 0) != (ssize_t)at)
		r = -EIO;
	for (i = 0; r == 0 && i < N; i++)
		ok &= !memcmp(back + off[i], src[i], PS);
	tap_ok(r == 0 && ok, "threads: flusher_write_pages puts %d gathered pages at their offsets "
	       "(%d)", N, r);
	r = flusher_write_pages(-1, src, off, N, PS);
	tap_ok(r == -EBADF, "threads: flusher_write_pages returns the write error (%d)", r);
	close(fd);
	unlink(path);
	free(mem);
	free(back);
}

static void test_failures(void)
{
	struct pack_setting lz4 = { PACK_LZ4, 1 };
	uint8_t page[PS];
	struct result res;
	int fd;

	struct result full;

	mkswap_file();
	slot_limit = SWAP_PAGES - 1000;
	full = write_image(&lz4, 4, O_RDWR);
	mkswap_file();
	slot_limit = 200;
	res = write_image(&lz4, 4, O_RDWR);
	tap_ok(res.r == -ENOSPC && nr_tasks() == 1,
	       "threads: a full swap area is -ENOSPC, no thread left (%d)", res.r);
	/* the batch that found no slots counts too: it was read, so it is in the scale */
	tap_ok(full.r == 0 && res.estimate >= full.data_pages * PS / 2 &&
	       res.estimate <= full.data_pages * PS * 2,
	       "threads: after -ENOSPC the estimate is %llu KiB for an image of %llu KiB",
	       (unsigned long long)(res.estimate >> 10),
	       (unsigned long long)(full.data_pages * PS >> 10));
	slot_limit = SWAP_PAGES - 1000;
	/* a device that takes no write: the flusher thread's error comes back */
	res = write_image(&lz4, 4, O_RDONLY);
	tap_ok(res.r == -EBADF && nr_tasks() == 1,
	       "threads: a write error on the flusher thread comes back (%d)", res.r);
	stop_at = 7;
	res = write_image(&lz4, 4, O_RDWR);
	stop_at = 0;
	tap_ok(res.r == -ECANCELED && polls == 7 && nr_tasks() == 1,
	       "threads: a stop request ends the write at once, no thread left (%d)", res.r);
	fd = open(swap_path, O_RDONLY);
	(void)blkio_pread(fd, page, PS, 0);
	close(fd);
	tap_ok(!memcmp(page + PS - 10, SWAP_SIG, 10) && round_trip() == -ENOENT,
	       "threads: after the failures the area is plain swap");
}

int main(void)
{
	int fd;

	if (!mkdtemp(dir))
		return 1;
	snprintf(swap_path, sizeof(swap_path), "%s/swap", dir);
	snprintf(stream_path, sizeof(stream_path), "%s/stream", dir);
	make_stream();
	fd = open(stream_path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	(void)blkio_pwrite(fd, stream, stream_len, 0);
	close(fd);

	test_parse();
	test_identical();
	test_syncer();
	test_settings();
	test_failures();
	test_write_pages();
	snprintf((char *)sink.copy, stream_len, "rm -rf %s", dir);
	(void)!system((char *)sink.copy);
	return tap_done();
}
