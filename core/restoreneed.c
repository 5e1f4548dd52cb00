// SPDX-License-Identifier: GPL-2.0-only
/*
 * restoreneed.c - the free memory a boot needs to restore an image
 * (restoreneed.h)
 *
 * The kernel takes a free page for every page of the image, zero pages too
 * (6.6+), before the first data page arrives (kernel/power/snapshot.c,
 * prepare_image(), get_buffer()): its atomic allocations neither reclaim nor
 * wait, so what is not free then is an ENOMEM part way through the load, after
 * the image was invalidated.  Besides the pages: a page of PBEs (three
 * pointers each) for every page that cannot go straight to its place, counted
 * here for all of them, and the memory bitmaps, six of a bit a page of RAM
 * (the forbidden and free maps, the original, copy and zero maps, and the
 * copies prepare_image() makes of them), each with a page of tree per zone.
 * torpor-suspend caps image_size = auto with it, torpor-resume refuses an
 * image that needs more than this boot has free: the same sum on both sides.
 */
#include "restoreneed.h"

#define BITMAPS		6
#define ZONE_PAGES	5	/* a page of tree a zone, four zones and the root */

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/* the pages of PBEs for @pages pages: a linked page holds a pointer and the PBEs */
static uint64_t pbe_pages(uint64_t pages, uint32_t ps)
{
	uint64_t per_page = (ps - sizeof(void *)) / (3 * sizeof(void *));

	return div_up(pages, per_page);
}

/**
 * restoreneed_bytes() - the free memory a boot needs to restore an image
 * @image_pages: the pages the kernel allocates for it (copied and zero pages)
 * @ram_pages: the pages of RAM the kernel manages (the bitmaps' size)
 * @page_size: bytes a page
 *
 * Return: bytes, RESTORENEED_LOADER_BYTES and RESTORENEED_KERNEL_BYTES included.
 */
uint64_t restoreneed_bytes(uint64_t image_pages, uint64_t ram_pages, uint32_t page_size)
{
	uint64_t bitmap = div_up(ram_pages, 8ull * page_size) + ZONE_PAGES;

	return (image_pages + pbe_pages(image_pages, page_size) + BITMAPS * bitmap) * page_size +
	       RESTORENEED_LOADER_BYTES + RESTORENEED_KERNEL_BYTES;
}

/**
 * restoreneed_max_pages() - the most image pages a boot with @room bytes free
 * restores (restoreneed_bytes() of them at most @room); 0 when none
 */
uint64_t restoreneed_max_pages(uint64_t room, uint64_t ram_pages, uint32_t page_size)
{
	uint64_t lo = 0, hi = room / page_size + 1, mid;

	if (restoreneed_bytes(0, ram_pages, page_size) > room)
		return 0;
	/* restoreneed_bytes(lo) fits, restoreneed_bytes(hi) does not */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (restoreneed_bytes(mid, ram_pages, page_size) <= room)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
