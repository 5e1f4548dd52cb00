// SPDX-License-Identifier: GPL-2.0-only
/* test-swaps.c - the /proc/swaps reader: escapes, types, the header, odd lines */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swaps.h"
#include "tap.h"

static void test_line(void)
{
	struct swap_entry e;

	tap_ok(swaps_parse_line("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n", &e) ==
	       -ENOENT, "swaps: the header line is not an area");
	tap_ok(swaps_parse_line("/dev/vdb1                               partition\t1048572\t\t0"
				"\t\t-2\n", &e) == 0 && !e.is_file && e.kib == 1048572 &&
	       !strcmp(e.path, "/dev/vdb1"), "swaps: a partition");
	tap_ok(swaps_parse_line("/swap\\040file\\011x file 196604 0 -3\n", &e) == 0 && e.is_file &&
	       !strcmp(e.path, "/swap file\tx"), "swaps: a file, octal escapes undone");
	tap_ok(swaps_parse_line("/dev/zram0 partition 4194300 12 100\n", &e) == 0 && !e.is_file &&
	       e.used_kib == 12, "swaps: zram is a partition; the Used column read");
	tap_ok(swaps_parse_line("/dev/vdb partition 49148\n", &e) == 0 && e.kib == 49148 &&
	       e.used_kib == 0, "swaps: a line without the Used column counts as unused");
	tap_ok(swaps_parse_line("/dev/zram0\t\t\t\t\tpartition\t8388604\t\t524288\t\t100\n", &e) ==
	       0 && e.has_prio && e.prio == 100, "swaps: the Priority column read (100)");
	tap_ok(swaps_parse_line("/dev/vdb2 partition 8388604 0 -2\n", &e) == 0 && e.has_prio &&
	       e.prio == -2, "swaps: a default priority is negative (-2)");
	tap_ok(swaps_parse_line("/dev/vdb2 partition 8388604 0 32767\n", &e) == 0 && e.has_prio &&
	       e.prio == 32767, "swaps: the highest priority swapon gives");
	tap_ok(swaps_parse_line("/dev/vdb partition 49148 0\n", &e) == 0 && !e.has_prio,
	       "swaps: a line without the Priority column has none");
	tap_ok(swaps_parse_line("/dev/vdb partition 49148 0 1x\n", &e) == 0 && !e.has_prio &&
	       swaps_parse_line("/dev/vdb partition 49148 0 99999999999999999999\n", &e) == 0 &&
	       !e.has_prio, "swaps: a Priority that is not a number is none; the area stays");
	tap_ok(swaps_parse_line("/x weird 100 0 -1\n", &e) == -EINVAL, "swaps: unknown type refused");
	tap_ok(swaps_parse_line("/x file\n", &e) == -EINVAL, "swaps: a line without a size refused");
	tap_ok(swaps_parse_line("", &e) == -EINVAL, "swaps: an empty line refused");
}

static void test_file(void)
{
	char path[] = "/tmp/torpor-swaps-XXXXXX";
	struct swap_entry *sw = NULL;
	size_t n = 0;
	FILE *f;
	int fd, r;

	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (f) {
		fputs("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		      "/dev/vdb partition 1048572 0 -2\n"
		      "garbage\n"
		      "/var/lib/torpor/image file 524284 0 -3\n", f);
		fclose(f);
	}
	r = swaps_read(path, &sw, &n);
	tap_ok(r == 0 && n == 2 && !strcmp(sw[0].path, "/dev/vdb") && sw[1].is_file &&
	       sw[1].kib == 524284, "swaps: a file of two areas, a header and garbage (%zu)", n);
	tap_ok(r == 0 && n == 2 && sw[0].prio == -2 && sw[1].prio == -3 && sw[0].has_prio &&
	       sw[1].has_prio, "swaps: each area's priority read from the file");
	free(sw);
	unlink(path);
	tap_ok(swaps_read("/nonexistent/swaps", &sw, &n) == -ENOENT, "swaps: a missing file is -ENOENT");
	tap_ok(swaps_read("/proc/swaps", &sw, &n) == 0, "swaps: this machine's /proc/swaps reads");
	free(sw);
}

int main(void)
{
	test_line();
	test_file();
	return tap_done();
}
