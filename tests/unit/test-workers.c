// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-workers.c - the read-ahead worker processes, alone and under the loader
 *
 * readahead.c with pieces that can be recognised: in order whatever the number
 * of workers, and each way a worker goes wrong (a length past its slot, an
 * -errno, a death, a forged "slot free" token, a failed fork) is the right
 * error at the right piece, no process left.  Then hand-made images (block
 * sizes the writer rarely makes) through loader_feed(), whole and damaged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hash.h"
#include "image.h"
#include "loader.h"
#include "readahead.h"
#include "procdir.h"
#include "tap.h"

#define PS 4096
#define SLOT (2 * PS)		/* the readahead tests' slot */
#define PIECES 40		/* the readahead tests' pieces, then "no more" */

/* what the fill function does wrong, and at which piece (each worker has its copy) */
static enum fault { FAULT_NONE, FAULT_LONG, FAULT_EIO, FAULT_DIE } fault;
static uint64_t fault_at;

/* readahead.c's token, as a peer that breaks the protocol would forge it */
struct token {
	uint64_t seq;
	int64_t result;
	uint64_t aux[READAHEAD_AUX];
};

_Static_assert(sizeof(struct token) == 64, "token size");

/* by worker count; the loader tests' 0 is the synchronous path (fork fails) */
static const char *const mode_name[] = { "synchronous", "1 worker", "2 workers", "3 workers",
					 "4 workers" };

/* Piece 0 fills its slot exactly, the others each a length of its own. */
static size_t piece_len(uint64_t seq)
{
	return SLOT - (size_t)(seq * 211 % (SLOT - 8));
}

static uint8_t pattern(uint64_t seq, size_t k)
{
	return (uint8_t)(seq * 31 + k * 7);
}

/* In a worker: piece @seq is its number, then its pattern (no stdio here: _exit follows) */
static ssize_t fill(void *ctx, uint64_t seq, uint8_t *buf, size_t cap,
		    uint64_t aux[READAHEAD_AUX])
{
	size_t len = piece_len(seq), k;
	int i;

	if (seq >= PIECES)
		return 0;
	if (fault == FAULT_DIE && seq == fault_at)
		_exit(3);
	if (fault == FAULT_EIO && seq == fault_at) {
		for (i = 0; i < READAHEAD_AUX; i++)
			aux[i] = 1000 * seq + (uint64_t)i + 1;
		return -EIO;
	}
	memcpy(buf, &seq, sizeof(seq));
	for (k = sizeof(seq); k < len; k++)
		buf[k] = pattern(seq, k);
	return fault == FAULT_LONG && seq == fault_at ? (ssize_t)cap + 1 : (ssize_t)len;
}

/* Take pieces until @end, each checked; 0, or -1 at the first one wrong. */
static int take_good(struct readahead *ra, uint64_t end)
{
	const uint8_t *buf;
	uint64_t seq;
	size_t len, k;

	while (ra->seq < end) {
		seq = ra->seq;
		if (readahead_next(ra, &buf, &len) < 0 || len != piece_len(seq) ||
		    memcmp(buf, &seq, sizeof(seq)))
			return -1;
		for (k = sizeof(seq); k < len; k++)
			if (buf[k] != pattern(seq, k))
				return -1;
	}
	return 0;
}

/* a handler of our own: SIGPIPE put back as SIG_DFL would not tell "restored" from "reset" */
static void on_pipe(int sig)
{
	(void)sig;
}

/* No child of ours is left, and SIGPIPE has our handler again. */
static int clean_after(void)
{
	struct sigaction sa;
	int status;

	return waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD &&
	       sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == on_pipe;
}

static int start(struct readahead *ra, uint32_t n, enum fault what, uint64_t at)
{
	fault = what;
	fault_at = at;
	memset(ra, 0, sizeof(*ra));
	return readahead_start(ra, n, 2, SLOT, -1, fill, NULL);
}

/* fork() but the @fail_fork-th call fails (1: every worker; the synchronous path) */
static int forks, fail_fork;

