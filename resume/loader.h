/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loader.h - read a torpor image from the resume device and feed it to the kernel
 *
 * One module in two files: loader.c reads and checks the header and the map,
 * loadfeed.c verifies the data blocks and feeds them to /dev/snapshot.
 *
 * The loader does I/O and checks; it never prints.  When a check fails it
 * returns -errno and names the check in struct loader.failed, so the caller
 * can say exactly what was wrong with the image.
 */
#ifndef RESUME_LOADER_H
#define RESUME_LOADER_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "image.h"

#define LOADER_WORKERS_MAX 3

struct loader {
	int dev_fd;			/* resume device */
	uint32_t ps;			/* page size */
	uint64_t dev_bytes;		/* its size */
	uint64_t header_offset;		/* byte offset of the swap header page */
	uint8_t *header_page;		/* that page as read */
	int header_read;		/* header_page holds what the device has */
	uint32_t other_version;		/* the format of an image refused for its version */
	struct torpor_image img;	/* valid after loader_read_meta() */
	int have_meta;
	const struct image_late *late;	/* the late check's note loader_invalidate() leaves, or NULL */
	const char *failed;		/* which check failed, for the message */
	uint32_t failed_block;		/* the block, when a block check failed */
	uint64_t fed_bytes;		/* stream bytes handed to the kernel */
	/* where loader_feed()'s time went (ns, gettimeofday), when @profile (torpor.debug) */
	int profile;
	uint64_t t_wait_ns;		/* waiting for the workers (0 without them) */
	uint64_t t_read_ns;		/* reading (in the workers: all of theirs summed) */
	uint64_t t_hash_ns;		/* checking the blocks' hashes (the same) */
	uint64_t t_decode_ns;		/* LZ4 decoding (the same) */
	uint64_t t_feed_ns;		/* writev() to /dev/snapshot */
	void (*progress)(uint64_t done, uint64_t total);
	/* writev() to /dev/snapshot, a page per iovec; tests replace it */
	ssize_t (*write_pages)(int fd, const struct iovec *iov, int cnt);
	pid_t (*fork_reader)(void);	/* fork(); tests make it fail */
	uint32_t max_workers;		/* 0: one per CPU we may run on and one, up to LOADER_WORKERS_MAX */
	uint32_t workers;		/* worker processes of the last feed, 0: synchronous */
	uint32_t readahead_slots;	/* their ring's slots */
	size_t worker_buffer;		/* bytes each worker allocates (its read buffer) */
	pid_t reader_pid;		/* the first worker while loader_feed() runs */
};

int loader_init(struct loader *l, int dev_fd, uint64_t dev_bytes, uint64_t header_offset,
		uint32_t page_size);
int loader_read_root(struct loader *l);
int loader_read_meta(struct loader *l);
int loader_invalidate(struct loader *l);
uint64_t loader_block_offset(const struct loader *l, uint32_t block);
void loader_release(struct loader *l);
int loader_read_extents(int fd, const struct torpor_extent *ext, uint32_t n, uint32_t ps,
			uint64_t first, uint64_t pages, uint8_t *buf);

/* loadfeed.c */
int loader_feed(struct loader *l, int snap_fd);
int loader_read_head(struct loader *l, uint8_t *page);

#endif
