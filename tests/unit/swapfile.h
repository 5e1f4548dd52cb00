/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swapfile.h - the swap area the image tests write into, and its slot allocator
 *
 * The writer and loader tests and the host benchmark write their images into a
 * sparse file made a swap area with mkswap, and hand the writer a fake of the
 * slot allocator (the kernel's, through /dev/snapshot) in its place.
 */
#ifndef TESTS_SWAPFILE_H
#define TESTS_SWAPFILE_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* @path made a swap area of @bytes with "mkswap @opts"; system()'s status, or -1 */
static inline int swapfile_make(const char *path, uint64_t bytes, const char *opts)
{
	char cmd[600];
	int fd;

	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)bytes) < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "mkswap %s%s >/dev/null 2>&1", opts, path);
	return system(cmd);
}

/*
 * The writer's alloc_slot hook, faked: slot_limit slots, handed out in turn, each
 * at the byte offset slot_offset() gives for its number (0, 1, ...); then -ENOSPC.
 * The includer defines slot_offset(), the order its test wants; it sets slot_limit
 * and clears slot_next before each image.
 */
static uint64_t slot_next, slot_limit;
static uint64_t slot_offset(uint64_t k);

static inline int fake_alloc(int fd, uint64_t *ret)
{
	(void)fd;
	if (slot_next >= slot_limit)
		return -ENOSPC;
	*ret = slot_offset(slot_next++);
	return 0;
}

#endif
