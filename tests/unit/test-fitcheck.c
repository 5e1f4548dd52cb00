// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fitcheck.c - will the image fit: /proc/meminfo parsing, the estimate of
 * the kernel's shrinking and of the compressed image, where the pages swapped
 * out go (the priorities of /proc/swaps), the margin, and the image_size knob
 * read
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fitcheck.h"
#include "fitinput.h"
#include "imagesize.h"
#include "swaps.h"
#include "tap.h"


/* a /proc/meminfo shaped like the QEMU guest's with the 256 MiB workload (1 GiB) */
static const char guest[] =
	"MemTotal:        1004200 kB\n"
	"MemFree:          651232 kB\n"
	"MemAvailable:     636500 kB\n"
	"Buffers:               0 kB\n"
	"Cached:            72176 kB\n"
	"SwapCached:            0 kB\n"
	"Active:            10964 kB\n"
	"Inactive:         325604 kB\n"
	"Active(anon):       1660 kB\n"
	"Inactive(anon):   262772 kB\n"
	"Active(file):       9304 kB\n"
	"Inactive(file):    62832 kB\n"
	"Unevictable:           0 kB\n"
	"SReclaimable:       5120 kB\n"
	"SUnreclaim:        14000 kB\n"
	"HugePages_Total:       0\n"
	"Hugepagesize:       2048 kB\n";

static void test_parse(void)
{
	struct fit_meminfo m;
	char buf[2048];

	tap_ok(fitcheck_parse_meminfo(guest, &m) == 0 && m.total == 1004200ull << 10 &&
	       m.free == 651232ull << 10 && m.anon == (1660ull + 262772) << 10 &&
	       m.file == (9304ull + 62832) << 10 && m.slab_reclaimable == 5120ull << 10,
	       "fitcheck: meminfo's fields read, LRU lines summed, lines without kB skipped");
	snprintf(buf, sizeof(buf), "%s", guest);
	memcpy(strstr(buf, "MemFree"), "MemFrex", 7);
	tap_ok(fitcheck_parse_meminfo(buf, &m) == -EINVAL, "fitcheck: meminfo without MemFree refused");
	snprintf(buf, sizeof(buf), "%s", guest);
	memcpy(strstr(buf, "62832 kB"), "62832 MB", 8);
	tap_ok(fitcheck_parse_meminfo(buf, &m) == -EINVAL, "fitcheck: a unit other than kB refused");
	snprintf(buf, sizeof(buf), "%s", guest);
	memcpy(strstr(buf, "1660"), "1-60", 4);
	tap_ok(fitcheck_parse_meminfo(buf, &m) == -EINVAL, "fitcheck: a malformed number refused");
	snprintf(buf, sizeof(buf), "%sMemFree: 1 kB\n", guest);
	tap_ok(fitcheck_parse_meminfo(buf, &m) == -EINVAL, "fitcheck: a field given twice refused");
	snprintf(buf, sizeof(buf), "MemTotal: 99999999999999999999 kB\nMemFree: 1 kB\n"
		 "Active(anon): 1 kB\nInactive(anon): 1 kB\nActive(file): 1 kB\n"
		 "Inactive(file): 1 kB\n");
	tap_ok(fitcheck_parse_meminfo(buf, &m) == -EINVAL, "fitcheck: a size past 64 bits refused");
	snprintf(buf, sizeof(buf), "MemTotal: 8 kB\nMemFree: 4 kB\nActive(anon): 1 kB\n"
		 "Inactive(anon): 1 kB\nActive(file): 1 kB\nInactive(file): 0 kB");
	tap_ok(fitcheck_parse_meminfo(buf, &m) == 0 && m.slab_reclaimable == 0 && m.file == 1024,
	       "fitcheck: no SReclaimable is 0, a last line without newline is read");
	tap_ok(fitcheck_parse_meminfo("", &m) == -EINVAL, "fitcheck: an empty text refused");
}

