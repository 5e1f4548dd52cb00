// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-pipeline.c - writer and loader end to end, without a kernel
 *
 * A mkswap'd file plays the swap area, a file of pseudo-random pages plays
 * /dev/snapshot's read side, a fake allocator hands out swap slots (in order,
 * or scattered), and a sink collects what the loader would write to the
 * kernel.  Then the same image is damaged in every part and must be refused.
 * The loader's checks run four times: with its worker processes (as many as
 * it picks, one, three), and with fork() failing, which is the synchronous
 * fallback.  Then a larger image (more than the workers' ring holds) is cut
 * short, and a worker killed, mid-load: each must fail by name with no
 * process left behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blkio.h"
#include "loader.h"
#include "procdir.h"
#include "snapsink.h"
#include "swapfile.h"
#include "tap.h"
#include "writer.h"

#define PS 4096
#define SWAP_PAGES 16384		/* 64 MiB swap file (sparse) */

static char dir[] = "/tmp/torpor-test-XXXXXX";
static char swap_path[256], stream_path[256];
static uint8_t *stream;
static size_t stream_len;

/* fake_alloc()'s slots: in order, or scattered */
static int slot_scatter;

static uint64_t slot_offset(uint64_t k)
{
	/* scattered: pairs of slots swapped, so no run is longer than one page */
	if (slot_scatter)
		k = k ^ 1;
	return (k + 1) * PS;	/* slot 0 is the header page */
}

/* the loader feeding now, what its reader had open, and whether to kill that reader */
static struct loader *cur;
static int reader_fds = -1, kill_reader;

/* before the sink takes the first page: the reader has filled a slot and is not reaped yet */
static void check_reader(void)
{
	if (cur && cur->reader_pid > 0) {
		reader_fds = count_fds(cur->reader_pid);
		if (kill_reader)
			kill(cur->reader_pid, SIGKILL);
	}
}

static void make_stream(size_t pages)
{
	uint32_t x = 12345;
	size_t i;

	free(stream);
	free(sink.copy);
	stream_len = pages * PS;
	stream = malloc(stream_len);
	sink.copy = malloc(stream_len);
	sink.len = stream_len;
	for (i = 0; i < stream_len / 4; i++) {
		/* a quarter zero pages, the rest half compressible */
		size_t page = i * 4 / PS;

		x = x * 1103515245 + 12345;
		((uint32_t *)stream)[i] = page % 4 == 0 ? 0 : (i % 2 ? x : (uint32_t)page);
	}
}

static int mkswap_file(void)
{
	return swapfile_make(swap_path, (uint64_t)SWAP_PAGES * PS,
			     "-U 11111111-2222-3333-4444-555555555555 -L tswap ");
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

/* what the progress callbacks saw: calls, first and last done, went backwards, total */
static struct {
	unsigned calls;
	uint64_t first, last, total;
	int backwards;
} prog;

static void record_progress(uint64_t done, uint64_t total)
{
	if (!prog.calls)
		prog.first = done;
	else if (done < prog.last)
		prog.backwards = 1;
	prog.calls++;
	prog.last = done;
	prog.total = total;
}

/* the machine's memory the writer sizes its blocks for (0: twice the stream) */
static uint64_t mem_bytes;

/* Hibernate side: write the stream into the swap file; returns the writer's result. */
static int write_image(int scatter, uint64_t limit, struct writer *w)
{
	char orig[10];
	int dev, snap, r;

	dev = open(swap_path, O_RDWR);
	snap = open(stream_path, O_RDONLY);
	r = writer_init(w, dev, 0, PS, mem_bytes ? mem_bytes : stream_len * 2);
	if (r == 0)
		r = writer_check_header(w, orig, 1);
	w->alloc_slot = fake_alloc;
	w->poll = test_poll;
	w->progress = record_progress;
	memset(&prog, 0, sizeof(prog));
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

/* the last read_image()'s failed block */
static uint32_t fed_block;

/*
 * The loader's mode: 1 when fork() fails, that is the synchronous fallback;
 * expect_sync: the loader must choose that path itself.
 */
static int sync_mode, expect_sync;
static uint32_t workers_mode;		/* the loader's max_workers (0: one per CPU) */
static const char *mode = "";

static pid_t failing_fork(void)
{
	errno = EAGAIN;
	return -1;
}

/* run between loader_read_meta() and loader_feed() when set */
static void (*before_feed)(struct loader *l);

/*
 * What every feed must leave: no child of ours (the reader reaped, or none),
 * SIGPIPE as it was, and the path the mode asks for.  Returns NULL or what is wrong.
 */
static const char *after_feed(const struct loader *l)
{
	struct sigaction sa;
	int status;

	if (waitpid(-1, &status, WNOHANG) != -1 || errno != ECHILD)
		return "test: a child process is left after loader_feed";
	if (sigaction(SIGPIPE, NULL, &sa) < 0 || sa.sa_handler != SIG_DFL)
		return "test: SIGPIPE not restored after loader_feed";
	if (l->reader_pid)
		return "test: reader_pid not cleared";
	if (sync_mode || expect_sync ? l->workers != 0 : l->workers == 0)
		return "test: loader_feed did not take the path the test asks for";
	if (!sync_mode && !expect_sync && workers_mode && l->workers != workers_mode)
		return "test: loader_feed did not start the workers the test asks for";
	if (!sync_mode && !expect_sync && l->readahead_slots != 2 * l->workers)
		return "test: not two slots a worker";
	return NULL;
}

/* Resume side up to the kernel: returns 0 when the sink got the exact stream. */
static int read_image(const char **failed, int invalidate)
{
	static struct loader l;
	const char *wrong;
	int dev, r;

	sink.off = 0;
	reader_fds = -1;
	dev = open(swap_path, O_RDWR);
	r = loader_init(&l, dev, (uint64_t)SWAP_PAGES * PS, 0, PS);
	if (r == 0)
		r = loader_read_root(&l);
	if (r == 0)
		r = loader_read_meta(&l);
	if (r == 0 && invalidate)
		r = loader_invalidate(&l);
	l.write_pages = sink_writev;
	l.progress = record_progress;
	memset(&prog, 0, sizeof(prog));
	if (sync_mode)
		l.fork_reader = failing_fork;
	l.max_workers = workers_mode;
	if (r == 0 && before_feed)
		before_feed(&l);
	cur = &l;
	if (r == 0) {
		r = loader_feed(&l, -1);
		wrong = after_feed(&l);
		if (wrong) {
			l.failed = wrong;
			r = -EXDEV;
		}
	}
	cur = NULL;
	if (r == 0 && (sink.off != stream_len || memcmp(sink.copy, stream, stream_len)))
		r = -EIO;
	*failed = l.failed ? l.failed : "";
	fed_block = l.failed_block;
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

#define T(cond, fmt, ...) tap_ok(cond, "pipeline%s: " fmt, mode, ##__VA_ARGS__)

/* The stream file the writer reads: @pages pages of make_stream(). */
static void write_stream(size_t pages)
{
	int fd;

	make_stream(pages);
	fd = open(stream_path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	(void)blkio_pwrite(fd, stream, stream_len, 0);
	close(fd);
}

/* Write and load round trips: progress, the header page before and after. */
static void suite_roundtrip(void)
{
	struct writer w;
	const char *failed;
	uint8_t page[PS], fresh[PS];
	int r;

	write_stream(64 * 5 + 17);	/* five full blocks and a short one */

	T(mkswap_file() == 0, "mkswap made a swap file");
	read_page0(fresh);
	r = write_image(0, SWAP_PAGES - 1, &w);
	T(r == 0, "writer saves and commits (%d)", r);
	T(prog.calls >= 2 && prog.first == 0 && prog.last == stream_len && prog.total == stream_len &&
	  !prog.backwards, "writer's progress: from 0 to the whole stream, never back (%u calls, "
	  "%llu to %llu of %llu)", prog.calls, (unsigned long long)prog.first,
	  (unsigned long long)prog.last, (unsigned long long)prog.total);
	read_page0(page);
	T(!memcmp(page + PS - 10, "S2SUSPEND", 10), "committed image says S2SUSPEND");
	T(!memcmp(page, fresh, 2048), "swap UUID and label untouched by the commit");
	r = read_image(&failed, 0);
	T(r == 0, "loader feeds back the identical stream (%d %s)", r, failed);
	T(prog.calls >= 2 && prog.last == stream_len && prog.total == stream_len && !prog.backwards,
	  "loader's progress: up to the whole stream, never back (%u calls, %llu to %llu of %llu)",
	  prog.calls, (unsigned long long)prog.first, (unsigned long long)prog.last,
	  (unsigned long long)prog.total);
	r = read_image(&failed, 1);
	T(r == 0, "loader invalidates, then feeds (%d %s)", r, failed);
	read_page0(page);
	T(!memcmp(page, fresh, PS), "invalidation restores the mkswap page exactly");
	r = read_image(&failed, 0);
	T(r == -ENOENT, "an invalidated image is not found again");

	r = write_image(1, SWAP_PAGES - 1, &w);
	T(r == 0 && read_image(&failed, 0) == 0,
	  "scattered slots (one-page extents) round trip");
}

/* Committed images discarded: after a wake-up, and when the next hibernation starts. */
static void suite_discards(void)
{
	struct writer w;
	const char *failed;
	uint8_t page[PS], fresh[PS];
	int r;

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

	/*
	 * an old image nobody consumed, and a hibernation that stops before it
	 * writes anything (the freeze fails): the old root is off the disk anyway
	 */
	mkswap_file();
	read_page0(fresh);
	r = write_image(0, SWAP_PAGES - 1, &w);
	if (r == 0) {
		char orig[10];
		int dev = open(swap_path, O_RDWR);

		/* --check reads the header and changes nothing */
		r = writer_init(&w, dev, 0, PS, stream_len * 2);
		if (r == 0)
			r = writer_check_header(&w, orig, 0);
		writer_release(&w);
		if (r == 0 && read_image(&failed, 0) != 0)
			r = -EIO;
		if (r == 0)
			r = writer_init(&w, dev, 0, PS, stream_len * 2);
		if (r == 0)
			r = writer_check_header(&w, orig, 1);
		writer_release(&w);
		close(dev);
	}
	read_page0(page);
	tap_ok(r == 0 && !memcmp(page, fresh, PS) && read_image(&failed, 0) == -ENOENT,
	       "pipeline: an old image is invalidated on disk when the next hibernation reads "
	       "the header, before it writes anything; --check leaves it (%d)", r);
}

/* A write that fails or is stopped: plain swap is left, the poll and before_root hooks. */
static void suite_stops(void)
{
	struct writer w;
	const char *failed;
	uint8_t page[PS], fresh[PS];
	int r;

	mkswap_file();
	r = write_image(0, 100, &w);
	T(r == -ENOSPC, "a full swap area gives -ENOSPC (%d)", r);
	read_page0(page);
	T(!memcmp(page + PS - 10, "SWAPSPACE2", 10) && read_image(&failed, 0) == -ENOENT,
	  "a failed write leaves plain swap behind");

	mkswap_file();
	read_page0(fresh);
	stop_block = 3;
	r = write_image(0, SWAP_PAGES - 1, &w);
	stop_block = 0;
	read_page0(page);
	T(r == -ECANCELED && polls == 3 && root_calls == 0 && !memcmp(page, fresh, PS) &&
	  read_image(&failed, 0) == -ENOENT,
	  "poll saying stop ends the write with -ECANCELED, plain swap (%d)", r);
	cancel_root = 1;
	r = write_image(0, SWAP_PAGES - 1, &w);
	cancel_root = 0;
	read_page0(page);
	T(r == -ECANCELED && root_calls == 1 && !memcmp(page, fresh, PS) &&
	  read_image(&failed, 0) == -ENOENT,
	  "before_root saying stop: no root written, plain swap (%d)", r);
	r = write_image(0, SWAP_PAGES - 1, &w);
	T(r == 0 && polls == 6 && root_calls == 1 && read_image(&failed, 0) == 0,
	  "poll once per block, before_root once, then the commit");
}

/* Each part of a good image damaged, a device too short, an unreadable header. */
static void suite_damage(void)
{
	struct writer w;
	const char *failed;
	uint8_t page[PS], fresh[PS];
	int r;

	/* damage each part of a good image: all must be refused by name */
	write_image(0, SWAP_PAGES - 1, &w);
	poke(PS + 100, 0x40);		/* first data block */
	r = read_image(&failed, 0);
	T(r < 0 && strstr(failed, "data block"), "flipped data byte refused: %s", failed);
	write_image(0, SWAP_PAGES - 1, &w);
	poke(2048 + 30, 0x01);		/* root record */
	r = read_image(&failed, 0);
	T(r < 0 && strstr(failed, "header"), "flipped header byte refused: %s", failed);
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
	T(r < 0 && strstr(failed, "map checksum"), "flipped map byte refused: %s", failed);
	write_image(0, SWAP_PAGES - 1, &w);
	{
		struct loader l;
		int dev = open(swap_path, O_RDWR);

		/* a device shorter than the image: the extents point outside it */
		loader_init(&l, dev, 40 * PS, 0, PS);
		r = loader_read_root(&l);
		if (r == 0)
			r = loader_read_meta(&l);
		T(r < 0 && strstr(l.failed, "extents"),
		  "image beyond the end of the device refused: %s", l.failed);
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
		T(r < 0 && r != -ENOENT && loader_invalidate(&l) < 0,
		  "an unreadable header page is not invalidated blindly (%d)", r);
		loader_release(&l);
		close(dev);
	}
	read_page0(page);
	T(!memcmp(page, fresh, PS),
	  "the swap header (mkswap's UUID and size) survives a failed read");
}


/* The writer and loader checks, in the loader mode sync_mode names. */
static void run_suite(void)
{
	suite_roundtrip();
	suite_discards();
	suite_stops();
	suite_damage();
}

/* the data area's first byte, and how far to cut it: half its stored bytes */
static uint64_t data_cut;

static void cut_device(struct loader *l)
{
	(void)!truncate(swap_path, (off_t)(l->img.extents[0].offset + data_cut));
}

/*
 * The large image (written again by run_large) cut short midway, its worker
 * killed, and written in 4 MiB blocks.
 */
static void large_failures(void)
{
	struct writer w;
	const char *failed;
	int r;

	before_feed = cut_device;
	r = read_image(&failed, 0);
	before_feed = NULL;
	T(r == -EIO && !strcmp(failed, "reading a data block") && fed_block > 0 && sink.off > 0 &&
	  sink.off < stream_len, "device cut short midway: '%s' at block %u after %zu KiB (%d)",
	  failed, fed_block, sink.off >> 10, r);
	mkswap_file();

	if (!sync_mode) {
		r = write_image(0, SWAP_PAGES - 1, &w);
		kill_reader = 1;
		r = r ? r : read_image(&failed, 0);
		kill_reader = 0;
		T(r == -EIO && strstr(failed, "worker process") && fed_block == 0 &&
		  sink.off < stream_len, "reader killed mid-load: a clean failure: %s (%d)", failed,
		  r);
	}

	/* 4 MiB blocks (a 1 TiB machine): two slots would be 8 MiB, so always synchronous */
	mem_bytes = 1ull << 40;
	r = write_image(0, SWAP_PAGES - 1, &w);
	mem_bytes = 0;
	expect_sync = 1;
	r = r ? r : read_image(&failed, 0);
	expect_sync = 0;
	T(r == 0, "4 MiB blocks are read synchronously, and round trip (%d %s)", r, failed);
	mkswap_file();
}

/*
 * An image larger than the workers' ring (at most 6 slots of 1 MiB): a worker
 * cannot have read it all when the first page is fed, so a worker killed then
 * must fail the load.  Cut short, the device must fail it by name, midway.
 */
static void run_large(void)
{
	struct writer w;
	const char *failed;
	struct loader l;
	uint64_t stored;
	int dev, r;

	write_stream(8192);		/* 32 MiB, 128 blocks */
	mkswap_file();
	r = write_image(0, SWAP_PAGES - 1, &w);
	dev = open(swap_path, O_RDONLY);
	loader_init(&l, dev, (uint64_t)SWAP_PAGES * PS, 0, PS);
	if (loader_read_root(&l) == 0 && loader_read_meta(&l) == 0)
		stored = l.img.meta.stored_bytes;
	else
		stored = 0;
	loader_release(&l);
	close(dev);
	T(r == 0 && stored > (8u << 20),
	  "large image written, %llu KiB stored (more than the ring)",
	  (unsigned long long)stored >> 10);
	/* a step is rounded up: the hundredth lies past the end, and 100% is still said */
	T(prog.last == stream_len && prog.total == stream_len && !prog.backwards,
	  "large image: the writer's progress reaches the whole stream (%u calls, last %llu of %llu)",
	  prog.calls, (unsigned long long)prog.last, (unsigned long long)prog.total);
	data_cut = stored / 2 / PS * PS;

	r = read_image(&failed, 0);
	T(r == 0, "large image round trip (%d %s)", r, failed);
	T(prog.last == stream_len && prog.total == stream_len && !prog.backwards,
	  "large image: the loader's progress reaches the whole stream (%u calls, last %llu of %llu)",
	  prog.calls, (unsigned long long)prog.last, (unsigned long long)prog.total);
	if (!sync_mode)
		T(reader_fds == 3, "a worker holds only the device and its two pipes (%d)",
		  reader_fds);

	/* the workers wait for a slot when the first block fails: they must be killed */
	poke(PS + 100, 0x40);
	r = read_image(&failed, 0);
	T(r == -EBADMSG && !strcmp(failed, "data block checksum") && sink.off == 0,
	  "large image, first block damaged: refused before any page, no process left: %s", failed);
	r = write_image(0, SWAP_PAGES - 1, &w);

	/* a later block (another worker's piece): named exactly, only what came before fed */
	dev = open(swap_path, O_RDONLY);
	loader_init(&l, dev, (uint64_t)SWAP_PAGES * PS, 0, PS);
	if (loader_read_root(&l) == 0 && loader_read_meta(&l) == 0 && l.img.meta.nr_blocks > 70) {
		stored = loader_block_offset(&l, 69);
		poke(stored + 10, 0x20);
	}
	loader_release(&l);
	close(dev);
	r = read_image(&failed, 0);
	/* synchronously every block before it; with workers the pieces (4 blocks) before its own */
	T(r == -EBADMSG && !strcmp(failed, "data block checksum") && fed_block == 69 &&
	  sink.off == (sync_mode ? 69ull : 68ull) * 64 * PS,
	  "large image, block 69 damaged: refused by name (%u), only what came before it fed "
	  "(%zu KiB)", fed_block, sink.off >> 10);
	r = write_image(0, SWAP_PAGES - 1, &w);
	large_failures();
}

int main(void)
{
	char cmd[300];

	/* a reader left waiting would hang the test: die by SIGALRM instead */
	alarm(60);
	if (!mkdtemp(dir))
		return 1;
	snprintf(swap_path, sizeof(swap_path), "%s/swap", dir);
	snprintf(stream_path, sizeof(stream_path), "%s/stream", dir);
	sink.first = check_reader;
	run_suite();
	run_large();
	workers_mode = 1;
	mode = " (one worker)";
	run_suite();
	run_large();
	workers_mode = 3;
	mode = " (three workers)";
	run_suite();
	run_large();
	workers_mode = 0;
	sync_mode = 1;
	mode = " (synchronous, fork fails)";
	run_suite();
	run_large();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)!system(cmd);
	return tap_done();
}
