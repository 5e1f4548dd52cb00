// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-pipeline.c - writer and loader end to end, without a kernel
 *
 * A mkswap'd file plays the swap area, a file of pseudo-random pages plays
 * /dev/snapshot's read side, a fake allocator hands out swap slots (in order,
 * or scattered), and a sink collects what the loader would write to the
 * kernel.  Then the same image is damaged in every part and must be refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "loader.h"
#include "tap.h"
#include "writer.h"

#define PS 4096
#define SWAP_PAGES 4096		/* 16 MiB swap file */

static char dir[] = "/tmp/torpor-test-XXXXXX";
static char swap_path[256], stream_path[256];
static uint8_t *stream;
static size_t stream_len;

/* fake slot allocator: slot k of a permutation, or -ENOSPC past the limit */
static uint64_t slot_next, slot_limit;
static int slot_scatter;

static int fake_alloc(int fd, uint64_t *ret)
{
	uint64_t k;

	(void)fd;
	if (slot_next >= slot_limit)
		return -ENOSPC;
	k = slot_next++;
	/* scattered: pairs of slots swapped, so no run is longer than one page */
	if (slot_scatter)
		k = k ^ 1;
	*ret = (k + 1) * PS;	/* slot 0 is the header page */
	return 0;
}

/* sink: collects the fed stream, then answers 0 like the kernel at the end */
static uint8_t *sink;
static size_t sink_len;

static ssize_t sink_write(int fd, const void *buf, size_t len)
{
	(void)fd;
	if (sink_len >= stream_len)
		return 0;
	memcpy(sink + sink_len, buf, len);
	sink_len += len;
	return (ssize_t)len;
}

static void make_stream(size_t pages)
{
	uint32_t x = 12345;
	size_t i;

	stream_len = pages * PS;
	stream = malloc(stream_len);
	sink = malloc(stream_len);
	for (i = 0; i < stream_len / 4; i++) {
		/* a quarter zero pages, the rest half compressible */
		size_t page = i * 4 / PS;

		x = x * 1103515245 + 12345;
		((uint32_t *)stream)[i] = page % 4 == 0 ? 0 : (i % 2 ? x : (uint32_t)page);
	}
}

static int mkswap_file(void)
{
	char cmd[512];
	int fd;

	fd = open(swap_path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)SWAP_PAGES * PS) < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "mkswap -U 11111111-2222-3333-4444-555555555555 -L tswap %s >/dev/null 2>&1",
		 swap_path);
	return system(cmd);
}

/* the writer's stop hooks: stop before block stop_block (0: never), cancel the commit */
static uint64_t stop_block, polls;
static int cancel_root, root_calls;
/* after the commit, discard the image as a wake-up from suspend to RAM does */
static int discard_after_commit;

static int test_poll(uint64_t done, uint64_t total)
{
	(void)done;
	(void)total;
	return ++polls == stop_block;
}

static int test_before_root(void)
{
	root_calls++;
	return cancel_root;
}

/* Hibernate side: write the stream into the swap file; returns the writer's result. */
static int write_image(int scatter, uint64_t limit, struct writer *w)
{
	char orig[10];
	int dev, snap, r;

	dev = open(swap_path, O_RDWR);
	snap = open(stream_path, O_RDONLY);
	r = writer_init(w, dev, 0, PS, stream_len * 2);
	if (r == 0)
		r = writer_check_header(w, orig);
	w->alloc_slot = fake_alloc;
	w->poll = test_poll;
	w->before_root = test_before_root;
	polls = 0;
	root_calls = 0;
	slot_next = 0;
	slot_limit = limit;
	slot_scatter = scatter;
	if (r == 0)
		r = writer_save(w, snap, stream_len);
	if (r == 0)
		r = writer_commit(w, orig);
	if (r == 0 && discard_after_commit) {
		writer_forget_image(w, orig);
		r = writer_abort(w);
	}
	if (r < 0)
		writer_abort(w);
	writer_release(w);
	close(snap);
	close(dev);
	return r;
}