static void test_read(void)
{
	char path[] = "/tmp/torpor-meminfo-XXXXXX";
	struct fit_meminfo m;
	uint64_t v = 0;
	int fd = mkstemp(path);

	tap_ok(fd >= 0 && write(fd, guest, strlen(guest)) == (ssize_t)strlen(guest) &&
	       fitcheck_read_meminfo(path, &m) == 0 && m.free == 651232ull << 10,
	       "fitcheck: meminfo read from a file");
	tap_ok(fd >= 0 && ftruncate(fd, 0) == 0 && pwrite(fd, "429496729\n", 10, 0) == 10 &&
	       imagesize_read(path, &v) == 0 && v == 429496729, "fitcheck: image_size read");
	tap_ok(fd >= 0 && pwrite(fd, "4x9496729\n", 10, 0) == 10 && imagesize_read(path, &v) ==
	       -EINVAL, "fitcheck: an image_size that is not a number refused");
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	tap_ok(fitcheck_read_meminfo("/nonexistent/meminfo", &m) == -ENOENT,
	       "fitcheck: a missing meminfo says -ENOENT");
}

static void test_estimate(void)
{
	struct fit_input in;
	struct fit_estimate e;
	uint64_t stream;

	/* 300 MiB in use, image_size 400 MiB: all of it, no shrinking */
	in = input(1024, 724, 260, 20, 5, 400);
	fitcheck_estimate(&in, &e);
	stream = PS + 300 * MIB / PS * 8 + 300 * MIB;
	tap_ok(e.in_use == 300 * MIB && e.image == 300 * MIB && e.swapped == 0 &&
	       e.stored == stream && e.need == stream && e.ratio_permille == 1000,
	       "fitcheck: below image_size everything in use is the image; no sample: ratio 1");
	tap_ok(e.margin == stream / 16 + 4 * MIB, "fitcheck: the margin is a sixteenth and 4 MiB");

	sample(&in, 64, 33);
	in.map_bytes = 3 * PS;
	fitcheck_estimate(&in, &e);
	tap_ok(e.ratio_permille == 515 && e.stored == (stream * 33 / 64 + PS - 1) / PS * PS + 3 * PS &&
	       e.need == e.stored, "fitcheck: the sample's ratio applied to the stream, the map added");

	/* present memory beyond MemTotal (the kernel, struct pages) is saved too */
	in = input(1024, 724, 260, 20, 5, 400);
	in.present = 1040 * MIB;
	in.extra = 8 * MIB;
	fitcheck_estimate(&in, &e);
	tap_ok(e.in_use == 324 * MIB && e.image == 324 * MIB,
	       "fitcheck: reserved memory and the buffers still to be locked count as in use");

	/* 600 MiB in use, image_size 200: the cache (250 + 30) goes, 120 MiB of anon swapped */
	in = input(1024, 424, 300, 250, 30, 200);
	fitcheck_estimate(&in, &e);
	tap_ok(e.image == 200 * MIB && e.swapped == 120 * MIB,
	       "fitcheck: above image_size the kernel drops the cache, then swaps (%llu, %llu MiB)",
	       (unsigned long long)(e.image / MIB), (unsigned long long)(e.swapped / MIB));
	tap_ok(e.need == e.stored + e.swapped, "fitcheck: the swapped-out memory is needed as it is");

	/* same, much cache: nothing swapped */
	in = input(1024, 424, 100, 400, 30, 200);
	fitcheck_estimate(&in, &e);
	tap_ok(e.image == 200 * MIB && e.swapped == 0, "fitcheck: cache enough, nothing swapped");

	/* 600 MiB in use, 500 of it not reclaimable: the kernel's minimum is 500 */
	in = input(1024, 424, 50, 40, 10, 200);
	fitcheck_estimate(&in, &e);
	tap_ok(e.image == 500 * MIB && e.swapped == 50 * MIB,
	       "fitcheck: never below what cannot be reclaimed (%llu MiB)",
	       (unsigned long long)(e.image / MIB));

	/* 800 MiB in use of 1 GiB, image_size huge: at most half of used and free */
	in = input(1024, 224, 700, 50, 10, 100000);
	fitcheck_estimate(&in, &e);
	tap_ok(e.image == 512 * MIB && e.swapped == 800 * MIB - 512 * MIB - 60 * MIB,
	       "fitcheck: the image is at most half of memory, whatever image_size says");

	/* 800 MiB in use, none reclaimable: the minimum stops at half of memory */
	in = input(1024, 224, 0, 0, 0, 100);
	fitcheck_estimate(&in, &e);
	tap_ok(e.image == 512 * MIB && e.swapped == 0,
	       "fitcheck: a minimum beyond half of memory is cut to it");

	/* more free than present (cannot be): nothing in use, one header page */
	in = input(1024, 2048, 0, 0, 0, 400);
	fitcheck_estimate(&in, &e);
	tap_ok(e.in_use == 0 && e.stored == PS, "fitcheck: nonsense counts saturate at 0");
}