static pid_t test_fork(void)
{
	if (++forks == fail_fork) {
		errno = EAGAIN;
		return -1;
	}
	return fork();
}

static void test_readahead(void)
{
	struct token bogus = { 99, 0, { 0 } };
	struct readahead ra;
	const uint8_t *buf;
	size_t len;
	uint32_t n;
	int ok, r;

	for (n = 1; n <= 4; n++) {
		len = 1;
		ok = start(&ra, n, FAULT_NONE, 0) == 0 && take_good(&ra, PIECES) == 0 &&
		     readahead_next(&ra, &buf, &len) == 0 && len == 0;
		readahead_stop(&ra);
		tap_ok(ok, "readahead, %s: %d pieces in order, each its length and content, then "
		       "length 0", mode_name[n], PIECES);
		tap_ok(clean_after(), "readahead, %s: stopped, no child is left and SIGPIPE is as "
		       "it was", mode_name[n]);
	}

	/* the length is the worker's word: past the slot, it is a worker not to trust */
	ok = start(&ra, 2, FAULT_LONG, 5) == 0 && take_good(&ra, 5) == 0 &&
	     readahead_next(&ra, &buf, &len) == -ECHILD && ra.seq == 5;
	readahead_stop(&ra);
	tap_ok(ok && clean_after(), "readahead: a piece longer than its slot is -ECHILD, the "
	       "pieces before it good");

	ok = start(&ra, 3, FAULT_EIO, 5) == 0 && take_good(&ra, 5) == 0 &&
	     readahead_next(&ra, &buf, &len) == -EIO;
	for (n = 0; n < READAHEAD_AUX; n++)
		ok = ok && ra.aux[n] == 5000 + n + 1;
	readahead_stop(&ra);
	tap_ok(ok && clean_after(), "readahead: the fill's -EIO at piece 5 comes back there, with "
	       "its numbers in aux");

	/* piece 6 is worker 2's: its piece 2 was handed over before it died */
	ok = start(&ra, 4, FAULT_DIE, 6) == 0 && take_good(&ra, 6) == 0 &&
	     readahead_next(&ra, &buf, &len) == -ECHILD && ra.seq == 6;
	readahead_stop(&ra);
	tap_ok(ok && WIFEXITED(ra.status[2]) && WEXITSTATUS(ra.status[2]) == 3 && clean_after(),
	       "readahead: a worker dying at piece 6 is -ECHILD there, not before");

	/*
	 * 3 workers, 6 slots: worker 2 fills pieces 2 and 5, then waits for slot
	 * 2 back (piece 8).  A token for another piece, written while piece 2 is
	 * held and so before the consumer's own, must make it leave rather than
	 * fill the slot the consumer holds.
	 */
	ok = start(&ra, 3, FAULT_NONE, 0) == 0 && take_good(&ra, 3) == 0 &&
	     write(ra.free_fd[2], &bogus, sizeof(bogus)) == (ssize_t)sizeof(bogus) &&
	     take_good(&ra, 8) == 0 && readahead_next(&ra, &buf, &len) == -ECHILD && ra.seq == 8;
	readahead_stop(&ra);
	tap_ok(ok && WIFEXITED(ra.status[2]) && WEXITSTATUS(ra.status[2]) == 1 && clean_after(),
	       "readahead: a forged 'slot free' token makes its worker leave; -ECHILD at that "
	       "worker's next piece (8), pieces 3 to 7 good");

	memset(&ra, 0, sizeof(ra));
	ra.do_fork = test_fork;
	forks = 0;
	fail_fork = 2;
	r = readahead_start(&ra, 3, 2, SLOT, -1, fill, NULL);
	tap_ok(r == -EAGAIN && forks == 2 && clean_after(), "readahead: the second fork failing "
	       "gives -EAGAIN, the first worker reaped, SIGPIPE as it was (%d)", r);
}

