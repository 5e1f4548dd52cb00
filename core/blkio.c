// SPDX-License-Identifier: GPL-2.0-only
/*
 * blkio.c - positional reads and writes that move the whole buffer or fail
 *
 * Buffers come from mmap(): page aligned (O_DIRECT needs that) on both libcs
 * (klibc has no posix_memalign).
 */
#include <errno.h>
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>

#include "blkio.h"

/*
 * pread() into @in, or pwrite() from @out when @in is NULL, @len bytes at @off
 * until all moved or a call moves none: the count, or -errno.
 */
static ssize_t move(int fd, char *in, const char *out, size_t len, uint64_t off)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		if (in)
			n = pread(fd, in + done, len - done, (off_t)(off + done));
		else
			n = pwrite(fd, out + done, len - done, (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/**
 * blkio_pread() - read exactly @len bytes at @off
 * Return: 0, -EIO when the device ends first (short read), or -errno.
 */
int blkio_pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = move(fd, buf, NULL, len, off);

	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -EIO;
}

/* Read @len bytes at @off, fewer only where the device ends; kernel-doc in blkio.h. */
ssize_t blkio_pread_upto(int fd, void *buf, size_t len, uint64_t off)
{
	if (off > (uint64_t)LLONG_MAX - len)
		return -EINVAL;
	return move(fd, buf, NULL, len, off);
}

/* Write exactly @len bytes at @off; 0, -EIO on a zero-length write, or -errno. */
int blkio_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	ssize_t n = move(fd, NULL, buf, len, off);

	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -EIO;
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