#define HEADER "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"

/*
 * @in's areas from a /proc/swaps fixture, read from a file as torpor-suspend
 * reads /proc/swaps, the target at @target.  Returns fitcheck_set_areas()'s
 * answer, or -EIO when the fixture cannot be written or read.
 */
static int set_swaps(struct fit_input *in, const char *fixture, const char *target)
{
	char path[] = "/tmp/torpor-fitswaps-XXXXXX";
	struct swap_entry *sw = NULL;
	size_t n = 0;
	int fd = mkstemp(path), r = -EIO;

	if (fd < 0)
		return -EIO;
	if (write(fd, fixture, strlen(fixture)) == (ssize_t)strlen(fixture) &&
	    swaps_read(path, &sw, &n) == 0)
		r = fitcheck_set_areas(in, sw, n, target);
	free(sw);
	close(fd);
	unlink(path);
	return r;
}

/* @a within 1% (and a page) of @b MiB */
static int near(uint64_t a, uint64_t b_mib)
{
	uint64_t b = b_mib * MIB, d = a > b ? a - b : b - a;

	return d <= b / 100 + PS;
}

/* Fedora's layout: zram (priority 100, 8 GiB) before the disk area for hibernation */
static const char fedora[] = HEADER
	"/dev/zram0                              partition\t8388604\t\t0\t\t100\n"
	"/dev/nvme0n1p3                          partition\t8388604\t\t0\t\t-2\n";

