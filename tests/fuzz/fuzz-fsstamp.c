// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-fsstamp.c - libFuzzer target over the filesystem stamps torpor-resume reads
 *
 * The input: 8 bytes of xfs log head, then up to 4 KiB for the start of the
 * device (the xfs and ext superblocks), then the rest for the btrfs superblock at
 * 64 KiB; the "device" is a 1 MiB memfd.  Reading must never crash or read out of
 * bounds, and an xfs stamp that knows its log head must name the one asked for.
 */
/* fuzz-sources: core/fsstamp.c core/blkio.c core/crc32.c */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fsstamp.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static uint8_t zero[FSSTAMP_READ_BYTES];
	struct torpor_fsrec f;
	uint64_t head = 0;
	size_t n;
	char text[32];

	if (size < 8)
		return 0;
	if (fd < 0) {
		fd = memfd_create("fuzz-fsstamp", 0);
		if (fd < 0 || ftruncate(fd, 1 << 20) < 0)
			abort();
	}
	memcpy(&head, data, 8);
	data += 8;
	size -= 8;
	if (pwrite(fd, zero, sizeof(zero), 0) != (ssize_t)sizeof(zero))
		abort();
	n = size < 4096 ? size : 4096;
	if (pwrite(fd, data, n, 0) != (ssize_t)n)
		abort();
	if (size > n && pwrite(fd, data + n, size - n, 65536) != (ssize_t)(size - n))
		abort();
	if (fsstamp_read(fd, head, &f) == 0) {
		if (f.kind != TORPOR_FS_EXT && f.kind != TORPOR_FS_BTRFS && f.kind != TORPOR_FS_XFS)
			abort();
		if (f.kind == TORPOR_FS_XFS && f.mount_time != FSSTAMP_NO_LOG_HEAD &&
		    f.mount_time != head)
			abort();
		if (!fsstamp_same(&f, &f))
			abort();
	}
	/* the log head text of sysfs, from the same bytes */
	n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
	memcpy(text, data, n);
	text[n] = '\0';
	if (fsstamp_parse_log_head(text, &head) == 0 && (head >> 32) == 0)
		abort();
	return 0;
}
