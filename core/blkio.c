// SPDX-License-Identifier: GPL-2.0-only
/*
 * blkio.c - positional reads and writes that move the whole buffer or fail
 *
 * Buffers come from mmap(): page aligned (O_DIRECT needs that) on both libcs
 * (klibc has no posix_memalign).
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "blkio.h"

/**
 * blkio_pread() - read exactly @len bytes at @off
 * Return: 0, -EIO when the device ends first (short read), or -errno.
 */
int blkio_pread(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = pread(fd, p, len, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Write exactly @len bytes at @off; 0, -EIO on a zero-length write, or -errno. */
int blkio_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = pwrite(fd, p, len, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* A zeroed, page-aligned buffer of @len bytes, or NULL. */
void *blkio_alloc(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void blkio_free(void *buf, size_t len)
{
	if (buf)
		munmap(buf, len);
}