static char dir[] = "/tmp/torpor-workers-XXXXXX";
static char img_path[256];
static uint8_t *stream, *sink;		/* the stream the image holds, and what was fed */
static size_t stream_len, sink_len, block_bytes;
static uint64_t dev_bytes, *block_off;	/* the image file's size, each block's offset */

/* A literal-only LZ4 block (@len >= 15): stored longer than raw, so one more page on disk. */
static size_t lz4_literals(uint8_t *dst, const uint8_t *src, size_t len)
{
	size_t n = len - 15, o = 0;

	dst[o++] = 0xf0;
	for (; n >= 255; n -= 255)
		dst[o++] = 255;
	dst[o++] = (uint8_t)n;
	memcpy(dst + o, src, len);
	return o + len;
}

/*
 * The review's builder (tests/review6/hostile.c), keeping the stream: @nr_full
 * blocks of @block_pages pages and a last one of @last_pages (0: none), RAW or
 * literal-only LZ4, after the header page and the map.  0, or -1.
 */
static int build(uint32_t block_pages, uint32_t nr_full, uint32_t last_pages, int lz4)
{
	uint32_t nr = nr_full + (last_pages ? 1 : 0), i, x = 1;
	size_t meta_len = image_meta_bytes(1, nr, 0), meta_pages = (meta_len + PS - 1) / PS, k, sl;
	uint64_t off = (1 + meta_pages) * PS;
	struct torpor_extent ext = { off, 0, 0 };	/* the data area, in one extent */
	struct torpor_image img = { .extents = &ext };
	struct torpor_root root;
	uint8_t *meta = calloc(meta_pages, PS), page0[PS] = { 0 }, *st;
	int fd = open(img_path, O_CREAT | O_TRUNC | O_RDWR, 0600), r = 0;

	block_bytes = (size_t)block_pages * PS;
	stream_len = ((size_t)nr_full * block_pages + last_pages) * PS;
	stream = realloc(stream, stream_len);
	sink = realloc(sink, stream_len);
	block_off = realloc(block_off, nr * sizeof(*block_off));
	img.blocks = calloc(nr, sizeof(*img.blocks));
	st = malloc(block_bytes * 2);
	if (!meta || !stream || !sink || !block_off || !img.blocks || !st || fd < 0) {
		r = -1;
		goto out;
	}
	for (k = 0; k < stream_len; k++)
		stream[k] = (uint8_t)((x = x * 1103515245 + 12345) >> 16);
	img.meta = (struct torpor_meta){ .version = TORPOR_FORMAT_VERSION,
		.meta_size = sizeof(img.meta), .page_size = PS, .algorithm = TORPOR_ALG_LZ4,
		.block_pages = block_pages, .stream_bytes = stream_len, .nr_blocks = nr,
		.nr_extents = 1, .release = "x" };
	memcpy(img.meta.magic, TORPOR_META_MAGIC, 8);
	for (i = 0; i < nr; i++) {
		k = i < nr_full ? block_bytes : (size_t)last_pages * PS;
		sl = lz4 ? lz4_literals(st, stream + i * block_bytes, k) : k;
		if (!lz4)
			memcpy(st, stream + i * block_bytes, k);
		img.blocks[i].stored_len = (uint32_t)sl;
		img.blocks[i].flags = lz4 ? 0 : TORPOR_BLOCK_RAW;
		img.blocks[i].hash = hash64(st, sl);
		block_off[i] = off;
		if (pwrite(fd, st, sl, (off_t)off) != (ssize_t)sl)
			r = -1;
		off += (sl + PS - 1) / PS * PS;
		img.meta.stored_bytes += sl;
		img.meta.data_pages += (sl + PS - 1) / PS;
	}
	ext.pages = (uint32_t)img.meta.data_pages;
	if (image_meta_encode(&img, meta, meta_len) < 0 ||
	    pwrite(fd, meta, meta_len, PS) != (ssize_t)meta_len)
		r = -1;
	root = (struct torpor_root){ .version = TORPOR_FORMAT_VERSION, .page_size = PS,
		.meta_bytes = meta_len, .meta_hash = hash64(meta, meta_len), .nr_meta_extents = 1,
		.meta_extents = { { PS, (uint32_t)meta_pages, 0 } } };
	memcpy(root.magic, TORPOR_ROOT_MAGIC, 8);
	memcpy(root.orig_sig, SWAP_SIG, 10);
	image_root_encode(&root, page0, PS);
	dev_bytes = off + PS;
	if (pwrite(fd, page0, PS, 0) != PS || ftruncate(fd, (off_t)dev_bytes) < 0)
		r = -1;
out:
	if (fd >= 0)
		close(fd);
	free(st);
	free(img.blocks);
	free(meta);
	return r;
}