/* Resume side up to the kernel: returns 0 when the sink got the exact stream. */
static int read_image(const char **failed, int invalidate)
{
	struct loader l;
	int dev, r;

	sink_len = 0;
	dev = open(swap_path, O_RDWR);
	r = loader_init(&l, dev, (uint64_t)SWAP_PAGES * PS, 0, PS);
	if (r == 0)
		r = loader_read_root(&l);
	if (r == 0)
		r = loader_read_meta(&l);
	if (r == 0 && invalidate)
		r = loader_invalidate(&l);
	l.write_page = sink_write;
	if (r == 0)
		r = loader_feed(&l, -1);
	if (r == 0 && (sink_len != stream_len || memcmp(sink, stream, stream_len)))
		r = -EIO;
	*failed = l.failed ? l.failed : "";
	loader_release(&l);
	close(dev);
	return r;
}

static void read_page0(uint8_t *page)
{
	int fd = open(swap_path, O_RDONLY);

	(void)blkio_pread(fd, page, PS, 0);
	close(fd);
}

static void poke(uint64_t off, uint8_t xor)
{
	uint8_t b;
	int fd = open(swap_path, O_RDWR);

	(void)blkio_pread(fd, &b, 1, off);
	b ^= xor;
	(void)blkio_pwrite(fd, &b, 1, off);
	close(fd);
}