static void test_priorities(void)
{
	struct fit_input in;
	struct fit_estimate e, alone;
	char fx[512];

	/*
	 * The cold review's machine: 16 GiB, 11.5 GiB anonymous, 1 GiB of cache,
	 * 3 GiB free, image_size 2/5 of RAM, ratio 0.4, an 8 GiB disk area.  The
	 * kernel frees 5.6 GiB of anonymous memory: charged to the disk area it
	 * is refused; zram takes its 8 GiB first (freeing 0.6 of each page) and the
	 * disk area the 0.8 GiB more.
	 */
	in = input(16384, 3072, 11776, 1024, 0, 16384 * 2 / 5);
	sample(&in, 100, 40);
	fitcheck_estimate(&in, &alone);
	tap_ok(!fitcheck_fits(&alone, 8192 * MIB) && alone.swapped_here == alone.swapped &&
	       near(alone.swapped, 16384 - 3072 - 6553 - 1024),
	       "fitcheck: review's machine, every page swapped out charged to the target: refused "
	       "(%llu MiB)", (unsigned long long)((alone.need + alone.margin) / MIB));
	tap_ok(set_swaps(&in, fedora, "/dev/nvme0n1p3") == 0 && in.nr_areas == 1 &&
	       in.target_prio == -2 && in.areas[0].prio == 100 && in.areas[0].in_memory &&
	       in.areas[0].free == 8388604ull << 10,
	       "fitcheck: zram of priority 100 is ahead of the disk area of -2");
	fitcheck_estimate(&in, &e);
	tap_ok(fitcheck_fits(&e, 8192 * MIB),
	       "fitcheck: review's machine with zram ahead: fits 8 GiB (%llu MiB with the margin)",
	       (unsigned long long)((e.need + e.margin) / MIB));
	tap_ok(near(e.swapped_here, 5734 - 8192 * 6 / 10) && near(e.swapped, 8192 + 819) &&
	       near(e.pool, 8192 * 4 / 10),
	       "fitcheck: zram full (8 GiB, 3.2 GiB of copies), 0.8 GiB to the disk area (%llu, "
	       "%llu, %llu MiB)", (unsigned long long)(e.swapped / MIB),
	       (unsigned long long)(e.swapped_here / MIB), (unsigned long long)(e.pool / MIB));
	tap_ok(e.image == alone.image && e.stored > alone.stored + e.pool / 2,
	       "fitcheck: zram's copies are in the image, incompressible (%llu MiB stored)",
	       (unsigned long long)(e.stored / MIB));

	/* less to free: zram takes it all, nothing swapped to the disk area */
	in = input(16384, 5632, 9216, 1024, 0, 16384 * 2 / 5);
	sample(&in, 100, 40);
	set_swaps(&in, fedora, "/dev/nvme0n1p3");
	fitcheck_estimate(&in, &e);
	tap_ok(e.swapped_here == 0 && near(e.swapped, (10752 - 6553 - 1024) * 10 / 6) &&
	       near(e.pool, (10752 - 6553 - 1024) * 4 / 6) && e.need == e.stored,
	       "fitcheck: zram with room takes every page swapped out (%llu MiB)",
	       (unsigned long long)(e.swapped / MIB));

	/* zram nearly full: the disk area takes the rest */
	snprintf(fx, sizeof(fx), HEADER "/dev/zram0 partition 8388604 8126460 100\n"
		 "/dev/nvme0n1p3 partition 8388604 0 -2\n");
	set_swaps(&in, fx, "/dev/nvme0n1p3");
	fitcheck_estimate(&in, &e);
	tap_ok(near(e.swapped_here, 10752 - 6553 - 1024 - 256 * 6 / 10),
	       "fitcheck: zram's Used counts: 256 MiB free there, the rest here (%llu MiB)",
	       (unsigned long long)(e.swapped_here / MIB));

	/* zram after the target: it takes nothing before it */
	snprintf(fx, sizeof(fx), HEADER "/dev/zram0 partition 8388604 0 5\n"
		 "/dev/nvme0n1p3 partition 8388604 0 10\n");
	tap_ok(set_swaps(&in, fx, "/dev/nvme0n1p3") == 0 && in.nr_areas == 0,
	       "fitcheck: an area of lower priority than the target is left out");
	fitcheck_estimate(&in, &e);
	tap_ok(e.swapped_here == e.swapped && near(e.swapped, 10752 - 6553 - 1024) && e.pool == 0,
	       "fitcheck: the target of the highest priority takes everything");

	/*
	 * No sample: memory counts as incompressible, so zram's copies as big as
	 * the pages: its 8 GiB free nothing, the 3.5 GiB of anonymous memory left
	 * go to the target and the snapshot stays at half of memory.
	 */
	in = input(16384, 3072, 11776, 1024, 0, 16384 * 2 / 5);
	set_swaps(&in, fedora, "/dev/nvme0n1p3");
	fitcheck_estimate(&in, &e);
	tap_ok(near(e.swapped_here, 11776 - 8192) && e.swapped == 11776 * MIB &&
	       e.image == 8192 * MIB && near(e.pool, 8192) && e.ratio_permille == 1000 &&
	       !fitcheck_fits(&e, 8192 * MIB),
	       "fitcheck: without a sample zram frees nothing (%llu MiB here, image %llu MiB)",
	       (unsigned long long)(e.swapped_here / MIB), (unsigned long long)(e.image / MIB));
}

