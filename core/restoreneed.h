/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * restoreneed.h - the free memory a boot needs to restore an image: what the
 * kernel allocates for its pages and tables, torpor-resume's buffers, a margin
 */
#ifndef CORE_RESTORENEED_H
#define CORE_RESTORENEED_H

#include <stdint.h>

/* torpor-resume's buffers while it feeds the image, every process (resume/loadfeed.c) */
#define RESTORENEED_LOADER_BYTES	(16ull << 20)
/* the kernel's own while restoring (freezing, devices, temporary page tables),
 * and the reserve its atomic allocations may not take */
#define RESTORENEED_KERNEL_BYTES	(8ull << 20)

uint64_t restoreneed_bytes(uint64_t image_pages, uint64_t ram_pages, uint32_t page_size);
uint64_t restoreneed_max_pages(uint64_t room, uint64_t ram_pages, uint32_t page_size);

#endif