int main(void)
{
	struct writer w;
	const char *failed;
	uint8_t page[PS], fresh[PS];
	int fd, r;

	if (!mkdtemp(dir))
		return 1;
	snprintf(swap_path, sizeof(swap_path), "%s/swap", dir);
	snprintf(stream_path, sizeof(stream_path), "%s/stream", dir);
	make_stream(64 * 5 + 17);	/* five full blocks and a short one */
	fd = open(stream_path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	(void)blkio_pwrite(fd, stream, stream_len, 0);
	close(fd);

	tap_ok(mkswap_file() == 0, "pipeline: mkswap made a swap file");
	read_page0(fresh);
	r = write_image(0, SWAP_PAGES - 1, &w);
	tap_ok(r == 0, "pipeline: writer saves and commits (%d)", r);
	read_page0(page);
	tap_ok(!memcmp(page + PS - 10, "S2SUSPEND", 10), "pipeline: committed image says S2SUSPEND");
	tap_ok(!memcmp(page, fresh, 2048), "pipeline: swap UUID and label untouched by the commit");
	r = read_image(&failed, 0);
	tap_ok(r == 0, "pipeline: loader feeds back the identical stream (%d %s)", r, failed);
	r = read_image(&failed, 1);
	tap_ok(r == 0, "pipeline: loader invalidates, then feeds (%d %s)", r, failed);
	read_page0(page);
	tap_ok(!memcmp(page, fresh, PS), "pipeline: invalidation restores the mkswap page exactly");
	r = read_image(&failed, 0);
	tap_ok(r == -ENOENT, "pipeline: an invalidated image is not found again");

	r = write_image(1, SWAP_PAGES - 1, &w);
	tap_ok(r == 0 && read_image(&failed, 0) == 0,
	       "pipeline: scattered slots (one-page extents) round trip");

	/* --poweroff=hybrid woke up: the committed image is discarded before the thaw */
	mkswap_file();
	read_page0(fresh);
	discard_after_commit = 1;
	r = write_image(0, SWAP_PAGES - 1, &w);
	read_page0(page);
	tap_ok(r == 0 && !memcmp(page, fresh, PS) && read_image(&failed, 0) == -ENOENT,
	       "pipeline: a committed image discarded after a wake-up leaves the mkswap page "
	       "exactly (%d)", r);
	/* over an old image nobody consumed: neither it nor the new one may come back */
	discard_after_commit = 0;
	r = write_image(0, SWAP_PAGES - 1, &w);
	discard_after_commit = 1;
	if (r == 0)
		r = write_image(1, SWAP_PAGES - 1, &w);
	discard_after_commit = 0;
	read_page0(page);
	tap_ok(r == 0 && !memcmp(page, fresh, PS) && read_image(&failed, 0) == -ENOENT,
	       "pipeline: discarded after a wake-up over an old image: plain swap, the old "
	       "root is not put back (%d)", r);

	mkswap_file();
	r = write_image(0, 100, &w);
	tap_ok(r == -ENOSPC, "pipeline: a full swap area gives -ENOSPC (%d)", r);
	read_page0(page);
	tap_ok(!memcmp(page + PS - 10, "SWAPSPACE2", 10) && read_image(&failed, 0) == -ENOENT,
	       "pipeline: a failed write leaves plain swap behind");

	mkswap_file();
	read_page0(fresh);
	stop_block = 3;
	r = write_image(0, SWAP_PAGES - 1, &w);
	stop_block = 0;
	read_page0(page);
	tap_ok(r == -ECANCELED && polls == 3 && root_calls == 0 && !memcmp(page, fresh, PS) &&
	       read_image(&failed, 0) == -ENOENT,
	       "pipeline: poll saying stop ends the write with -ECANCELED, plain swap (%d)", r);
	cancel_root = 1;
	r = write_image(0, SWAP_PAGES - 1, &w);
	cancel_root = 0;
	read_page0(page);
	tap_ok(r == -ECANCELED && root_calls == 1 && !memcmp(page, fresh, PS) &&
	       read_image(&failed, 0) == -ENOENT,
	       "pipeline: before_root saying stop: no root written, plain swap (%d)", r);
	r = write_image(0, SWAP_PAGES - 1, &w);
	tap_ok(r == 0 && polls == 6 && root_calls == 1 && read_image(&failed, 0) == 0,
	       "pipeline: poll once per block, before_root once, then the commit");

	/* damage each part of a good image: all must be refused by name */
	write_image(0, SWAP_PAGES - 1, &w);
	poke(PS + 100, 0x40);		/* first data block */
	r = read_image(&failed, 0);
	tap_ok(r < 0 && strstr(failed, "data block"), "pipeline: flipped data byte refused: %s",
	       failed);
	write_image(0, SWAP_PAGES - 1, &w);
	poke(2048 + 30, 0x01);		/* root record */
	r = read_image(&failed, 0);
	tap_ok(r < 0 && strstr(failed, "header"), "pipeline: flipped header byte refused: %s",
	       failed);
	write_image(0, SWAP_PAGES - 1, &w);
	{
		struct loader l;
		int dev = open(swap_path, O_RDWR);

		loader_init(&l, dev, (uint64_t)SWAP_PAGES * PS, 0, PS);
		loader_read_root(&l);
		poke(l.img.root.meta_extents[0].offset + 300, 0x08);
		loader_release(&l);
		close(dev);
	}
	r = read_image(&failed, 0);
	tap_ok(r < 0 && strstr(failed, "map checksum"), "pipeline: flipped map byte refused: %s",
	       failed);
	write_image(0, SWAP_PAGES - 1, &w);
	{
		struct loader l;
		int dev = open(swap_path, O_RDWR);

		/* a device shorter than the image: the extents point outside it */
		loader_init(&l, dev, 40 * PS, 0, PS);
		r = loader_read_root(&l);
		if (r == 0)
			r = loader_read_meta(&l);
		tap_ok(r < 0 && strstr(l.failed, "extents"),
		       "pipeline: image beyond the end of the device refused: %s", l.failed);
		loader_release(&l);
		close(dev);
	}
	mkswap_file();
	write_image(0, SWAP_PAGES - 1, &w);
	read_page0(fresh);
	{
		struct loader l;
		int dev = open(swap_path, O_WRONLY);	/* every read fails, writes work */

		loader_init(&l, dev, (uint64_t)SWAP_PAGES * PS, 0, PS);
		r = loader_read_root(&l);
		tap_ok(r < 0 && r != -ENOENT && loader_invalidate(&l) < 0,
		       "pipeline: an unreadable header page is not invalidated blindly (%d)", r);
		loader_release(&l);
		close(dev);
	}
	read_page0(page);
	tap_ok(!memcmp(page, fresh, PS),
	       "pipeline: the swap header (mkswap's UUID and size) survives a failed read");
	snprintf((char *)page, sizeof(page), "rm -rf %s", dir);
	(void)!system((char *)page);
	return tap_done();
}