/*
 * When the feed reaches byte kids_at (asked with want_kids): our children, and the
 * fewest and most fds one holds
 */
static int want_kids, kids, kid_fds_min, kid_fds_max;
static size_t kids_at;

/* every child of ours, not only the first worker (reader_pid) */
static void count_children(void)
{
	char path[64], line[512], *p;
	DIR *d = opendir("/proc");
	struct dirent *e;
	int pid, ppid, n;
	FILE *f;

	kids = 0;
	kid_fds_min = 1 << 30;
	kid_fds_max = -1;
	while (d && (e = readdir(d))) {
		pid = atoi(e->d_name);
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		if (pid <= 0 || !(f = fopen(path, "r")))
			continue;
		/* the name in parentheses may hold anything: the parent comes after the last ')' */
		p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		fclose(f);
		if (!p || sscanf(p + 2, "%*c %d", &ppid) != 1 || ppid != getpid())
			continue;
		n = count_fds(pid);
		kids++;
		kid_fds_min = n < kid_fds_min ? n : kid_fds_min;
		kid_fds_max = n > kid_fds_max ? n : kid_fds_max;
	}
	if (d)
		closedir(d);
}

/* /dev/snapshot's writev: a page an iovec, and nothing past the stream's end (the drain's 0) */
static ssize_t sink_writev(int fd, const struct iovec *iov, int cnt)
{
	ssize_t done = 0;
	int i;

	(void)fd;
	if (want_kids && kids < 0 && sink_len >= kids_at)
		count_children();
	for (i = 0; i < cnt && sink_len < stream_len; i++) {
		memcpy(sink + sink_len, iov[i].iov_base, iov[i].iov_len);
		sink_len += iov[i].iov_len;
		done += (ssize_t)iov[i].iov_len;
	}
	return done;
}

/* what the last feed() left: the check that failed, its block, the workers, clean_after() */
static const char *fed_failed;
static uint32_t fed_block, fed_workers;
static int fed_clean;

/* Read the image's root and map, feed it to the sink; fork() fails at call @fail_at (0: never). */
static int feed(uint32_t max_workers, int fail_at)
{
	int fd = open(img_path, O_RDONLY), r;
	struct loader l;

	sink_len = 0;
	r = loader_init(&l, fd, dev_bytes, 0, PS);
	if (r == 0)
		r = loader_read_root(&l);
	if (r == 0)
		r = loader_read_meta(&l);
	if (r == 0) {
		l.write_pages = sink_writev;
		l.max_workers = max_workers;
		l.fork_reader = test_fork;
		forks = 0;
		fail_fork = fail_at;
		r = loader_feed(&l, -1);
	}
	fed_failed = l.failed && r ? l.failed : "-";
	fed_block = l.failed_block;
	fed_workers = l.workers;
	fed_clean = clean_after();
	loader_release(&l);
	if (fd >= 0)
		close(fd);
	return r;
}

/* Synchronously, then with 1, 2 and 3 workers: the whole stream, byte for byte. */
static void feed_modes(const char *image, int built)
{
	uint32_t n;
	int r;

	for (n = 0; n <= 3; n++) {
		r = feed(n, !n);
		tap_ok(built == 0 && r == 0 && fed_workers == n && fed_clean &&
		       sink_len == stream_len && !memcmp(sink, stream, stream_len),
		       "loader, %s, %s: 0, and the sink got the stream byte for byte (%d %s, "
		       "%zu of %zu bytes)", image, mode_name[n], r, fed_failed, sink_len, stream_len);
	}
}

