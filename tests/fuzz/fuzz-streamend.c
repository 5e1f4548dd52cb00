// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-streamend.c - libFuzzer target for where a compressed stream ends
 * (suspend/streamend.c)
 *
 * The input's first byte names where the readable range ends (in sixteenths of
 * the rest); the rest is the file, in a memfd.  A length found must be inside
 * the range and not 0; an xz stream's is a multiple of 4 of at least two
 * 12-byte headers; a gzip member's (its trailer taken from the input's first
 * 8 bytes) at least a header and a trailer.
 */
/* fuzz-sources: suspend/streamend.c core/crc32.c */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../suspend/streamend.h"
#include "fuzz.h"
#include "le.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	uint64_t end, n;

	if (size < 1)
		return 0;
	end = (uint64_t)(size - 1) * ((data[0] & 15) + 1) / 16;
	data++;
	size--;
	if (fd < 0)
		fd = memfd_create("fuzz-streamend", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	if (streamend_framed(fd, 0, end, "zstd", &n) == 0)
		check(n > 0 && n <= end);
	if (streamend_framed(fd, 0, end, "xz", &n) == 0)
		check(n >= 24 && n <= end && n % 4 == 0);
	if (size >= 8 && streamend_gzip(fd, 0, end, get_le32(data), get_le32(data + 4), &n) == 0)
		check(n >= 20 && n <= end);
	return 0;
}
