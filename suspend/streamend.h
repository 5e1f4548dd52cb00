/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * streamend.h - where a compressed stream in an initramfs ends, so that what
 * follows it (zeros, a plain cpio archive, another stream) is read too, as the
 * kernel does with the count its decompressor consumed (init/initramfs.c)
 *
 * Only what the framing tells, without decompressing: zstd frames (their block
 * headers give each block's size), xz streams (the footer, found at a 4-byte
 * step from the start, checked by its CRC32 and the header's flags), and a gzip
 * member whose trailer holds the CRC32 and size of the output it decompressed
 * to.  Nothing here prints.
 */
#ifndef SUSPEND_STREAMEND_H
#define SUSPEND_STREAMEND_H

#include <stdint.h>

/**
 * streamend_framed() - the bytes of the zstd frames (one or more, skippable
 * frames too) or the xz stream at @off in @fd, which ends at @end at most
 * @format: "zstd" or "xz" (decompress.h's names)
 *
 * Return: 0 with @ret set; -ENOENT when the framing does not tell (another
 * format, a malformed or cut stream: the caller takes the rest); -errno from
 * pread(); -ENOMEM.
 */
int streamend_framed(int fd, uint64_t off, uint64_t end, const char *format, uint64_t *ret);

/**
 * streamend_gzip() - the bytes of the gzip member at @off in @fd whose trailer
 * is @crc (CRC32 of its output) and @isize (its size modulo 2^32)
 *
 * Return: 0 with @ret set; -ENOENT when no such trailer is before @end (a
 * stream of several members); -errno from pread(); -ENOMEM.
 */
int streamend_gzip(int fd, uint64_t off, uint64_t end, uint32_t crc, uint32_t isize,
		   uint64_t *ret);

#endif