static void test_turns(void)
{
	struct fit_input in;
	struct fit_estimate e;
	char fx[512];

	/* 600 MiB in use, image_size 200: 120 MiB of anonymous memory to swap out */
	in = input(1024, 424, 300, 250, 30, 200);
	snprintf(fx, sizeof(fx), HEADER "/dev/vda2 partition 1048572 0 5\n"
		 "/dev/vdb partition 1048572 0 5\n");
	tap_ok(set_swaps(&in, fx, "/dev/vdb") == 0 && in.nr_areas == 1 && in.target_prio == 5,
	       "fitcheck: an area of the target's priority is counted");
	fitcheck_estimate(&in, &e);
	tap_ok(near(e.swapped_here, 60) && near(e.swapped, 120),
	       "fitcheck: equal priorities take turns: half here (%llu MiB)",
	       (unsigned long long)(e.swapped_here / MIB));

	snprintf(fx, sizeof(fx), HEADER "/dev/vda2 partition 20480 0 5\n"
		 "/dev/vdb partition 1048572 0 5\n");
	set_swaps(&in, fx, "/dev/vdb");
	fitcheck_estimate(&in, &e);
	tap_ok(near(e.swapped_here, 100) && near(e.swapped, 120),
	       "fitcheck: a full partner leaves the rest here (%llu MiB)",
	       (unsigned long long)(e.swapped_here / MIB));

	/* a disk area ahead frees a page a page, keeps no copy */
	snprintf(fx, sizeof(fx), HEADER "/dev/vdb partition 1048572 0 -2\n"
		 "/dev/vda2 partition 81920 0 1\n");
	set_swaps(&in, fx, "/dev/vdb");
	fitcheck_estimate(&in, &e);
	tap_ok(near(e.swapped_here, 40) && e.pool == 0,
	       "fitcheck: 80 MiB on a disk area ahead, 40 here (%llu MiB)",
	       (unsigned long long)(e.swapped_here / MIB));

	/* the target missing from /proc/swaps: everything is its */
	tap_ok(set_swaps(&in, fx, "/dev/vdc") == -ENOENT && in.nr_areas == 0,
	       "fitcheck: a target not listed: -ENOENT, no area");
	snprintf(fx, sizeof(fx), HEADER "/dev/zram0 partition 1048572 0 100\n"
		 "/dev/vdb partition 1048572 0\n");
	tap_ok(set_swaps(&in, fx, "/dev/vdb") == -ENOENT && in.nr_areas == 0,
	       "fitcheck: a target without a priority: -ENOENT, no area");
	fitcheck_estimate(&in, &e);
	tap_ok(e.swapped_here == 120 * MIB, "fitcheck: then the target takes all of it");
}

static void test_imagefile(void)
{
	struct fit_input in;
	struct fit_estimate e;

	/*
	 * A zram-only machine hibernating into the image file: swapon() without a
	 * priority gives it one below every other area, zram's too when zram was
	 * itself activated without one (-2).  2 GiB, zram of 1 GiB, 1.4 GiB of
	 * anonymous memory, image_size 800 MiB: 600 MiB to free.
	 */
	in = input(2048, 448, 1400, 150, 50, 800);
	sample(&in, 100, 35);
	tap_ok(set_swaps(&in, HEADER "/dev/zram0 partition 1048572 0 -2\n"
			 "/var/lib/torpor/image file 1048572 0 -3\n", "/var/lib/torpor/image") ==
	       0 && in.nr_areas == 1 && in.areas[0].in_memory,
	       "fitcheck: zram activated without a priority is still ahead of the image file");
	fitcheck_estimate(&in, &e);
	tap_ok(e.swapped_here == 0 && near(e.swapped, 600 * 100 / 65) &&
	       fitcheck_fits(&e, 1024 * MIB),
	       "fitcheck: zram takes the swapped-out pages, the file only the image (%llu MiB)",
	       (unsigned long long)(e.need / MIB));

	/* too few anonymous pages for zram to free enough: the image stays larger */
	in = input(1024, 700, 262, 60, 5, 96);
	sample(&in, 100, 50);
	set_swaps(&in, HEADER "/dev/zram0 partition 524284 0 100\n"
		  "/var/lib/torpor/image file 262140 0 -2\n", "/var/lib/torpor/image");
	fitcheck_estimate(&in, &e);
	tap_ok(near(e.swapped, 262) && near(e.image, 324 - 65 - 131) && e.swapped_here == 0,
	       "fitcheck: every anonymous page in zram frees half: %llu MiB left in the image",
	       (unsigned long long)(e.image / MIB));
}

