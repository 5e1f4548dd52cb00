/* SPDX-License-Identifier: GPL-2.0-only */
/* blkio.h - whole-buffer positional I/O and page-aligned buffers */
#ifndef CORE_BLKIO_H
#define CORE_BLKIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

int blkio_pread(int fd, void *buf, size_t len, uint64_t off);

/**
 * blkio_pread_upto() - read @len bytes at @off, or what the device holds there
 * @fd: the device or file
 * @buf: @len bytes
 * @len: how many to read
 * @off: from where
 *
 * For a probe of a device that may be smaller than what it looks at.
 * Return: how many were read (fewer than @len only where the device ends),
 * -EINVAL when @off + @len is past what an off_t holds, or -errno.
 */
ssize_t blkio_pread_upto(int fd, void *buf, size_t len, uint64_t off);
int blkio_pwrite(int fd, const void *buf, size_t len, uint64_t off);
void *blkio_alloc(size_t len);
void blkio_free(void *buf, size_t len);

#endif
