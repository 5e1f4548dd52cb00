/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snapinfo.h - the kernel's header page of the snapshot stream: how many pages
 * restoring the image takes (snapinfo.c)
 */
#ifndef RESUME_SNAPINFO_H
#define RESUME_SNAPINFO_H

#include <stdint.h>

int snapinfo_restore_pages(const uint8_t *page, uint32_t page_size, uint64_t stream_bytes,
			   uint64_t *ret_pages);

#endif
