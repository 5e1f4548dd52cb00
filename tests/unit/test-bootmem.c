// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bootmem.c - what the next boot needs free to restore an image: the
 * kernel's pages and tables (restoreneed), the largest image a boot with a
 * given initramfs restores (bootroom), the page count read from the kernel's
 * header page (snapinfo), and MemFree (sysmem)
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "bootroom.h"
#include "restoreneed.h"
#include "snapinfo.h"
#include "sysmem.h"
#include "tap.h"

#define MIB (1ull << 20)
#define PS 4096u

/* written out from kernel/power/snapshot.c, not from restoreneed.c */
static void test_need(void)
{
	uint64_t fixed = (16 + 8) * MIB, ram = 262144;	/* 1 GiB */
	/* six bitmaps of 262144 bits, 8 pages each, and 5 pages of tree each */
	uint64_t bitmaps = 6 * (8 + 5);
	uint64_t n, room;

	tap_ok(restoreneed_bytes(0, ram, PS) == bitmaps * PS + fixed,
	       "restoreneed: no page: the bitmaps, torpor-resume's buffers, the kernel's margin "
	       "(%llu KiB)", (unsigned long long)(restoreneed_bytes(0, ram, PS) >> 10));
	/* 170 PBEs of 24 bytes fit a 4 KiB page beside its link */
	tap_ok(restoreneed_bytes(170000, ram, PS) == (170000 + 1000 + bitmaps) * PS + fixed,
	       "restoreneed: a page a page of the image, and a page of PBEs for each 170");
	tap_ok(restoreneed_bytes(170001, ram, PS) == (170001 + 1001 + bitmaps) * PS + fixed,
	       "restoreneed: a part page of PBEs is a page");

	room = 300 * MIB;
	n = restoreneed_max_pages(room, ram, PS);
	tap_ok(n > 0 && restoreneed_bytes(n, ram, PS) <= room &&
	       restoreneed_bytes(n + 1, ram, PS) > room,
	       "restoreneed: the most pages that fit 300 MiB, and not one more (%llu)",
	       (unsigned long long)n);
	tap_ok(restoreneed_max_pages(fixed, ram, PS) == 0 && restoreneed_max_pages(0, ram, PS) == 0,
	       "restoreneed: no room beyond the fixed part: no page");
}

static void test_bootroom(void)
{
	uint64_t total = 589 * MIB, max, hold;

	/* 48-bootmem's resume boot: 589 MiB, an initramfs of 263 MiB unpacked */
	max = bootroom_image_max(total, 640 * MIB, 263 * MIB, PS);
	hold = 48 * MIB + 32 * MIB + 263 * MIB + 263 * MIB / 16;
	/* resume counts up to a PFN page's worth (512 pages) more than the image has */
	tap_ok(max > 200 * MIB && max % PS == 0 &&
	       restoreneed_bytes(max / PS + 512, 640 * MIB / PS, PS) <= total - hold &&
	       restoreneed_bytes(max / PS + 513, 640 * MIB / PS, PS) > total - hold,
	       "bootroom: the largest image whose restore fits beside kernel, programs and "
	       "initramfs, a sixteenth more (%llu MiB)", (unsigned long long)(max / MIB));
	/* 106.25 MiB more held, less the PBEs' share: 105.6 MiB */
	tap_ok(bootroom_image_max(total, 640 * MIB, 10 * MIB, PS) -
	       bootroom_image_max(total, 640 * MIB, 110 * MIB, PS) > 105 * MIB,
	       "bootroom: 100 MiB more initramfs, more than 105 MiB less image");
	tap_ok(bootroom_image_max(total, 640 * MIB, 600 * MIB, PS) == 0 &&
	       bootroom_image_max(total, 640 * MIB, 500 * MIB, PS) == 0 &&
	       bootroom_image_max(total, 640 * MIB, UINT64_MAX, PS) == 0,
	       "bootroom: an initramfs that fills memory leaves no image");
}

/* struct swsusp_info on x86_64: image_pages at 416, pages at 424 (kernel/power/power.h) */
static void header(uint8_t *page, uint64_t image_pages, uint64_t pages)
{
	memset(page, 0, PS);
	/* x86's restore_data_record overlays the start */
	memset(page, 0xa5, 40);
	memcpy(page + 416, &image_pages, 8);
	memcpy(page + 424, &pages, 8);
}

static void test_snapinfo(void)
{
	static uint8_t page[PS];
	uint64_t n = 0;
	int r;

	if (sizeof(long) != 8) {
		tap_ok(1, "# SKIP snapinfo: the offsets checked are x86_64's");
		return;
	}
	/* 6.1: 1000 data pages, 2 PFN pages, the header */
	header(page, 1000, 1003);
	r = snapinfo_restore_pages(page, PS, 1003ull * PS, &n);
	tap_ok(r == 0 && n == 1024,
	       "snapinfo: the PFN pages' capacity, 512 a page (%llu)", (unsigned long long)n);
	/* 6.12: 100 data pages, 4 PFN pages: up to 2048 pages, zero pages among them */
	header(page, 100, 105);
	r = snapinfo_restore_pages(page, PS, 105ull * PS, &n);
	tap_ok(r == 0 && n == 2048,
	       "snapinfo: zero pages count, which have no data page (%llu)", (unsigned long long)n);
	n = 7;
	tap_ok(snapinfo_restore_pages(page, PS, 106ull * PS, &n) == -EINVAL && n == 7,
	       "snapinfo: a header of another length is not believed");
	header(page, 5000, 1003);
	tap_ok(snapinfo_restore_pages(page, PS, 1003ull * PS, &n) == -EINVAL,
	       "snapinfo: more data pages than the stream is not believed");
	header(page, 1000, 1001);
	tap_ok(snapinfo_restore_pages(page, PS, 1001ull * PS, &n) == -EINVAL,
	       "snapinfo: data pages without PFN pages are not believed");
	header(page, 2000, 1003);
	tap_ok(snapinfo_restore_pages(page, PS, 1003ull * PS, &n) == -EINVAL,
	       "snapinfo: more data pages than the PFN pages hold are not believed");
}

static void test_meminfo(void)
{
	static const char text[] = "MemTotal:         603480 kB\nMemFree:          556480 kB\n"
				   "MemAvailable:     512164 kB\n";
	uint64_t v = 0, total = 0, free_bytes = 0;

	tap_ok(sysmem_parse_meminfo(text, "MemFree", &v) == 0 && v == 556480ull * 1024,
	       "sysmem: MemFree in bytes");
	tap_ok(sysmem_parse_meminfo(text, "MemTotal", &v) == 0 && v == 603480ull * 1024,
	       "sysmem: MemTotal in bytes");
	tap_ok(sysmem_parse_meminfo(text, "Mem", &v) == -EINVAL &&
	       sysmem_parse_meminfo("MemFree: lots\n", "MemFree", &v) == -EINVAL &&
	       sysmem_parse_meminfo("MemFree: 12 pages\n", "MemFree", &v) == -EINVAL,
	       "sysmem: a prefix, a word or another unit is no value");
	tap_ok(sysmem_meminfo(&total, &free_bytes) == 0 && total > 0 && free_bytes <= total,
	       "sysmem: this machine's /proc/meminfo parses");
}

int main(void)
{
	test_need();
	test_bootroom();
	test_snapinfo();
	test_meminfo();
	return tap_done();
}