static void flip(uint64_t off)
{
	int fd = open(img_path, O_RDWR);
	uint8_t b = 0;

	if (pread(fd, &b, 1, (off_t)off) == 1)
		b ^= 0x40;
	(void)!pwrite(fd, &b, 1, (off_t)off);
	close(fd);
}

/*
 * Block @k damaged: synchronously every block before it is fed; with workers
 * only the pieces before its piece, which holds whole blocks up to a 1 MiB
 * slot decoded (all blocks here are full and RAW, well under the stored bound).
 */
static void feed_damaged(const char *image, uint32_t k)
{
	uint32_t per = (uint32_t)((1u << 20) / block_bytes), first, n;
	size_t want;
	int r;

	flip(block_off[k] + 100);
	for (n = 0; n <= 3; n++) {
		r = feed(n, !n);
		first = n ? k - k % per : k;
		want = (size_t)first * block_bytes;
		tap_ok(r == -EBADMSG && !strcmp(fed_failed, "data block checksum") &&
		       fed_block == k && fed_clean && sink_len == want && !memcmp(sink, stream, want),
		       "loader, %s, block %u damaged, %s: '%s' at block %u, only the first %u "
		       "blocks fed (%zu of %zu bytes)", image, k, mode_name[n], fed_failed,
		       fed_block, first, sink_len, want);
	}
	flip(block_off[k] + 100);
}

static void test_loader(void)
{
	int r;

	feed_modes("A: 96-page RAW blocks, 2 full and one of 25 pages", build(96, 2, 25, 0));
	/* 2 stored pages a decoded one: pieces are cut by their stored size, not the slot */
	feed_modes("B: 3000 one-page literal-only LZ4 blocks", build(1, 3000, 0, 1));
	feed_modes("C: 40 64-page RAW blocks", build(64, 40, 0, 0));

	r = feed(3, 2);
	tap_ok(r == 0 && fed_workers == 0 && forks == 2 && fed_clean && sink_len == stream_len &&
	       !memcmp(sink, stream, stream_len), "loader, C, the second fork failing: "
	       "synchronous, the stream byte for byte (%d %s, %u workers)", r, fed_failed,
	       fed_workers);

	/*
	 * 10 pieces of 4 blocks, 2 slots a worker (worker w fills pieces w, w + 3, ...).
	 * At piece 2's first page each worker has sent a piece, so it is past closing
	 * what it inherited (counting at the first page raced with workers 1 and 2
	 * still closing, under load); and none can have finished: worker 0's piece 9
	 * and worker 1's end wait for the slots of pieces 3 and 4, worker 2's piece 8
	 * for piece 2's
	 */
	want_kids = 1;
	kids_at = stream_len / 10 * 2;
	kids = -1;
	r = feed(3, 0);
	want_kids = 0;
	tap_ok(r == 0 && kids == 3 && kid_fds_min == 3 && kid_fds_max == 3,
	       "loader, C, 3 workers: at piece 2 each holds the device and its two pipe "
	       "ends only (%d children, %d to %d fds)", kids, kid_fds_min, kid_fds_max);

	/* block 21: in piece 5 (blocks 20-23), not worker 0's first */
	feed_damaged("C", 21);
}

int main(void)
{
	/* a worker or a consumer left waiting would hang the test: die by SIGALRM instead */
	alarm(60);
	if (signal(SIGPIPE, on_pipe) == SIG_ERR || !mkdtemp(dir)) {
		tap_ok(0, "workers: a SIGPIPE handler and a temporary directory");
		return tap_done();
	}
	snprintf(img_path, sizeof(img_path), "%s/image", dir);
	test_readahead();
	test_loader();
	unlink(img_path);
	rmdir(dir);
	return tap_done();
}
