// SPDX-License-Identifier: GPL-2.0-only
/*
 * snapinfo.c - the kernel's header page of the snapshot stream
 *
 * The stream's first page is the kernel's struct swsusp_info
 * (kernel/power/power.h): image_pages, the data pages that follow, and pages,
 * the whole stream.  In between come the PFN pages, a long for each page of
 * the image, zero pages included: on 6.6 and later a zero page has no data
 * page, but the kernel still allocates a page for it when restoring.  Only the
 * two counts are read, nothing else of the stream; the architecture's header
 * (x86: restore_data_record) overlays the start of the page, not them.
 */
#include <errno.h>
#include <string.h>

#include "snapinfo.h"

/* struct swsusp_info as the kernel lays it out, this program's ABI being the kernel's */
struct kernel_swsusp_info {
	char uts[6][65];		/* struct new_utsname */
	uint32_t version_code;
	unsigned long num_physpages;
	int cpus;
	unsigned long image_pages;	/* data pages after the PFN pages */
	unsigned long pages;		/* the whole stream, this page included */
	unsigned long size;		/* pages << PAGE_SHIFT */
};

/**
 * snapinfo_restore_pages() - the pages the kernel allocates to restore the
 * stream whose first page is @page: its PFN pages' capacity, a long a page
 * (an image's copied and zero pages; the last PFN page may be part empty, so
 * up to one PFN page's worth too many)
 * @stream_bytes: the stream's length, which the page must agree with
 *
 * Return: 0, or -EINVAL when the page does not describe a stream of that length.
 */
int snapinfo_restore_pages(const uint8_t *page, uint32_t page_size, uint64_t stream_bytes,
			   uint64_t *ret_pages)
{
	struct kernel_swsusp_info info;
	uint64_t meta, pages;

	if (page_size < sizeof(info) || page_size < sizeof(unsigned long))
		return -EINVAL;
	memcpy(&info, page, sizeof(info));
	if (!info.pages || stream_bytes % page_size || info.pages != stream_bytes / page_size ||
	    info.image_pages >= info.pages)
		return -EINVAL;
	meta = (uint64_t)info.pages - info.image_pages - 1;
	if (!meta && info.image_pages)
		return -EINVAL;
	pages = meta * (page_size / sizeof(unsigned long));
	if (pages < info.image_pages)
		return -EINVAL;
	*ret_pages = pages;
	return 0;
}
