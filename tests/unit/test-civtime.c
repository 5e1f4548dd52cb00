// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-civtime.c - core/civtime.c's dates (issue 25) against glibc's gmtime()
 * over 1970 to 2400, step by step through leap days and century years, and the
 * largest value a hostile disk can hold
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "civtime.h"
#include "tap.h"

static int same_as_gmtime(uint64_t secs)
{
	char got[64], want[64];
	time_t t = (time_t)secs;
	struct tm tm;

	civtime_format(secs, got, sizeof(got));
	if (!gmtime_r(&t, &tm))
		return 0;
	strftime(want, sizeof(want), "%Y-%m-%d %H:%M UTC", &tm);
	if (strcmp(got, want)) {
		printf("# %" PRIu64 ": got '%s', want '%s'\n", secs, got, want);
		return 0;
	}
	return 1;
}

int main(void)
{
	char buf[64];
	uint64_t s;
	int ok = 1;

	civtime_format(0, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "1970-01-01 00:00 UTC"), "civtime: the epoch (%s)", buf);
	civtime_format(1700000000, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "2023-11-14 22:13 UTC"), "civtime: 1700000000 (%s)", buf);
	civtime_format(951782400, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "2000-02-29 00:00 UTC"), "civtime: a leap day of a 400th year (%s)",
	       buf);
	for (s = 0; s < 13569465600ull && ok; s += 86400 / 2 + 61)
		ok = same_as_gmtime(s);
	tap_ok(ok, "civtime: as gmtime() every 12 h 1 min from 1970 to 2400");
	civtime_format(UINT64_MAX, buf, sizeof(buf));
	tap_ok(strlen(buf) > 20 && !strcmp(buf + strlen(buf) - 4, " UTC"),
	       "civtime: the largest value formats (%s)", buf);
	civtime_format(1700000000, buf, 8);
	tap_ok(!strcmp(buf, "2023-11"), "civtime: cut to the buffer (%s)", buf);
	return tap_done();
}