static void test_advise(void)
{
	struct fit_input in, t;
	struct fit_estimate e;
	uint64_t size = 0;
	int r;

	/*
	 * The review's machine with the 8 GiB disk area alone: what the kernel
	 * swaps out lands there as it is, so a higher image_size (at most half of
	 * memory is kept) swaps out less: 7844 MiB with the margin.  A lower one
	 * would swap out more.
	 */
	in = input(16384, 3072, 11776, 1024, 0, 16384 * 2 / 5);
	sample(&in, 100, 40);
	r = fitcheck_advise(&in, 8192 * MIB, &size);
	tap_ok(r == 1 && size == 8192 * MIB,
	       "fitcheck: swapped out to the target: raise image_size to half of memory (%llu MiB)",
	       (unsigned long long)(size / MIB));
	t = in;
	t.image_size = 0;
	fitcheck_estimate(&t, &e);
	tap_ok(!fitcheck_fits(&e, 8192 * MIB), "fitcheck: the smallest image_size does not fit it");
	tap_ok(fitcheck_advise(&in, 7168 * MIB, &size) == 0,
	       "fitcheck: a 7 GiB area fits with no image_size");

	/* zram ahead, a 5.5 GiB area: zram full at 7373 MiB, the nearest of the least needs */
	set_swaps(&in, fedora, "/dev/nvme0n1p3");
	fitcheck_estimate(&in, &e);
	r = fitcheck_advise(&in, 5632 * MIB, &size);
	tap_ok(!fitcheck_fits(&e, 5632 * MIB) && r == 1 &&
	       size > in.image_size && near(size, 16384 - 3072 - 1024 - 8192 * 6 / 10),
	       "fitcheck: zram full and the target taking the rest: raise image_size until zram "
	       "takes it all (%llu MiB)", (unsigned long long)(size / MIB));
	t = in;
	t.image_size = size;
	fitcheck_estimate(&t, &e);
	tap_ok(e.swapped_here == 0 && fitcheck_fits(&e, 5632 * MIB),
	       "fitcheck: with it nothing is swapped out to the target (%llu MiB)",
	       (unsigned long long)((e.need + e.margin) / MIB));
	tap_ok(fitcheck_advise(&in, 5120 * MIB, &size) == 0,
	       "fitcheck: 5 GiB fits with no image_size");

	/* 600 MiB in use, 430 of it cache: a lower image_size drops it, swaps nothing */
	in = input(1024, 424, 100, 400, 30, 400);
	sample(&in, 100, 50);
	fitcheck_estimate(&in, &e);
	r = fitcheck_advise(&in, 150 * MIB, &size);
	tap_ok(!fitcheck_fits(&e, 150 * MIB) && r == 1 &&
	       size == 170 * MIB, "fitcheck: much cache: lower image_size to what it leaves "
	       "(%llu MiB)", (unsigned long long)(size / MIB));
	tap_ok(fitcheck_advise(&in, 80 * MIB, &size) == 0,
	       "fitcheck: smaller than what is not cache: no image_size");
}

static void test_fits(void)
{
	struct fit_input in;
	struct fit_estimate e;

	/* the QEMU scenarios: 256 MiB of half-random pages and ~60 MiB else in use */
	in = input(1024, 700, 262, 60, 5, 400);
	sample(&in, 64, 34);
	fitcheck_estimate(&in, &e);
	tap_ok(!fitcheck_fits(&e, 48 * MIB), "fitcheck: 324 MiB at ratio 0.53 does not fit 48 MiB");
	tap_ok(fitcheck_fits(&e, 1023 * MIB), "fitcheck: it fits a 1 GiB area");
	tap_ok(fitcheck_fits(&e, e.need + e.margin) && !fitcheck_fits(&e, e.need + e.margin - 1),
	       "fitcheck: it fits exactly with the margin, not a byte less");
	tap_ok(!fitcheck_fits(&e, e.need), "fitcheck: the need without the margin does not fit");
	tap_ok(!fitcheck_fits(&e, 0), "fitcheck: a full area does not fit");
}

int main(void)
{
	test_parse();
	test_read();
	test_estimate();
	test_priorities();
	test_turns();
	test_imagefile();
	test_advise();
	test_fits();
	return tap_done();
}
