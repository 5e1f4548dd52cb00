/* SPDX-License-Identifier: GPL-2.0-only */
/* hash.h - XXH3-64, the checksum of the image's blocks and meta blob (format 2) */
#ifndef CORE_HASH_H
#define CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

/**
 * hash64() - XXH3-64 of a buffer, seed 0 (what libxxhash's XXH3_64bits() returns)
 * @buf: the bytes, at any alignment
 * @len: their number (0 is allowed)
 *
 * Return: the hash.  Does not log, allocate or keep state: both libcs build it.
 */
uint64_t hash64(const void *buf, size_t len);

#endif
