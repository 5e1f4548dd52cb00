/* SPDX-License-Identifier: GPL-2.0-only */
/* pageiov.h - an iovec of whole pages over a buffer, for readv() and writev() of /dev/snapshot */
#ifndef CORE_PAGEIOV_H
#define CORE_PAGEIOV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/*
 * Fill @iov (at most @max entries) with the pages of @buf from byte @off on,
 * @ps bytes each, up to @len (a multiple of @ps).  Return: how many were set.
 */
static inline int pageiov_fill(struct iovec *iov, int max, const uint8_t *buf, size_t off,
			       size_t len, size_t ps)
{
	int cnt;

	for (cnt = 0; cnt < max && off + (size_t)cnt * ps < len; cnt++) {
		iov[cnt].iov_base = (void *)(buf + off + (size_t)cnt * ps);
		iov[cnt].iov_len = ps;
	}
	return cnt;
}

#endif
