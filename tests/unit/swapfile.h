/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swapfile.h - a sparse file made a swap area with mkswap, for the image tests
 *
 * The swap area the writer and loader tests and the host benchmark write their
 * images into: truncated to its size (sparse), then mkswap with the options given.
 */
#ifndef TESTS_SWAPFILE_H
#define TESTS_SWAPFILE_H

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

#endif
