// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-lostnote.c - the note of a hibernation that was not resumed (issue 25),
 * written by the restored torpor-suspend into a swap header page in a file:
 * it reads back as written and leaves mkswap's header whole; a page that was
 * not read, or carries an image, is never written; a write that never answers
 * or fails does not hold the caller past its bound.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "image.h"
#include "lostnote.h"
#include "monoclock.h"
#include "tap.h"

#define PS 4096
#define CREATED 1700000000ULL
#define REASON "ext 1234 on /dev/vdc was mounted since hibernation (mount count 3, now 4)"

static int block_fd[2];		/* the blocking writer waits here */

static int blocking_write(int fd, const void *buf, size_t len, uint64_t off)
{
	char c;

	(void)fd;
	(void)buf;
	(void)len;
	(void)off;
	if (read(block_fd[0], &c, 1) < 0)
		return -errno;
	return -EIO;
}

static int failing_write(int fd, const void *buf, size_t len, uint64_t off)
{
	(void)fd;
	(void)buf;
	(void)len;
	(void)off;
	return -EIO;
}

static int failing_sync(int fd)
{
	(void)fd;
	return -ENOSPC;
}

/* A swap header page as mkswap leaves it, with the late check's note in it, at @fd's page 1. */
static void make_area(int fd, uint8_t *page)
{
	static struct image_late late;

	memset(page, 0, PS);
	page[1024] = 1;
	memset(page + 1024 + 12, 0xab, 16);
	memcpy(page + PS - TORPOR_SIG_LEN, SWAP_SIG, TORPOR_SIG_LEN);
	late.hdr.created = CREATED;
	late.hdr.nr_fs = 2;
	late.hdr.nr = 1;
	image_late_encode(&late, page, PS);
	if (blkio_pwrite(fd, page, PS, PS) < 0)
		abort();
}

int main(void)
{
	static struct lostnote ln;
	static struct torpor_lost n;
	static struct image_late late;
	char path[] = "/tmp/test-lostnote-XXXXXX";
	uint8_t page[PS], disk[PS];
	uint64_t t0;
	int fd, r;

	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 3 * PS) < 0)
		return 1;
	unlink(path);
	make_area(fd, page);
	tap_ok(lostnote_init(&ln, fd, PS, PS, CREATED, "6.12.117-amd64") == 0, "lostnote: init");
	r = lostnote_write(&ln, page, REASON, CREATED + 600, 3000);
	tap_ok(r == 0, "lostnote: written and synced (%d)", r);
	tap_ok(blkio_pread(fd, disk, PS, PS) == 0 && image_lost_decode(disk, PS, &n) == 0 &&
	       n.created == CREATED && n.noted == CREATED + 600 &&
	       n.cause == TORPOR_LOST_LATE_CHECK && !strcmp(n.release, "6.12.117-amd64") &&
	       !strcmp(n.reason, REASON), "lostnote: the page on disk holds the note");
	tap_ok(!memcmp(disk, page, TORPOR_ROOT_OFFSET) &&
	       image_classify(disk, PS) == IMAGE_SIG_SWAP &&
	       image_late_decode(disk, PS, &late) == -ENOENT && image_root_decode(disk, PS,
	       &(struct torpor_root){ 0 }) == -ENOENT,
	       "lostnote: mkswap's header and signature kept, no late note, no image");

	make_area(fd, page);
	tap_ok(lostnote_write(&ln, NULL, REASON, 0, 3000) == -ENODATA &&
	       blkio_pread(fd, disk, PS, PS) == 0 && !memcmp(disk, page, PS),
	       "lostnote: a header page not read is not written");
	memcpy(page + PS - TORPOR_SIG_LEN, TORPOR_SIG, TORPOR_SIG_LEN);
	tap_ok(lostnote_write(&ln, page, REASON, 0, 3000) == -EEXIST &&
	       blkio_pread(fd, disk, PS, PS) == 0 && image_classify(disk, PS) == IMAGE_SIG_SWAP &&
	       image_lost_decode(disk, PS, &n) == -ENOENT,
	       "lostnote: a page with our signature is not written");

	make_area(fd, page);
	ln.write_page = failing_write;
	tap_ok(lostnote_write(&ln, page, REASON, 0, 3000) == -EIO, "lostnote: a failed write told");
	ln.write_page = blkio_pwrite;
	ln.sync = failing_sync;
	tap_ok(lostnote_write(&ln, page, REASON, 0, 3000) == -ENOSPC,
	       "lostnote: a failed sync told");

	if (pipe(block_fd) < 0)
		return 1;
	ln.write_page = blocking_write;
	t0 = mono_ns();
	r = lostnote_write(&ln, page, REASON, 0, 200);
	t0 = mono_ns() - t0;
	tap_ok(r == -ETIMEDOUT && t0 >= 200000000u,
	       "lostnote: a write that never answers is left behind after its bound (%d)", r);
	/* let the thread go, and see it end */
	if (write(block_fd[1], "x", 1) != 1)
		return 1;
	pthread_join(ln.thread, NULL);
	tap_ok(__atomic_load_n(&ln.done, __ATOMIC_ACQUIRE) && ln.result == -EIO,
	       "lostnote: the thread left behind ends once its write returns");
	lostnote_free(&ln);
	lostnote_free(&ln);
	close(fd);
	return tap_done();
}
