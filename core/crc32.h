/* SPDX-License-Identifier: GPL-2.0-only */
/* crc32.h - CRC-32 (IEEE 802.3, the zlib/gzip polynomial), slicing-by-8 */
#ifndef CORE_CRC32_H
#define CORE_CRC32_H

#include <stddef.h>
#include <stdint.h>

/**
 * crc32_update() - continue a CRC-32 over more bytes
 * @crc: the value so far (0 to start)
 * @buf: bytes to add
 * @len: their number
 *
 * Return: the new value; crc32_update(0, "123456789", 9) == 0xcbf43926, as zlib's crc32().
 */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t len);

#endif
