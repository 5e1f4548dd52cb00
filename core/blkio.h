/* SPDX-License-Identifier: GPL-2.0-only */
/* blkio.h - whole-buffer positional I/O and page-aligned buffers */
#ifndef CORE_BLKIO_H
#define CORE_BLKIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

int blkio_pread(int fd, void *buf, size_t len, uint64_t off);
int blkio_pwrite(int fd, const void *buf, size_t len, uint64_t off);
void *blkio_alloc(size_t len);
void blkio_free(void *buf, size_t len);

#endif
